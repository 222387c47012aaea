package org.loommpm.server;

import java.time.Instant;
import java.util.List;
import org.loommpm.engine.ChildStats;
import org.loommpm.engine.EngineStats;
import org.loommpm.spi.CloseReason;

/**
 * The stats of a server that a builder has not started yet: handlers built before the server
 * (a status page inside its own router) hold this and read the real counts once it is bound.
 */
final class DeferredStats implements EngineStats {
    private volatile EngineStats target;

    void bind(EngineStats stats) {
        target = stats;
    }

    @Override public Instant startTime() { EngineStats t = target; return t != null ? t.startTime() : Instant.EPOCH; }
    @Override public int generation() { EngineStats t = target; return t != null ? t.generation() : 0; }
    @Override public int slotLimit() { EngineStats t = target; return t != null ? t.slotLimit() : 0; }
    @Override public long connectionsAccepted() { EngineStats t = target; return t != null ? t.connectionsAccepted() : 0; }
    @Override public long connectionsOpen() { EngineStats t = target; return t != null ? t.connectionsOpen() : 0; }
    @Override public long requests() { EngineStats t = target; return t != null ? t.requests() : 0; }
    @Override public long bytesSent() { EngineStats t = target; return t != null ? t.bytesSent() : 0; }
    @Override public org.loommpm.spi.ProtocolCounters protocols() {
        EngineStats t = target;
        return t != null ? t.protocols() : org.loommpm.spi.ProtocolCounters.NONE;
    }
    @Override public List<ChildStats> children() { EngineStats t = target; return t != null ? t.children() : List.of(); }
    @Override public org.loommpm.engine.Readiness readiness() {
        EngineStats t = target;
        return t != null ? t.readiness() : org.loommpm.engine.Readiness.STARTING;
    }

    @Override
    public long connectionsClosed(CloseReason reason) {
        EngineStats t = target;
        return t != null ? t.connectionsClosed(reason) : 0;
    }
}
