package org.loommpm.engine;

/**
 * One child's counts, read without locks from the engine's own counters (the metrics and status
 * layers bind to these; nothing here costs the request path anything extra). Values are recent,
 * not a consistent snapshot.
 */
public interface ChildStats {
    /** Child number, unique within the server's lifetime. */
    int id();

    /** The generation it was started in. */
    int generation();

    /** Whether it is taking new connections now (not draining and admission open). */
    boolean accepting();

    /** Why it is draining, or empty. */
    String drainReason();

    /** Connections open now. */
    int openConnections();

    /** Connections accepted since start. */
    long connectionsAccepted();

    /** Connections ended since start. */
    long connectionsClosed();

    /** Connection contexts attached to connections now (idle keep-alive connections hold none). */
    int contextsHeld();

    /** Worker slots busy (running or parked on I/O). */
    int activeWorkers();

    /** Worker slots free. */
    int idleWorkers();

    /** Tasks waiting for a worker slot. */
    int pendingWorkers();

    /** Admission control: whether the listener is armed by the rule. */
    boolean admissionOpen();

    /** Admission control state changes since start. */
    long admissionTransitions();

    /** Poller loop iterations, summed over the child's pollers. */
    long pollerWakeups();

    /** Connections dispatched to workers. */
    long dispatches();

    /** Deadlines that expired. */
    long timersFired();

    /** Contexts reused from the recycle lists. */
    long recycleHits();

    /** Contexts allocated because a recycle list was empty. */
    long recycleMisses();

    /** Contexts dropped because a recycle list was full. */
    long recycleDrops();

    /** Contexts waiting in the recycle lists now. */
    int recycleListSize();

    /** Pollers running. */
    int pollers();

    /** The worker slots' states. */
    Scoreboard scoreboard();
}
