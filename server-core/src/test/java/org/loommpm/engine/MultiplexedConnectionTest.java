package org.loommpm.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.FutureTask;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.loommpm.config.ServerConfig;
import org.loommpm.spi.CloseReason;
import org.loommpm.spi.ConnectionProtocol;
import org.loommpm.spi.ProtocolConnection;

/**
 * The engine primitives a multiplexed protocol (HTTP/2) stands on, exercised with a toy protocol:
 * each byte {@code 'J'} a client sends starts a "stream" job on the worker pool; the job signals
 * the connection when done; the connection's own task answers one {@code 'S'} per finished job.
 * While jobs run the connection waits MULTIPLEXED (no thread held); with none it is KEEPALIVE.
 * A lost signal would leave a client waiting for an {@code 'S'} forever.
 */
class MultiplexedConnectionTest {
    private Supervisor server;

    /** The toy protocol; per-connection state lives in the connection's session. */
    static class JobProtocol implements ConnectionProtocol {
        static final class Session {
            final AtomicInteger running = new AtomicInteger();
            final AtomicInteger finished = new AtomicInteger();
        }

        final long watchDeadlineNanos;
        final AtomicInteger closeRequests = new AtomicInteger();
        final AtomicInteger watches = new AtomicInteger();
        final List<Throwable> errors = new java.util.concurrent.CopyOnWriteArrayList<>();

        JobProtocol(long watchDeadlineNanos) {
            this.watchDeadlineNanos = watchDeadlineNanos;
        }

        @Override
        public boolean closesGracefully() {
            return true;
        }

        @Override
        public void serve(ProtocolConnection c, int slot) {
            Session s = c.session(Session.class);
            if (s == null) {
                s = new Session();
                c.session(s);
            }
            try {
                if (c.closeRequested()) {
                    closeRequests.incrementAndGet(); // before the client can see the goodbye
                    c.write(ByteBuffer.wrap(new byte[] {'G'}));
                    c.handBackLinger(CloseReason.NORMAL);
                    return;
                }
                c.takeSignal();
                ByteBuffer in = c.context().in();
                in.clear();
                int n = c.readNow(in);
                if (n < 0) {
                    c.handBackClose(CloseReason.NORMAL);
                    return;
                }
                for (int i = 0; i < n; i++) {
                    if (in.get(i) == 'J') {
                        startJob(c, s);
                    }
                }
                in.clear().limit(0);
                // Order matters: jobs count down "running" after "finished" is up, so reading
                // "running" first cannot miss a finished job's answer below.
                int stillRunning = s.running.get();
                int done = s.finished.getAndSet(0);
                if (done > 0) {
                    byte[] answer = new byte[done];
                    java.util.Arrays.fill(answer, (byte) 'S');
                    c.write(ByteBuffer.wrap(answer));
                }
                if (stillRunning > 0) {
                    watches.incrementAndGet();
                    c.handBackWatch(watchDeadlineNanos == 0 ? 0 : System.nanoTime() + watchDeadlineNanos);
                } else {
                    c.handBackKeepAlive();
                }
            } catch (IOException e) {
                errors.add(e);
                c.handBackClose(CloseReason.ABORT);
            }
        }

        private static void startJob(ProtocolConnection c, Session s) {
            s.running.incrementAndGet();
            c.services().dispatch(slot -> {
                int micros = ThreadLocalRandom.current().nextInt(0, 300);
                if (micros > 0) {
                    LockSupport.parkNanos(micros * 1000L);
                }
                s.finished.incrementAndGet();
                s.running.decrementAndGet();
                c.signal();
            });
        }
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(Duration.ofSeconds(5));
        }
    }

    private int start(JobProtocol protocol, ServerConfig.Builder cfg) throws IOException {
        server = new Supervisor(cfg.listen(new InetSocketAddress("127.0.0.1", 0)).build(), protocol);
        server.start();
        return server.boundAddresses().get(0).getPort();
    }

    @Test
    void everySignalReachesItsConnection() throws Exception {
        JobProtocol protocol = new JobProtocol(0);
        int port = start(protocol, ServerConfig.builder().threadsPerChild(64).keepAliveTimeout(Duration.ofSeconds(30)));
        int connections = 16;
        int rounds = 150;
        List<Thread> clients = new ArrayList<>();
        var failures = ConcurrentHashMap.<Throwable>newKeySet();
        AtomicInteger answered = new AtomicInteger();
        for (int i = 0; i < connections; i++) {
            clients.add(Thread.ofPlatform().start(() -> {
                try (Socket s = new Socket("127.0.0.1", port)) {
                    s.setSoTimeout(10_000);
                    OutputStream out = s.getOutputStream();
                    InputStream in = s.getInputStream();
                    for (int r = 0; r < rounds; r++) {
                        int jobs = 1 + ThreadLocalRandom.current().nextInt(4);
                        out.write("J".repeat(jobs).getBytes());
                        out.flush();
                        for (int k = 0; k < jobs; k++) {
                            assertEquals('S', in.read(), "answer " + k + " of round " + r);
                            answered.incrementAndGet();
                        }
                    }
                } catch (Throwable t) {
                    failures.add(t);
                }
            }));
        }
        for (Thread t : clients) {
            t.join(60_000);
        }
        assertTrue(protocol.errors.isEmpty(), () -> "server errors: " + protocol.errors);
        assertTrue(failures.isEmpty(), () -> "client failures: " + failures);
        assertTrue(answered.get() >= connections * rounds, "every job answered");
        assertTrue(protocol.watches.get() > 0, "connections waited MULTIPLEXED while jobs ran");
        ChildStats child = server.children().get(0);
        long deadline = System.nanoTime() + 5_000_000_000L;
        // A job's worker releases its slot just after its last signal: wait for both to settle.
        while ((child.contextsHeld() != 0 || child.activeWorkers() != 0) && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(0, child.contextsHeld(), "idle connections hold no context");
        assertEquals(0, child.activeWorkers(), "idle connections hold no worker");
    }

    @Test
    void watchDeadlineDispatchesWithCloseRequested() throws Exception {
        JobProtocol protocol = new JobProtocol(Duration.ofMillis(100).toNanos()) {
            @Override
            public void serve(ProtocolConnection c, int slot) {
                if (!c.closeRequested() && c.session(Session.class) == null) {
                    // A job that never finishes: only the watch deadline can bring the connection back.
                    c.session(new Session());
                    c.session(Session.class).running.incrementAndGet();
                }
                super.serve(c, slot);
            }
        };
        int port = start(protocol, ServerConfig.builder());
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(5_000);
            s.getOutputStream().write('x');
            assertEquals('G', s.getInputStream().read(), "the protocol ended it after the deadline");
            assertEquals(-1, s.getInputStream().read());
        }
        assertEquals(1, protocol.closeRequests.get());
    }

    @Test
    void gracefulStopHandsIdleConnectionsToTheProtocol() throws Exception {
        JobProtocol protocol = new JobProtocol(0);
        int port = start(protocol, ServerConfig.builder().keepAliveTimeout(Duration.ofSeconds(30)));
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(5_000);
            s.getOutputStream().write('J');
            assertEquals('S', s.getInputStream().read());
            // Now idle (KEEPALIVE): a graceful stop must let the protocol say goodbye.
            // A FutureTask: get() rethrows a failed stop.
            FutureTask<Void> stopper = new FutureTask<>(() -> server.stop(Duration.ofSeconds(5)), null);
            Thread.ofPlatform().start(stopper);
            assertEquals('G', s.getInputStream().read());
            assertEquals(-1, s.getInputStream().read());
            stopper.get(10, TimeUnit.SECONDS);
        }
        server = null;
        assertEquals(1, protocol.closeRequests.get());
    }
}
