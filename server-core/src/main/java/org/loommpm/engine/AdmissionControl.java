package org.loommpm.engine;

import java.lang.System.Logger.Level;
import java.util.concurrent.atomic.LongAdder;

/**
 * Listener back-pressure with hysteresis (motorz's {@code motorz_update_listeners}).
 *
 * <p>The rule, evaluated by the listener-owning poller once per loop iteration (and between
 * accepts while draining the accept queue):
 * <ul>
 *   <li>stop accepting when {@code idle == 0 || pending >= hi || active >= ThreadsPerChild};</li>
 *   <li>resume when {@code idle > 0 && pending <= lo && active < ThreadsPerChild};</li>
 * </ul>
 * with {@code hi = ThreadsPerChild} and {@code lo = 3/4 ThreadsPerChild}. Between the two
 * thresholds the state holds, so a pool hovering at its limit does not flap. While accepting is
 * off, new connections wait in the kernel's listen backlog, not in our memory. The counts are read
 * totals first ({@code active}), then idles, and clamped at zero.
 *
 * <p><b>Thread confinement:</b> {@link #evaluate} is called by the listener-owning poller only;
 * {@link #accepting()} and {@link #transitions()} may be read by anyone.
 */
public final class AdmissionControl {
    private static final System.Logger LOG = System.getLogger("org.loommpm.engine");

    private final int threadsPerChild;
    private final boolean enabled;
    private final int hi;
    private final int lo;
    private volatile boolean accepting = true;
    private final LongAdder transitions = new LongAdder();

    /** @param threadsPerChild the pool size the thresholds derive from */
    public AdmissionControl(int threadsPerChild) {
        this(threadsPerChild, true);
    }

    /**
     * @param threadsPerChild the pool size the thresholds derive from
     * @param enabled {@code false} keeps the listener accepting whatever the counts (the
     *                {@code AdmissionControl Off} directive, for measuring what the rule prevents)
     */
    public AdmissionControl(int threadsPerChild, boolean enabled) {
        this.threadsPerChild = threadsPerChild;
        this.enabled = enabled;
        this.hi = threadsPerChild;
        this.lo = threadsPerChild * 3 / 4;
    }

    /** Whether the stop condition holds for these counts. */
    public boolean shouldStop(int active, int pending, int idle) {
        return idle == 0 || pending >= hi || active >= threadsPerChild;
    }

    /** Whether the resume condition holds for these counts. */
    public boolean shouldResume(int active, int pending, int idle) {
        return idle > 0 && pending <= lo && active < threadsPerChild;
    }

    /**
     * Applies the rule to the pool's current counts.
     *
     * @return the new state: {@code true} when the listener should be accepting
     */
    public boolean evaluate(WorkerPool pool) {
        int active = Math.max(0, pool.active());
        int pending = pool.pending();
        int idle = Math.max(0, threadsPerChild - active);
        return evaluate(active, pending, idle);
    }

    /** Applies the rule to explicit counts (the pool form reads them in the documented order). */
    public boolean evaluate(int active, int pending, int idle) {
        if (!enabled) {
            return true;
        }
        boolean now = accepting;
        if (now && shouldStop(active, pending, idle)) {
            accepting = false;
            transitions.increment();
            LOG.log(Level.DEBUG, "LM0201 admission off: active={0} pending={1} idle={2}", active, pending, idle);
            return false;
        }
        if (!now && shouldResume(active, pending, idle)) {
            accepting = true;
            transitions.increment();
            LOG.log(Level.DEBUG, "LM0202 admission on: active={0} pending={1} idle={2}", active, pending, idle);
            return true;
        }
        return now;
    }

    /** Whether the listener is accepting. */
    public boolean accepting() {
        return accepting;
    }

    /** How many times the state changed. */
    public long transitions() {
        return transitions.sum();
    }

    /** The stop threshold for pending tasks. */
    public int hi() {
        return hi;
    }

    /** The resume threshold for pending tasks. */
    public int lo() {
        return lo;
    }
}
