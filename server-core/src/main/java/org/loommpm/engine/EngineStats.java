package org.loommpm.engine;

import java.util.List;

/**
 * The engine's counts, for metrics and the status page. Everything is read from counters the
 * engine keeps anyway; reading costs the request path nothing.
 */
public interface EngineStats {
    /** The current generation (1 at start, +1 per graceful restart). */
    int generation();

    /** Connections accepted since start, all children. */
    long connectionsAccepted();

    /** Connections ended since start, all children. */
    long connectionsClosed();

    /** Connections open now. */
    long connectionsOpen();

    /** The children alive now (running or draining), oldest first. */
    List<ChildStats> children();
}
