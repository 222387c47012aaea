package org.loommpm.api;

import java.time.Instant;

/**
 * A running server's totals, read-only: what {@link LoomServer#stats()} and
 * {@link LoomServer.Builder#stats()} return. Every figure is read from counters the engine keeps
 * anyway, so reading costs the request path nothing; totals cover every child the server has
 * run, including those that have exited, so they only grow. The per-child, per-poller and
 * scoreboard detail is rendered by {@link org.loommpm.status.StatusHandler} (give it this object)
 * and exported as meters when the builder has a registry.
 */
public interface ServerStats {
    /** When the server started ({@link Instant#EPOCH} before it has). */
    Instant startTime();

    /** The current generation (1 at start, +1 per graceful restart). */
    int generation();

    /** Connections accepted since start, all children. */
    long connectionsAccepted();

    /** Connections ended since start, all children. */
    long connectionsClosed();

    /** Connections open now. */
    long connectionsOpen();

    /** Requests completed since start, all children (mod_status's Total Accesses). */
    long requests();

    /** Response bytes written since start, all children: status lines, headers and bodies. */
    long bytesSent();
}
