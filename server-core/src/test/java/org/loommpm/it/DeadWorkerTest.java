package org.loommpm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.loommpm.api.Handler;
import org.loommpm.engine.ChildStats;
import org.loommpm.engine.EngineStats;
import org.loommpm.server.FatalServerException;
import org.loommpm.server.LoomServer;
import org.loommpm.spi.CloseReason;
import org.loommpm.testsupport.RawHttp;
import org.loommpm.testsupport.TestServers;

/**
 * A worker that dies (an error no layer handles escapes from deep inside the handler) does not
 * leave its connection to no one: the client sees it closed at once, its context goes back, it
 * is counted closed under {@code error}. An {@link OutOfMemoryError} does the same and also ends
 * the server (fail-stop): the builder's hook is told, the server stops, {@code awaitStop} throws.
 */
class DeadWorkerTest {
    /** How long the client waits for the close: far above a prompt close, far below never. */
    private static final int CLOSE_DEADLINE_MS = 5_000;

    /** Throws {@code error} from {@code depth} frames down, as a failure deep in application code would. */
    private static void throwFrom(int depth, Error error) {
        if (depth == 0) {
            throw error;
        }
        throwFrom(depth - 1, error);
    }

    private static Handler failing(String path, Error error) {
        return (req, res) -> {
            if (req.path().equals(path)) {
                throwFrom(40, error);
            }
            res.send("ok");
        };
    }

    @Test
    void aWorkerKilledByAnErrorClosesItsConnectionAndTheServerGoesOn() throws Exception {
        try (LoomServer server = TestServers.start(failing("/die", new InternalError("test: the worker dies")),
                c -> c.threadsPerChild(4).pollersPerChild(1))) {
            try (RawHttp c = new RawHttp(server.port(), CLOSE_DEADLINE_MS)) {
                c.send("GET /die HTTP/1.1\r\nHost: x\r\n\r\n");
                assertTrue(c.closedByServer(), "closed within " + CLOSE_DEADLINE_MS + " ms, not left open");
            }
            TestServers.waitFor("the connection ended", 10, () -> server.stats().connectionsOpen() == 0);
            ChildStats child = EngineStats.of(server.stats()).children().get(0);
            assertEquals(0, child.contextsHeld(), "its context went back");
            assertEquals(1, EngineStats.of(server.stats()).connectionsClosed(CloseReason.ERROR));
            // The connection ends before the error reaches the pool, which then frees the slot.
            TestServers.waitFor("the worker's slot is free again", 10, () -> child.activeWorkers() == 0);
            try (RawHttp c = new RawHttp(server.port(), CLOSE_DEADLINE_MS)) {
                assertEquals(200, c.send("GET /ok HTTP/1.1\r\nHost: x\r\n\r\n").read().status(),
                        "not fatal: the server goes on");
            }
        }
    }

    @Test
    void outOfMemoryInAWorkerClosesItsConnectionAndEndsTheServer() throws Exception {
        CompletableFuture<FatalServerException> told = new CompletableFuture<>();
        LoomServer server = LoomServer.builder().listen("127.0.0.1", 0)
                .configure(c -> c.threadsPerChild(4).pollersPerChild(1).gracefulShutdownTimeout(Duration.ofSeconds(5)))
                .handler(failing("/oom", new OutOfMemoryError("test: thrown by the handler")))
                .onFatal(told::complete)
                .start();
        try {
            try (RawHttp c = new RawHttp(server.port(), CLOSE_DEADLINE_MS)) {
                c.send("GET /oom HTTP/1.1\r\nHost: x\r\n\r\n");
                assertTrue(c.closedByServer(), "closed within " + CLOSE_DEADLINE_MS + " ms, not left open");
            }
            FatalServerException e = told.get(10, TimeUnit.SECONDS);
            assertEquals(FatalServerException.Kind.OUT_OF_MEMORY, e.kind());
            assertInstanceOf(OutOfMemoryError.class, e.getCause());
            assertTrue(e.thread().startsWith("VirtualThread"), "a worker, named by its id: " + e.thread());
            FatalServerException thrown = assertThrows(FatalServerException.class, server::awaitStop,
                    "the server stops by itself and awaitStop says why");
            assertSame(e, thrown);
            assertEquals(0, server.stats().connectionsOpen());
        } finally {
            server.close();
        }
    }
}
