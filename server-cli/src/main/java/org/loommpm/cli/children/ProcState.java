package org.loommpm.cli.children;

import org.loommpm.engine.ChildState;

/**
 * A child process's state as its scoreboard record encodes it (the ordinal is the stored code).
 * The child writes it (single writer); the supervisor reads it to learn that a child is ready, or
 * wants to be replaced. It is not a second lifecycle: {@link #lifecycle()} maps it onto the
 * engine's {@link ChildState}, which both supervisors and the status page reason with; the
 * record only needs two more facts, that a serving child asks for its replacement (RETIRING),
 * and that a record is unused (FREE).
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

    /** The lifecycle state this record state shows: a RETIRING child still serves (READY). */
    public ChildState lifecycle() {
        return switch (this) {
            case STARTING -> ChildState.STARTING;
            case READY, RETIRING -> ChildState.READY;
            case IDLE_KILLED -> ChildState.IDLE_KILLED;
            case FINISHING, STOPPING, FREE -> ChildState.FINISHING;
        };
    }

    /** Whether the process still takes new connections. */
    public boolean serving() {
        return this == READY || this == RETIRING;
    }
}
