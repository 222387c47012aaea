package org.loommpm.engine;

import java.io.IOException;
import java.util.List;
import org.loommpm.config.ServerConfig;

/**
 * Engine objects for microbenchmarks, built through the engine's package-private constructors.
 * This class lives in the benchmarks jar under server-core's package name; that works because
 * both jars are on the class path (unnamed module), and keeps benchmark-only entry points out of
 * server-core.
 */
public final class BenchFixtures {
    private BenchFixtures() {
    }

    /**
     * A connection with no socket, bound to a poller of a child that was never started: enough
     * for code that encodes into buffers and asks the child whether it is draining, never for I/O.
     */
    public static Connection unconnectedConnection(ServerConfig config) throws IOException {
        Child child = new Child(0, 0, config, (connection, slot) -> { }, null, List.of());
        return new Connection(1, null, new Poller(child, 0), null);
    }
}
