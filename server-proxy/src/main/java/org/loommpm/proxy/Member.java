package org.loommpm.proxy;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One backend of a {@link Balancer} (httpd's {@code BalancerMember}, a "worker"): its URL, its
 * parameters, and its live state (error state, health, requests in flight, pooled connections).
 * Build one with {@link #builder(String)}; the parameters keep httpd's names and defaults where
 * httpd has one.
 *
 * <p><b>Threads.</b> The parameters are final. The live state is read and written by every
 * worker proxying to the member and by the balancer's health-check thread: {@code errorUntil}
 * and {@code hcFailed} are volatile single values (last writer wins, which is what a state flag
 * needs), {@code busy} is atomic, {@code lbStatus} is only touched under the balancer's lock.
 */
public final class Member {
    private final BackendUrl url;
    /** {@code url.authority()}, worked out once: every request's {@code Host} field. */
    private final String authority;
    private final int loadFactor;
    private final String route;
    private final boolean hotStandby;
    private final boolean disabled;
    private final Duration retry;
    private final int max;
    private final Duration ttl;
    private final Duration connectTimeout;
    private final Duration timeout;
    private final Duration acquire;
    private final boolean disableReuse;
    private final HealthCheck healthCheck;

    private MemberPool pool;
    /** {@link System#nanoTime()} until which the member is in error state; 0 when it is not. */
    volatile long errorUntil;
    /** Taken out of rotation by its health check. */
    volatile boolean hcFailed;
    /** Consecutive health-check results of the current kind (health-check thread only). */
    int hcRun;
    final AtomicInteger busy = new AtomicInteger();
    /** Credit of the request-counting methods; guarded by the balancer's lock. */
    int lbStatus;

    private Member(Builder b) {
        this.url = b.url;
        this.authority = b.url.authority();
        this.loadFactor = b.loadFactor;
        this.route = b.route;
        this.hotStandby = b.hotStandby;
        this.disabled = b.disabled;
        this.retry = b.retry;
        this.max = b.max;
        this.ttl = b.ttl;
        this.connectTimeout = b.connectTimeout;
        this.timeout = b.timeout;
        this.acquire = b.acquire;
        this.disableReuse = b.disableReuse;
        this.healthCheck = b.healthCheck;
    }

    /**
     * A member for {@code http://host[:port][/path]}.
     *
     * @param url the member's URL
     * @return a builder
     */
    public static Builder builder(String url) {
        return new Builder(BackendUrl.parse(url));
    }

    /** Creates the connection pool once the balancer's default timeout is known. */
    void start(Duration defaultTimeout) {
        Duration connect = connectTimeout != null ? connectTimeout : defaultTimeout;
        Duration acq = acquire != null ? acquire : defaultTimeout;
        pool = new MemberPool(new InetSocketAddress(url.host(), url.port()), max, ttl.toNanos(), acq.toMillis(),
                (int) Math.min(Integer.MAX_VALUE, connect.toMillis()), !disableReuse);
    }

    MemberPool pool() {
        return pool;
    }

    /** Whether it may be chosen now: enabled, not failed by its health check, not in error state. */
    boolean usable(long now) {
        long until = errorUntil;
        return !disabled && !hcFailed && (until == 0 || now - until >= 0);
    }

    /** Puts it in error state for {@code retry}: chosen again once that has passed. */
    void markError(long now) {
        long until = now + retry.toNanos();
        errorUntil = until == 0 ? 1 : until;
    }

    /** {@return the backend's {@code host:port}, as a {@code Host} field value} */
    String authority() {
        return authority;
    }

    /** {@return the backend URL} */
    public BackendUrl url() {
        return url;
    }

    /** {@return its weight ({@code loadfactor}, 1 to 100, default 1)} */
    public int loadFactor() {
        return loadFactor;
    }

    /** {@return its sticky-session route ({@code route=}), or null} */
    public String route() {
        return route;
    }

    /** {@return whether it is a hot standby ({@code status=+H}): used only when no other member is usable} */
    public boolean hotStandby() {
        return hotStandby;
    }

    /** {@return how long a member stays in error state after a failed connect ({@code retry=}, default 60 s)} */
    public Duration retry() {
        return retry;
    }

    /** {@return its health check, or null ({@code hcmethod} not set: httpd's {@code None})} */
    public HealthCheck healthCheck() {
        return healthCheck;
    }

    /** {@return most connections open at once ({@code max=})} */
    public int max() {
        return max;
    }

    /** {@return the read timeout, or null for the balancer's} */
    Duration timeout() {
        return timeout;
    }

    /** {@return whether it is in error state or failed its health check now} */
    public boolean inError() {
        return !usable(System.nanoTime()) && !disabled;
    }

    /** {@return requests in flight to it now} */
    public int busy() {
        return busy.get();
    }

    @Override
    public String toString() {
        return url.toString();
    }

    /** A member's parameters (httpd's {@code BalancerMember} and {@code ProxyPass} key=value names). */
    public static final class Builder {
        /** httpd's {@code retry} default. */
        public static final Duration DEFAULT_RETRY = Duration.ofSeconds(60);
        /**
         * Default {@code max}: httpd's is ThreadsPerChild; the embedded API has no such number,
         * so 256 (the CLI passes ThreadsPerChild).
         */
        public static final int DEFAULT_MAX = 256;
        /**
         * Default idle lifetime of a pooled connection ({@code ttl}): 4 s, under the 5 s
         * keep-alive timeout of httpd and Node.js, the shortest common backend default, so a
         * pooled connection is rarely reused just as its backend closes it.
         */
        public static final Duration DEFAULT_TTL = Duration.ofSeconds(4);

        private final BackendUrl url;
        private int loadFactor = 1;
        private String route;
        private boolean hotStandby;
        private boolean disabled;
        private Duration retry = DEFAULT_RETRY;
        private int max = DEFAULT_MAX;
        private Duration ttl = DEFAULT_TTL;
        private Duration connectTimeout;
        private Duration timeout;
        private Duration acquire;
        private boolean disableReuse;
        private HealthCheck healthCheck;

        private Builder(BackendUrl url) {
            this.url = url;
        }

        /**
         * {@code loadfactor}: 1 to 100 (default 1).
         *
         * @param n the value
         * @return this builder
         */
        public Builder loadFactor(int n) {
            if (n < 1 || n > 100) {
                throw new IllegalArgumentException("loadfactor must be 1 to 100, got " + n);
            }
            loadFactor = n;
            return this;
        }

        /**
         * {@code route}: the value after the dot of a sticky session id that selects this member.
         *
         * @param r the value
         * @return this builder
         */
        public Builder route(String r) {
            route = r;
            return this;
        }

        /**
         * {@code status=+H}: a hot standby.
         *
         * @param on whether it is on
         * @return this builder
         */
        public Builder hotStandby(boolean on) {
            hotStandby = on;
            return this;
        }

        /**
         * {@code status=+D}: never chosen.
         *
         * @param on whether it is on
         * @return this builder
         */
        public Builder disabled(boolean on) {
            disabled = on;
            return this;
        }

        /**
         * {@code retry}: time in error state after a failed connect (default 60 s; 0 retries at once).
         *
         * @param d the value
         * @return this builder
         */
        public Builder retry(Duration d) {
            retry = requireNonNegative(d, "retry");
            return this;
        }

        /**
         * {@code max}: most connections at once (default {@link #DEFAULT_MAX}).
         *
         * @param n the value
         * @return this builder
         */
        public Builder max(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("max must be at least 1");
            }
            max = n;
            return this;
        }

        /**
         * {@code ttl}: idle lifetime of a pooled connection (default {@link #DEFAULT_TTL}).
         *
         * @param d the value
         * @return this builder
         */
        public Builder ttl(Duration d) {
            ttl = requireNonNegative(d, "ttl");
            return this;
        }

        /**
         * {@code connectiontimeout} (default: the balancer's timeout, as httpd).
         *
         * @param d the value
         * @return this builder
         */
        public Builder connectTimeout(Duration d) {
            connectTimeout = requireNonNegative(d, "connectiontimeout");
            return this;
        }

        /**
         * {@code timeout}: how long a read from this member may wait (default: ProxyTimeout).
         *
         * @param d the value
         * @return this builder
         */
        public Builder timeout(Duration d) {
            timeout = requireNonNegative(d, "timeout");
            return this;
        }

        /**
         * {@code acquire}: how long to wait for a free connection when {@code max} are open (default: the timeout).
         *
         * @param d the value
         * @return this builder
         */
        public Builder acquire(Duration d) {
            acquire = requireNonNegative(d, "acquire");
            return this;
        }

        /**
         * {@code disablereuse=On}: a new connection per request.
         *
         * @param on whether it is on
         * @return this builder
         */
        public Builder disableReuse(boolean on) {
            disableReuse = on;
            return this;
        }

        /**
         * Its active health check ({@code hcmethod} and friends), or null for none.
         *
         * @param hc the value
         * @return this builder
         */
        public Builder healthCheck(HealthCheck hc) {
            healthCheck = hc;
            return this;
        }

        /** {@return the member} */
        public Member build() {
            return new Member(this);
        }

        private static Duration requireNonNegative(Duration d, String what) {
            Objects.requireNonNull(d, what);
            if (d.isNegative()) {
                throw new IllegalArgumentException(what + " must not be negative");
            }
            return d;
        }
    }
}
