package org.loommpm.engine;

import java.lang.System.Logger.Level;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * Listener back-pressure with hysteresis, on the child's open connections (nginx's
 * {@code worker_connections} as a bound, motorz's {@code update_listeners} as the mechanism).
 *
 * <p>The rule, evaluated by the listener-owning poller once per loop iteration and after each
 * accept:
 * <ul>
 *   <li>stop accepting when {@code open >= hi};</li>
 *   <li>resume when {@code open <= lo};</li>
 * </ul>
 * with {@code hi = OpenConnectionsPerChild} and {@code lo = 3/4 hi}. Between the two the state
 * holds, so a child hovering at its bound does not flap. While accepting is off, new connections
 * wait in the kernel's listen backlog, not in our memory. Busy workers and pending tasks no
 * longer stop the listener (motorz's rule did): with every slot busy a newcomer is accepted and
 * queued in the pool's newcomer lane ({@link PendingLanes}), where it waits no longer than a
 * keep-alive client's next request; what the old rule bounded (the memory of accepted
 * connections) the connection bound bounds now. docs/architecture.md has the reasons.
 *
 * <p>Operators see each stop and resume at debug ({@code LM0201}, {@code LM0202}); an
 * <em>episode</em> at the bound, from its first stop until the listener has stayed open for
 * {@link #EPISODE_QUIET_NANOS}, is logged once at INFO when it begins ({@code LM0203}) and when
 * it ends ({@code LM0204}, with its pauses and the time the listener was off).
 *
 * <p><b>Thread confinement:</b> {@link #evaluate} is called by the listener-owning poller only;
 * {@link #accepting()}, {@link #transitions()} and {@link #pausedNanos} may be read by anyone.
 */
public final class AdmissionControl {
    private static final System.Logger LOG = System.getLogger("org.loommpm.engine");
    /** How long the listener stays open before an episode at the bound is over. */
    static final long EPISODE_QUIET_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final boolean enabled;
    private final int hi;
    private final int lo;
    private volatile boolean accepting = true;
    private final LongAdder transitions = new LongAdder();
    /** Listener-off time of the stops that ended (the current one is added by {@link #pausedNanos}). */
    private volatile long pausedBefore;
    /** When the current stop began; meaningful while not accepting. */
    private volatile long pausedSince;
    /** Poller only: whether an episode is under way, its pauses, its off time, its last resume. */
    private boolean episode;
    private int episodePauses;
    private long episodeOffNanos;
    private long lastResume;

    /**
     * @param bound {@code OpenConnectionsPerChild}: the open connections at which the child stops
     *              accepting
     * @param enabled {@code false} keeps the listener accepting whatever the count (the
     *                {@code AdmissionControl Off} directive, for measuring what the rule prevents)
     */
    public AdmissionControl(int bound, boolean enabled) {
        if (bound < 1) {
            throw new IllegalArgumentException("the connection bound must be at least 1, got " + bound);
        }
        this.enabled = enabled;
        this.hi = bound;
        this.lo = bound * 3 / 4;
    }

    /** Whether the stop condition holds for this many open connections. */
    public boolean shouldStop(int open) {
        return open >= hi;
    }

    /** Whether the resume condition holds for this many open connections. */
    public boolean shouldResume(int open) {
        return open <= lo;
    }

    /**
     * Applies the rule to the child's open connections.
     *
     * @param open the child's open connections
     * @param now {@link System#nanoTime()}
     * @return the new state: {@code true} when the listener should be accepting
     */
    public boolean evaluate(int open, long now) {
        if (!enabled) {
            return true;
        }
        boolean on = accepting;
        if (on && shouldStop(open)) {
            pausedSince = now;
            accepting = false;
            transitions.increment();
            LOG.log(Level.DEBUG, "LM0201 admission off: {0} open connections, bound {1}", open, hi);
            if (!episode) {
                episode = true;
                episodePauses = 0;
                episodeOffNanos = 0;
                LOG.log(Level.INFO, "LM0203 connection bound reached: {0} open connections (OpenConnectionsPerChild "
                        + "{1}); new connections wait in the listen backlog until {2} are open", open, hi, lo);
            }
            episodePauses++;
            return false;
        }
        if (!on && shouldResume(open)) {
            long off = now - pausedSince;
            pausedBefore += off;
            episodeOffNanos += off;
            lastResume = now;
            accepting = true;
            transitions.increment();
            LOG.log(Level.DEBUG, "LM0202 admission on: {0} open connections, bound {1}", open, hi);
            return true;
        }
        if (on && episode && now - lastResume >= EPISODE_QUIET_NANOS) {
            episode = false;
            LOG.log(Level.INFO, "LM0204 connection bound episode over: the listener paused {0} times, {1} ms "
                    + "in all", episodePauses, TimeUnit.NANOSECONDS.toMillis(episodeOffNanos));
        }
        return on;
    }

    /** Whether the listener is accepting. */
    public boolean accepting() {
        return accepting;
    }

    /** How many times the state changed. */
    public long transitions() {
        return transitions.sum();
    }

    /**
     * How long the listener has been off at the bound since start, the current pause included.
     *
     * @param now {@link System#nanoTime()}
     * @return nanoseconds
     */
    public long pausedNanos(long now) {
        long before = pausedBefore;
        return accepting ? before : before + Math.max(0, now - pausedSince);
    }

    /** The stop threshold: {@code OpenConnectionsPerChild}. */
    public int hi() {
        return hi;
    }

    /** The resume threshold: three quarters of {@link #hi}. */
    public int lo() {
        return lo;
    }
}
