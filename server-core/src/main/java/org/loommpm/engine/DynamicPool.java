package org.loommpm.engine;

import java.lang.System.Logger.Level;
import org.loommpm.config.ChildScaling;
import org.loommpm.config.ServerConfig;

/**
 * The dynamic pool policy (the worker MPM's idle-server maintenance): given the free worker slots
 * of the current generation, decide once per maintenance interval whether to retire one child,
 * start some, or do nothing.
 *
 * <ul>
 *   <li>More free slots than {@code MaxSpareThreads}: retire one child (gracefully), spawn rate
 *       back to 1. One at a time, so a short lull does not tear the pool down.</li>
 *   <li>Fewer than {@code MinSpareThreads}: start {@code rate} children (fewer if the
 *       {@code MaxRequestWorkers} / {@code ServerLimit} limit is near), then double the rate, up
 *       to 32, so a sustained shortage is met in a few intervals while a blip costs one child.
 *       At the limit with no free slot at all, LM0807 says so, once; a rate of 8 or more means
 *       the configured spares are far from the load, LM0808 says that, once.</li>
 *   <li>Otherwise: rate back to 1.</li>
 * </ul>
 * With {@code ChildScaling spamd} (SpamAssassin's prefork scaling) the rate stays 1: one child
 * started or retired per interval, never more.
 *
 * <p>{@link #adjust} is the pass both supervisors run, over either kind of {@link ChildHandle}:
 * {@link Supervisor} over in-JVM children, the jar's process supervisor over child processes
 * ({@code ChildProcesses On}). {@link #decide} is the rule it applies.
 *
 * <p>Used by one thread only (the supervisor thread, or the process supervisor's control
 * thread); not thread-safe.
 */
public final class DynamicPool {
    private static final System.Logger LOG = System.getLogger("org.loommpm.engine");
    /** Most children started in one interval (httpd's MAX_SPAWN_RATE). */
    static final int MAX_SPAWN_RATE = 32;
    /** Spawn rate from which the pool reports being far too small (LM0808). */
    static final int BUSY_RATE = 8;

    /** What to do this interval: start {@code spawn} children, or retire one. */
    public record Decision(int spawn, boolean retireOne) {
        static final Decision NONE = new Decision(0, false);
        static final Decision RETIRE = new Decision(0, true);
    }

    /**
     * What a pass did and decided.
     *
     * @param spawn children to start now (the caller starts them: how is its business)
     * @param retired the child told to drain as idle-killed, or null
     * @param idle the free worker slots counted
     * @param running the children counted (serving, starting, or waiting for a retried start)
     */
    public record Pass(int spawn, ChildHandle retired, int idle, int running) {
    }

    private int spawnRate = 1;
    private boolean reachedLimitReported;
    private boolean busyReported;

    /**
     * One maintenance pass over the children of generation {@code generation}: counts the free
     * worker slots of those not draining, applies {@link #decide}, and on a retire tells the
     * emptiest ready child (fewest open connections) to drain as {@link ChildState#IDLE_KILLED}.
     *
     * @param children every child the supervisor has (other generations and draining ones are skipped)
     * @param waitingStarts children of {@code generation} whose start is being retried: each counts as
     *                      a child with all its slots free, as a starting one does
     * @param config the generation's settings (ThreadsPerChild, the spare thresholds, the child limit)
     */
    public Pass adjust(Iterable<? extends ChildHandle> children, int generation, int waitingStarts,
                       ServerConfig config) {
        int idle = waitingStarts * config.threadsPerChild();
        int running = waitingStarts;
        ChildHandle emptiest = null;
        for (ChildHandle c : children) {
            ChildState state = c.state();
            if (c.generation() != generation || state.draining()) {
                continue;
            }
            running++;
            idle += c.freeSlots();
            if (state == ChildState.READY && (emptiest == null || c.openConnections() < emptiest.openConnections())) {
                emptiest = c;
            }
        }
        Decision d = decide(idle, running, config.childLimit(), config.minSpareThreads(), config.maxSpareThreads(),
                config.childScaling());
        ChildHandle retired = d.retireOne() ? emptiest : null;
        if (retired != null) {
            retired.drain(ChildState.IDLE_KILLED, idle + " free worker slots, more than MaxSpareThreads "
                    + config.maxSpareThreads());
        }
        return new Pass(d.spawn(), retired, idle, running);
    }

    /**
     * @param idle free worker slots in the current generation's children that are not draining
     *             (a starting child counts all its slots: forking more for it would only swamp the machine)
     * @param children those children, plus children whose start is being retried
     * @param childLimit MaxRequestWorkers / ThreadsPerChild (at most ServerLimit)
     */
    public Decision decide(int idle, int children, int childLimit, int minSpare, int maxSpare) {
        return decide(idle, children, childLimit, minSpare, maxSpare, ChildScaling.WORKER);
    }

    /**
     * {@link #decide(int, int, int, int, int)} with the growth rule: {@code WORKER} doubles the
     * number started per interval while short, {@code SPAMD} starts one at a time.
     */
    public Decision decide(int idle, int children, int childLimit, int minSpare, int maxSpare, ChildScaling scaling) {
        if (idle > maxSpare) {
            spawnRate = 1;
            return children > 1 ? Decision.RETIRE : Decision.NONE;
        }
        if (idle >= minSpare) {
            spawnRate = 1;
            return Decision.NONE;
        }
        int room = childLimit - children;
        if (room <= 0) {
            if (idle == 0 && !reachedLimitReported) {
                reachedLimitReported = true;
                LOG.log(Level.ERROR, "LM0807 every worker slot is busy and MaxRequestWorkers ({0} children) is "
                        + "reached: new connections wait in the listen backlog; consider raising MaxRequestWorkers "
                        + "(and ServerLimit)", childLimit);
            }
            spawnRate = 1;
            return Decision.NONE;
        }
        int n = Math.min(spawnRate, room);
        if (spawnRate >= BUSY_RATE && !busyReported) {
            busyReported = true;
            LOG.log(Level.INFO, "LM0808 the server seems busy: starting {0} children at once ({1} free worker "
                    + "slots, {2} children); consider raising StartServers, ThreadsPerChild or "
                    + "MinSpareThreads/MaxSpareThreads", n, idle, children);
        }
        if (scaling == ChildScaling.WORKER && spawnRate < MAX_SPAWN_RATE) {
            spawnRate *= 2;
        }
        return new Decision(n, false);
    }

    /** After a graceful restart: the new generation starts from a rate of 1. */
    public void reset() {
        spawnRate = 1;
    }

    /** The children the next short interval would start. */
    int spawnRate() {
        return spawnRate;
    }
}
