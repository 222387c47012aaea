package org.loommpm.api;

import java.time.Instant;

/**
 * A running server's totals, read-only: what {@code LoomServer.stats()} and
 * {@code LoomServer.Builder.stats()} return. Every figure is read from counters the engine keeps
 * anyway, so reading costs the request path nothing; totals cover every child the server has
 * run, including those that have exited, so they only grow. The per-child, per-poller and
 * scoreboard detail is rendered by server-observe's {@code StatusHandler} (give it this object)
 * and exported as meters when the builder has a registry.
 */
public interface ServerStats {
    /** {@return when the server started ({@link Instant#EPOCH} before it has)} */
    Instant startTime();

    /** {@return the current generation (1 at start, +1 per graceful restart)} */
    int generation();

    /** {@return connections accepted since start, all children} */
    long connectionsAccepted();

    /** {@return connections ended since start, all children} */
    long connectionsClosed();

    /** {@return connections open now} */
    long connectionsOpen();

    /** {@return requests completed since start, all children (mod_status's Total Accesses)} */
    long requests();

    /** {@return response bytes written since start, all children: status lines, headers and bodies} */
    long bytesSent();
}
