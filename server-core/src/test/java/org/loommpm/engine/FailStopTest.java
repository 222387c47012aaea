package org.loommpm.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.net.Socket;
import java.net.SocketException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;

/**
 * Fail-stop: what is fatal (an out-of-memory error anywhere in the engine, a poller or the
 * supervisor thread dying), that the handler is called once, and that each is logged with its id.
 */
class FailStopTest {
    /** What a handler was told. */
    record Fatal(FailStop.Kind kind, String thread, Throwable error) {
    }

    /** Records the first call and counts them all. */
    static final class Recorder implements FailStop.Handler {
        final CompletableFuture<Fatal> first = new CompletableFuture<>();
        final AtomicInteger calls = new AtomicInteger();

        @Override
        public void fatal(FailStop.Kind kind, String thread, Throwable error) {
            calls.incrementAndGet();
            first.complete(new Fatal(kind, thread, error));
        }
    }

    @Test
    void theFirstFatalErrorCallsTheHandlerOnceAndEachIsLogged() {
        FailStop failStop = new FailStop();
        Recorder r = new Recorder();
        failStop.handler(r);
        try (SupervisorHarness.LogCapture log = new SupervisorHarness.LogCapture()) {
            failStop.pollerDied(new IllegalStateException("test: a poller's bug"));
            failStop.supervisorDied(new OutOfMemoryError("test: then out of memory"));
            assertEquals(1, r.calls.get(), "the handler is called for the first one only");
            Fatal f = r.first.join();
            assertEquals(FailStop.Kind.POLLER_DIED, f.kind());
            assertEquals(Thread.currentThread().getName(), f.thread());
            assertEquals(1, log.withId("LM2601").size());
            assertEquals(Level.SEVERE, log.withId("LM2601").get(0).getLevel());
            assertEquals(1, log.withId("LM2600").size(), "a later fatal error is still logged");
        }
    }

    @Test
    void aTaskFailureIsFatalOnlyWhenItIsOrWrapsAnOutOfMemoryError() {
        FailStop failStop = new FailStop();
        Recorder r = new Recorder();
        failStop.handler(r);
        assertFalse(failStop.taskFailed(new IllegalStateException("test: a protocol's bug")));
        assertFalse(failStop.taskFailed(new StackOverflowError()));
        assertFalse(failStop.taskFailed(new InternalError("test")));
        assertEquals(0, r.calls.get());
        assertTrue(failStop.taskFailed(new IllegalStateException("test: wrapped", new OutOfMemoryError("test"))));
        assertEquals(FailStop.Kind.OUT_OF_MEMORY, r.first.join().kind());
    }

    @Test
    void anOutOfMemoryErrorEndingAPollerOrTheSupervisorIsOutOfMemory() {
        FailStop poller = new FailStop();
        Recorder p = new Recorder();
        poller.handler(p);
        poller.pollerDied(new OutOfMemoryError("test"));
        assertEquals(FailStop.Kind.OUT_OF_MEMORY, p.first.join().kind());
        FailStop supervisor = new FailStop();
        Recorder s = new Recorder();
        supervisor.handler(s);
        supervisor.supervisorDied(new InternalError("test"));
        assertEquals(FailStop.Kind.SUPERVISOR_DIED, s.first.join().kind());
    }

    @Test
    void theSupervisorThreadDyingCallsTheHandler() throws Exception {
        Recorder r = new Recorder();
        try (SupervisorHarness.LogCapture log = new SupervisorHarness.LogCapture();
             SupervisorHarness h = new SupervisorHarness((req, res) -> res.send("ok"),
                     c -> c.startServers(1).threadsPerChild(4).pollersPerChild(1).maxConnectionsPerChild(1),
                     s -> s.supervisor.fatalHandler(r))) {
            // The child retires at its first connection; its replacement starts on the supervisor
            // thread, whose uncaught error ends that thread.
            h.starts.throwNext(new InternalError("test: the replacement's start fails"));
            assertTrue(SupervisorHarness.get(h.port, 5_000).startsWith("HTTP/1.1 200"));
            Fatal f = r.first.get(10, TimeUnit.SECONDS);
            assertEquals(FailStop.Kind.SUPERVISOR_DIED, f.kind());
            assertEquals("loom-supervisor", f.thread());
            assertInstanceOf(InternalError.class, f.error());
            assertEquals(1, log.withId("LM2602").size());
        }
    }

    @Test
    void aPollerThatDiesCallsTheHandlerAndItsConnectionsAreClosed() throws Exception {
        Recorder r = new Recorder();
        try (SupervisorHarness.LogCapture log = new SupervisorHarness.LogCapture();
             SupervisorHarness h = new SupervisorHarness((req, res) -> res.send("ok"),
                     c -> c.startServers(1).threadsPerChild(4).pollersPerChild(1),
                     s -> s.supervisor.fatalHandler(r));
             Socket idle = new Socket("127.0.0.1", h.port)) {
            Child child = h.serving().get(0);
            SupervisorHarness.waitFor("the connection is registered", 10, () -> child.keepAliveConnections() == 1);
            Poller poller = child.pollerArray()[0];
            h.starts.stallNextIteration(poller, () -> {
                throw new InternalError("test: the poller's loop fails");
            });
            Fatal f = r.first.get(10, TimeUnit.SECONDS);
            assertEquals(FailStop.Kind.POLLER_DIED, f.kind());
            assertEquals(poller.thread().getName(), f.thread());
            assertEquals(1, log.withId("LM2601").size());
            idle.setSoTimeout((int) Duration.ofSeconds(5).toMillis());
            InputStream in = idle.getInputStream();
            try {
                assertEquals(-1, in.read(), "the dead poller's connection is closed");
            } catch (SocketException reset) {
                // Closed with unread input: a reset, as good as an end here.
            }
            SupervisorHarness.waitFor("no connection left open", 10, () -> h.supervisor.connectionsOpen() == 0);
        }
    }
}
