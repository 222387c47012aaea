package org.loommpm.engine;

/**
 * Where a child is in its life, as the supervisor's policies and the status page see it: the one
 * lifecycle of both kinds of child ({@link ChildHandle#state()}), an in-JVM {@link Child} and a
 * child process of the jar's {@code ChildProcesses On} (whose scoreboard record state maps onto
 * this one; a process's {@code STOPPING} shows as FINISHING).
 *
 * <pre>
 *   STARTING --(every poller completed a loop iteration)--> READY
 *   STARTING | READY --(MaxConnectionsPerChild, graceful restart, graceful stop)--> FINISHING
 *   READY --(dynamic policy: more free slots than MaxSpareThreads)--> IDLE_KILLED
 *   any --(a poller missed its heartbeat for ChildWatchdogTimeout, or a poller failed)--> SICK
 * </pre>
 *
 * FINISHING, IDLE_KILLED and SICK are draining states: the child accepts nothing more, finishes
 * the connections it has (SICK: with graceful-stop treatment, idle keep-alive connections closed)
 * and exits when its last connection ends. Only a SICK child may leave FINISHING or IDLE_KILLED,
 * and nothing leaves SICK. A child of the current generation that starts draining is replaced at
 * once, except when IDLE_KILLED (the pool is shrinking on purpose).
 */
public enum ChildState {
    /** Created; not every poller has completed its first loop iteration yet. */
    STARTING("starting"),
    /** Serving: accepting connections (subject to admission control). */
    READY("ready"),
    /** Gracefully finishing: retiring (MaxConnectionsPerChild), replaced by a restart, or stopping. */
    FINISHING("finishing"),
    /** Retired by the dynamic policy because the pool had more free slots than MaxSpareThreads. */
    IDLE_KILLED("idle-killed"),
    /** A poller stopped making progress (watchdog) or failed: drained, replaced, force-ended later. */
    SICK("sick");

    private final String label;

    ChildState(String label) {
        this.label = label;
    }

    /** The name shown on the status page ({@code starting}, {@code ready}, {@code finishing}, {@code idle-killed}, {@code sick}). */
    public String label() {
        return label;
    }

    /** Whether a child in this state has stopped accepting for good. */
    public boolean draining() {
        return this == FINISHING || this == IDLE_KILLED || this == SICK;
    }
}
