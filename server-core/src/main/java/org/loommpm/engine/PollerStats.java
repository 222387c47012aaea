package org.loommpm.engine;

/**
 * One poller's counts, read without locks from counters its thread keeps (single writer, so the
 * values are recent, never torn, and cost the request path nothing extra).
 */
public interface PollerStats {
    /** The poller's index in its child (0 owns the listeners). */
    int index();

    /** Loop iterations (select returns). */
    long wakeups();

    /** Connections dispatched to workers. */
    long dispatches();

    /**
     * Requests this poller served itself, with no worker: non-blocking handlers
     * ({@code api.InvocationType#NON_BLOCKING}) on whole HTTP/1.1 requests. Counted in the
     * child's request total, not in any scoreboard slot.
     *
     * @return inline requests since the poller started
     */
    long inlineRequests();

    /** Deadlines that expired. */
    long timersFired();

    /**
     * Connections parked in KEEPALIVE now: waiting for their next request (or their first,
     * after the accept), holding no worker, no thread and no buffer. Counted exactly by the
     * poller on every transition into and out of that state.
     */
    int keepAliveConnections();

    /** Connections in a lingering close now (output shut down, input being drained). */
    int lingeringConnections();

    /** Connections DETACHED now: suspended exchanges, event streams, idle WebSockets (no thread, no slot). */
    int detachedConnections();

    /** Contexts taken from the recycle list. */
    long recycleHits();

    /** Contexts allocated because the recycle list was empty. */
    long recycleMisses();

    /** Contexts dropped to the GC because the recycle list was full. */
    long recycleDrops();

    /** Contexts waiting in the recycle list now. */
    int recycleSize();
}
