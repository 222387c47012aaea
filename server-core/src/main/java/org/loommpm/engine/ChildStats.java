package org.loommpm.engine;

import java.util.List;
import org.loommpm.spi.CloseReason;
import org.loommpm.spi.InputBudget;

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

    /** Where it is in its life: starting, ready, or one of the draining states (see {@link ChildState}). */
    ChildState state();

    /** Whether it has stopped accepting for good (retiring, graceful restart or stop) and is finishing. */
    boolean draining();

    /** Why it is draining, or empty. */
    String drainReason();

    /** Connections open now. */
    int openConnections();

    /** Connections accepted since start. */
    long connectionsAccepted();

    /** Connections ended since start. */
    default long connectionsClosed() {
        long n = 0;
        for (CloseReason r : CloseReason.values()) {
            n += connectionsClosed(r);
        }
        return n;
    }

    /** Connections ended since start for {@code reason}. */
    long connectionsClosed(CloseReason reason);

    /** Requests completed since start (summed over its scoreboard's slots). */
    long requests();

    /** Response bytes written since start: status lines, headers and bodies. */
    long bytesSent();

    /** Connections parked in KEEPALIVE now (idle, holding no worker, thread or buffer). */
    int keepAliveConnections();

    /** Connections in a lingering close now. */
    int lingeringConnections();

    /**
     * Connections DETACHED now (suspended exchanges, event streams, idle WebSockets): they hold
     * no worker slot and no thread. 0 where the count is not kept (child processes' records).
     */
    default int detachedConnections() {
        return 0;
    }

    /** Connection contexts attached to connections now (idle keep-alive connections hold none). */
    int contextsHeld();

    /** Worker slots busy (running or parked on I/O). */
    int activeWorkers();

    /** Worker slots free. */
    int idleWorkers();

    /** Tasks waiting for a worker slot. */
    int pendingWorkers();

    /**
     * Tasks waiting on a client without a worker slot (MaxSlotlessWaits bounds them): a request
     * body that is not arriving, an HTTP/2 response the client's window holds back. They show on
     * no scoreboard row. 0 where the count is not kept (child processes' records).
     */
    default int slotlessWaits() {
        return 0;
    }

    /** Of the {@link #pendingWorkers}, those waiting in the newcomer lane (a connection's first work). */
    int pendingNewcomers();

    /** Admission control: whether the listener is armed by the rule (off: the connection bound is reached). */
    boolean admissionOpen();

    /** Admission control state changes since start. */
    long admissionTransitions();

    /** Admission control's bound: the open connections at which the child stops accepting ({@code OpenConnectionsPerChild}). */
    int connectionBound();

    /** How long admission control has kept the listener off at the bound since start, in milliseconds. */
    long admissionPausedMillis();

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

    /** Each poller's counts, by index. */
    List<PollerStats> pollerStats();

    /** The worker slots' states. */
    Scoreboard scoreboard();

    /**
     * {@return what the child's clients hold of its input budget (used, limit, high-water mark,
     * refusals), or {@code null} where it is not kept (child processes' records)}
     */
    default InputBudget inputBudget() {
        return null;
    }
}
