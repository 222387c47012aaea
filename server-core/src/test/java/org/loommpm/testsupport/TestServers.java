package org.loommpm.testsupport;

import java.io.IOException;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.loommpm.api.Handler;
import org.loommpm.server.LoomServer;
import org.loommpm.config.ServerConfig;

/** Starts servers for tests on 127.0.0.1 with an ephemeral port. */
public final class TestServers {
    private TestServers() {
    }

    public static LoomServer start(Handler handler) throws IOException {
        return start(handler, c -> { });
    }

    public static LoomServer start(Handler handler, Consumer<ServerConfig.Builder> directives) throws IOException {
        return LoomServer.builder()
                .listen("127.0.0.1", 0)
                .configure(c -> c.gracefulShutdownTimeout(Duration.ofSeconds(5)))
                .configure(directives)
                .handler(handler)
                .start();
    }

    /** Polls {@code cond} for up to {@code seconds}. */
    public static void waitFor(String what, int seconds, BooleanSupplier cond) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
        while (!cond.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("timed out waiting for: " + what);
            }
            Thread.sleep(5);
        }
    }
}
