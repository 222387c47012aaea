package org.loommpm.engine;

import java.io.IOException;

/**
 * What a supervisor needs of a child, whichever kind it is: an in-JVM {@link Child} (driven by
 * {@link Supervisor}) or a child JVM (the jar's process supervisor with {@code ChildProcesses On},
 * which reads a process's counts from the shared scoreboard). The pool policy ({@link DynamicPool})
 * and the lifecycle ({@link ChildState}) are written once against this.
 *
 * <p>Threads: the supervisor that owns the handle calls {@link #start}, {@link #drain} and
 * {@link #stop}; the reads may be a moment old (counters, or the last scoreboard read).
 */
public interface ChildHandle {
    /** Child number, unique within the supervisor's lifetime. */
    int id();

    /** The generation it was started in. */
    int generation();

    /** Where it is in its life (the one lifecycle of both kinds of child). */
    ChildState state();

    /** Worker slots free now; a child still starting counts all its slots (it is about to offer them). */
    int freeSlots();

    /** Connections open now. */
    int openConnections();

    /**
     * Starts it (pollers, or the JVM). Once, by the supervisor that created it.
     *
     * @throws IOException if it cannot start
     */
    void start() throws IOException;

    /**
     * Stops accepting for good and finishes the connections it has ({@code Connection: close}),
     * then exits. Does nothing if it is already draining.
     *
     * @param cause the draining state: FINISHING (retiring, or replaced by a restart), or
     *              IDLE_KILLED (the dynamic policy shrinks the pool: not replaced)
     */
    void drain(ChildState cause, String reason);

    /** Graceful stop: like a drain, and idle keep-alive connections are closed now. */
    void stop();
}
