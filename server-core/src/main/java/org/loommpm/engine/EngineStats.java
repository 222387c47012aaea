package org.loommpm.engine;

import java.time.Instant;
import java.util.List;
import org.loommpm.api.ServerStats;
import org.loommpm.spi.CloseReason;
import org.loommpm.spi.ProtocolCounters;

/**
 * The engine's counts, for metrics and the status page. Everything is read from counters the
 * engine keeps anyway; reading costs the request path nothing. Totals cover every child the
 * server has run, including those that have exited, so they only grow. The applications' view of
 * it is {@link ServerStats} (what {@code LoomServer.stats()} returns): every {@code EngineStats}
 * is one, and the status page and the meters read the rest through this interface.
 */
public interface EngineStats extends ServerStats {
    /**
     * The engine's detail behind a server's {@link ServerStats} (what {@code LoomServer.stats()}
     * and its builder's return): for the status page, the jar and tests, which see this package.
     *
     * @throws IllegalArgumentException if {@code stats} is not a server's (the application's own
     *         implementation of {@link ServerStats})
     */
    static EngineStats of(ServerStats stats) {
        if (stats instanceof EngineStats engine) {
            return engine;
        }
        throw new IllegalArgumentException("not the stats of a LoomServer or its builder: " + stats.getClass());
    }

    /**
     * The most worker slots the current generation's pool may grow to: under {@code ChildPolicy
     * dynamic}, {@code MaxRequestWorkers} rounded to whole children; 0 where the pool does not
     * grow (static). The status page shows the slots no child has yet as {@code .}, as httpd shows
     * scoreboard slots with no current process.
     */
    default int slotLimit() {
        return 0;
    }

    /** When the server started ({@link Instant#EPOCH} before it has). */
    Instant startTime();

    /** The current generation (1 at start, +1 per graceful restart). */
    int generation();

    /** The protocols' counts since start, by meter name ({@link ProtocolCounters#NONE} where none are kept). */
    default ProtocolCounters protocols() {
        return ProtocolCounters.NONE;
    }

    /** Connections accepted since start, all children. */
    long connectionsAccepted();

    /** Connections ended since start, all children. */
    @Override
    default long connectionsClosed() {
        long n = 0;
        for (CloseReason r : CloseReason.values()) {
            n += connectionsClosed(r);
        }
        return n;
    }

    /** Connections ended since start for {@code reason}, all children. */
    long connectionsClosed(CloseReason reason);

    /** Connections open now. */
    long connectionsOpen();

    /** Requests completed since start, all children (mod_status's Total Accesses). */
    long requests();

    /** Response bytes written since start, all children: status lines, headers and bodies. */
    long bytesSent();

    /** The children alive now (running or draining), oldest first. */
    List<ChildStats> children();

    /**
     * Whether new work should be sent here: {@link Readiness#READY} while a child accepts,
     * {@link Readiness#REFUSING} while every running child has admission control closed,
     * {@link Readiness#STARTING} when none runs yet. Any generation counts: during a graceful
     * restart the old children accept until the new ones are started, so readiness never dips.
     * The supervisor adds its stop and drain.
     */
    default Readiness readiness() {
        boolean running = false;
        for (ChildStats c : children()) {
            if (c.accepting()) {
                return Readiness.READY;
            }
            running |= !c.draining() && c.state() != ChildState.STARTING;
        }
        return running ? Readiness.REFUSING : Readiness.STARTING;
    }
}
