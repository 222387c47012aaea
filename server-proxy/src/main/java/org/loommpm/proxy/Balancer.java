package org.loommpm.proxy;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A group of backends answering the same requests (httpd's {@code <Proxy balancer://name>}):
 * chooses a {@link Member} per attempt with its {@link LbMethod}, honours a sticky session's
 * route, keeps hot standbys for when no other member is usable, and runs the members' health
 * checks on one virtual thread ({@link HealthChecker}). A one-member balancer is what a plain
 * {@code ProxyPass} to a URL uses.
 *
 * <p><b>Threads.</b> {@link #choose} is called by every worker; the request-counting credit is
 * updated under a {@link ReentrantLock} held for a few arithmetic operations, never across I/O.
 * {@link #close} stops the health checks and the {@link TimeoutSweeper} and closes idle pooled
 * connections.
 */
public final class Balancer implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger("org.loommpm.proxy");
    /** httpd's {@code ProxyTimeout} default (its {@code Timeout}). */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);

    private final String name;
    private final Member[] members;
    private final LbMethod method;
    private final String stickySession;
    private final int maxAttempts;
    private final boolean noFailover;
    private final boolean forceRecovery;
    private final Duration timeout;
    private final ReentrantLock lock = new ReentrantLock();
    private final HealthChecker checker;
    private final TimeoutSweeper sweeper;

    private Balancer(Builder b) {
        this.name = b.name;
        this.members = b.members.toArray(new Member[0]);
        this.method = b.method;
        this.stickySession = b.stickySession;
        this.maxAttempts = b.maxAttempts >= 0 ? b.maxAttempts : Math.max(0, members.length - 1);
        this.noFailover = b.noFailover;
        this.forceRecovery = b.forceRecovery;
        this.timeout = b.timeout;
        for (Member m : members) {
            m.start(timeout);
        }
        this.checker = HealthChecker.startFor(this);
        Duration shortest = timeout;
        for (Member m : members) {
            if (m.timeout() != null && m.timeout().compareTo(shortest) < 0) {
                shortest = m.timeout();
            }
        }
        this.sweeper = new TimeoutSweeper(this, shortest);
    }

    /**
     * A balancer called {@code name} (as in {@code balancer://name}).
     *
     * @param name the balancer's name
     * @return a builder
     */
    public static Builder builder(String name) {
        return new Builder(name);
    }

    /**
     * The one-member balancer of a plain {@code ProxyPass} to a URL: without forced recovery, as
     * httpd's plain worker (not a balancer) stays in error state for its whole {@code retry}.
     */
    static Balancer single(Member m, Duration timeout) {
        return builder(m.url().authority()).member(m).timeout(timeout).forceRecovery(false).build();
    }

    /** {@return its name} */
    public String name() {
        return name;
    }

    /** {@return its members, in the order added} */
    public List<Member> members() {
        return List.of(members);
    }

    /** {@return the sticky-session cookie or parameter name, or null} */
    public String stickySession() {
        return stickySession;
    }

    /** {@return extra attempts after a failed connect (httpd's {@code maxattempts}, default members - 1)} */
    int maxAttempts() {
        return maxAttempts;
    }

    /** {@return the default read timeout of its members} */
    Duration timeout() {
        return timeout;
    }

    /**
     * Chooses a member for an attempt.
     *
     * @param route the sticky session's route, or null
     * @param tried members already tried for this request (bit {@code i} for member {@code i})
     * @return the member's index, or -1 when none is usable
     */
    int choose(String route, long tried) {
        int i = chooseUsable(route, tried);
        return i >= 0 || !forceRecovery || !recoverAll(tried) ? i : chooseUsable(route, tried);
    }

    private int chooseUsable(String route, long tried) {
        long now = System.nanoTime();
        if (route != null) {
            for (int i = 0; i < members.length; i++) {
                if ((tried & 1L << i) == 0 && route.equals(members[i].route()) && members[i].usable(now)) {
                    return i;
                }
            }
            if (noFailover && routeKnown(route)) {
                return -1;
            }
        }
        int pick = pick(now, tried, false);
        return pick >= 0 ? pick : pick(now, tried, true);
    }

    /**
     * httpd's {@code forcerecovery}: when every member is in error state, waiting out their
     * {@code retry} would answer 503 to everyone meanwhile, though the backends may well be back;
     * so the error state of those not yet tried by this request ends at once (LM2318). A member
     * that is disabled or failed its health check is not in error state, so it keeps this from
     * happening, as in httpd.
     *
     * @return whether any member was recovered
     */
    private boolean recoverAll(long tried) {
        long now = System.nanoTime();
        boolean untried = false;
        for (int i = 0; i < members.length; i++) {
            long until = members[i].errorUntil;
            if (until == 0 || now - until >= 0) {
                return false;
            }
            untried |= (tried & 1L << i) == 0;
        }
        if (!untried) {
            return false;
        }
        for (int i = 0; i < members.length; i++) {
            if ((tried & 1L << i) == 0) {
                members[i].errorUntil = 0;
            }
        }
        LOG.log(Level.WARNING, "LM2318 every member of {0} is in error state: forcing their recovery", this);
        return true;
    }

    private boolean routeKnown(String route) {
        for (Member m : members) {
            if (route.equals(m.route())) {
                return true;
            }
        }
        return false;
    }

    /** httpd's byrequests/bybusyness pass over the usable members of one kind (standby or not). */
    private int pick(long now, long tried, boolean standby) {
        lock.lock();
        try {
            int best = -1;
            int total = 0;
            for (int i = 0; i < members.length && i < 64; i++) {
                Member m = members[i];
                if ((tried & 1L << i) != 0 || m.hotStandby() != standby || !m.usable(now)) {
                    continue;
                }
                m.lbStatus += m.loadFactor();
                total += m.loadFactor();
                if (best < 0 || better(m, members[best])) {
                    best = i;
                }
            }
            if (best >= 0) {
                members[best].lbStatus -= total;
            }
            return best;
        } finally {
            lock.unlock();
        }
    }

    private boolean better(Member m, Member best) {
        if (method == LbMethod.BYBUSYNESS) {
            // Requests in flight per unit of weight, compared without division.
            long a = (long) m.busy() * best.loadFactor();
            long b = (long) best.busy() * m.loadFactor();
            if (a != b) {
                return a < b;
            }
        }
        return m.lbStatus > best.lbStatus;
    }

    Member member(int i) {
        return members[i];
    }

    /** Stops the health checks and closes idle backend connections. */
    @Override
    public void close() {
        if (checker != null) {
            checker.stop();
        }
        sweeper.stop();
        for (Member m : members) {
            m.pool().close();
        }
    }

    @Override
    public String toString() {
        return "balancer://" + name;
    }

    /** A balancer's parameters ({@code ProxySet} and {@code ProxyPass} key=value names). */
    public static final class Builder {
        private final String name;
        private final List<Member> members = new ArrayList<>();
        private LbMethod method = LbMethod.BYREQUESTS;
        private String stickySession;
        private int maxAttempts = -1;
        private boolean noFailover;
        private boolean forceRecovery = true;
        private Duration timeout = DEFAULT_TIMEOUT;

        private Builder(String name) {
            this.name = Objects.requireNonNull(name, "name");
        }

        /**
         * Adds a member (at most 64).
         *
         * @param m the value
         * @return this builder
         */
        public Builder member(Member m) {
            if (members.size() == 64) {
                throw new IllegalArgumentException("a balancer has at most 64 members");
            }
            members.add(Objects.requireNonNull(m, "member"));
            return this;
        }

        /**
         * Adds a member with default parameters.
         *
         * @param url the value
         * @return this builder
         */
        public Builder member(String url) {
            return member(Member.builder(url).build());
        }

        /**
         * {@code lbmethod} (default {@link LbMethod#BYREQUESTS}).
         *
         * @param m the value
         * @return this builder
         */
        public Builder lbMethod(LbMethod m) {
            method = Objects.requireNonNull(m, "lbmethod");
            return this;
        }

        /**
         * {@code stickysession}: the cookie and URL parameter ({@code NAME}, or {@code COOKIE|PARAM}
         * when they differ) whose value's route picks a member.
         *
         * @param cookieName the value
         * @return this builder
         */
        public Builder stickySession(String cookieName) {
            stickySession = cookieName;
            return this;
        }

        /**
         * {@code maxattempts}: extra members tried after a failed connect (default: members - 1).
         *
         * @param n the value
         * @return this builder
         */
        public Builder maxAttempts(int n) {
            if (n < 0) {
                throw new IllegalArgumentException("maxattempts must not be negative");
            }
            maxAttempts = n;
            return this;
        }

        /**
         * {@code nofailover=On}: a sticky request whose member is unusable gets 503.
         *
         * @param on whether it is on
         * @return this builder
         */
        public Builder noFailover(boolean on) {
            noFailover = on;
            return this;
        }

        /**
         * {@code forcerecovery} (default on, as httpd): when every member is in error state, their
         * error state ends at once instead of after {@code retry}; off spares overloaded backends
         * that stampede, at the price of 503s until a {@code retry} expires.
         *
         * @param on whether it is on
         * @return this builder
         */
        public Builder forceRecovery(boolean on) {
            forceRecovery = on;
            return this;
        }

        /**
         * {@code timeout}: the members' default read (and connect) timeout (default 60 s, httpd's).
         *
         * @param d the value
         * @return this builder
         */
        public Builder timeout(Duration d) {
            if (d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException("timeout must be positive");
            }
            timeout = d;
            return this;
        }

        /**
         * The balancer: its connection pools are created and its health checks start.
         *
         * @throws IllegalArgumentException if it has no member
         * @return the balancer
         */
        public Balancer build() {
            if (members.isEmpty()) {
                throw new IllegalArgumentException("balancer://" + name + " has no member");
            }
            return new Balancer(this);
        }
    }
}
