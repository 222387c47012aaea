package org.loommpm.cli.children;

/**
 * A child process's state as its scoreboard record shows it. The child writes it (single
 * writer); the supervisor reads it to learn that a child is ready, or wants to be replaced.
 *
 * <pre>
 *   FREE --(supervisor assigns the record, starts the JVM)--> STARTING
 *   STARTING --(listeners bound, engine running)--> READY
 *   READY --(MaxConnectionsPerChild reached)--> RETIRING      (still serving; asks for a replacement)
 *   READY | RETIRING --("drain" on stdin)--> FINISHING | IDLE_KILLED   (listeners closed, finishing)
 *   any --("stop" on stdin, stdin EOF, SIGTERM)--> STOPPING
 *   any --(process exited; the supervisor clears the record)--> FREE
 * </pre>
 */
public enum ProcState {
    /** The record belongs to no process. */
    FREE,
    /** The JVM runs but does not serve yet. */
    STARTING,
    /** Serving. */
    READY,
    /** Serving, but reached MaxConnectionsPerChild: the supervisor starts a replacement, then drains it. */
    RETIRING,
    /** Listeners closed (graceful restart, or replaced after RETIRING): finishing its connections. */
    FINISHING,
    /** Retired by {@code ChildPolicy dynamic} (too many free slots): finishing, not replaced. */
    IDLE_KILLED,
    /** Graceful stop: finishing in-flight requests within GracefulShutdownTimeout. */
    STOPPING;

    private static final ProcState[] ALL = values();

    /** The state stored as {@code code}; FREE for anything unknown (a torn or foreign record). */
    static ProcState of(int code) {
        return code >= 0 && code < ALL.length ? ALL[code] : FREE;
    }

    /** Whether the process still takes new connections. */
    public boolean serving() {
        return this == READY || this == RETIRING;
    }
}
