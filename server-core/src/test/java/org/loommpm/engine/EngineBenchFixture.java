package org.loommpm.engine;

import java.io.IOException;
import java.util.List;
import org.loommpm.config.ServerConfig;

/**
 * Benchmark fixture, not API: engine objects for the JMH benchmarks (module benchmarks), built
 * through the engine's package-private constructors. This package is exported to loom-mpm's own
 * modules only, never to applications; the benchmarks run on the class path. Kept here, compiled
 * with the engine, so a change of those constructors fixes the fixture in the same commit.
 */
public final class EngineBenchFixture {
    private EngineBenchFixture() {
    }

    /**
     * A connection with no socket, bound to a poller of a child that was never started: enough
     * for code that encodes into buffers and asks the child whether it is draining, never for I/O.
     */
    public static Connection unconnectedConnection(ServerConfig config) throws IOException {
        org.loommpm.spi.ConnectionProtocol none = (connection, slot) -> { };
        Child child = new Child(0, 0, config, none, new Supervisor(config, none), List.of(), null);
        return new Connection(1, null, new Poller(child, 0, null), null, false);
    }

    /** A child's worker pool of {@code size} slots, on its own (no child, no poller). */
    public static WorkerPool workerPool(int size) {
        return new WorkerPool(size, new FailStop());
    }
}
