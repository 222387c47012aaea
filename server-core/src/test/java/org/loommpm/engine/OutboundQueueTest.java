package org.loommpm.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.testsupport.TestCertificates;
import org.loommpm.config.ServerConfig;
import org.loommpm.config.StreamingSettings;
import org.loommpm.spi.CloseReason;
import org.loommpm.spi.ConnectionProtocol;
import org.loommpm.spi.OutboundQueue;
import org.loommpm.spi.ProtocolConnection;
import org.loommpm.tls.TlsContextFactory;

/**
 * The connection's outbound queue and the DETACHED state, with a toy protocol: a client's first
 * byte detaches its connection (read interest on, no deadline) and publishes it to the test,
 * whose threads then write to it through {@link ProtocolConnection#outbound()} from outside the
 * engine; a later byte is echoed as {@code E} after a {@link ProtocolConnection#signal}
 * dispatch; EOF closes.
 */
class OutboundQueueTest {
    private Supervisor server;

    /** The toy protocol: detach on the first byte, publish the connection. */
    static final class DetachProtocol implements ConnectionProtocol {
        final LinkedBlockingQueue<ProtocolConnection> detached = new LinkedBlockingQueue<>();
        final AtomicInteger dispatches = new AtomicInteger();
        final AtomicInteger closeRequests = new AtomicInteger();
        final List<Throwable> errors = new java.util.concurrent.CopyOnWriteArrayList<>();
        final long deadlineNanos;

        DetachProtocol(long deadlineNanos) {
            this.deadlineNanos = deadlineNanos;
        }

        @Override
        public void serve(ProtocolConnection c, int slot) {
            dispatches.incrementAndGet();
            try {
                if (c.closeRequested()) {
                    closeRequests.incrementAndGet();
                    c.write(ByteBuffer.wrap(new byte[] {'G'}));
                    c.handBackLinger(CloseReason.TIMEOUT);
                    return;
                }
                boolean signalled = c.takeSignal();
                ByteBuffer in = c.context().in();
                in.clear();
                int n = c.readNow(in);
                in.clear().limit(0);
                if (n < 0) {
                    c.handBackClose(CloseReason.NORMAL);
                    return;
                }
                boolean first = c.session(Boolean.class) == null;
                if (first && n == 0) {
                    c.handBackKeepAlive(); // a TLS handshake's dispatch: no byte yet
                    return;
                }
                c.session(Boolean.TRUE);
                if (!first && (n > 0 || signalled)) {
                    c.write(ByteBuffer.wrap(new byte[] {'E'}));
                }
                c.handBackDetached(deadlineNanos == 0 ? 0 : System.nanoTime() + deadlineNanos, true);
                if (first) {
                    detached.add(c);
                }
            } catch (IOException e) {
                errors.add(e);
                c.handBackClose(CloseReason.ABORT);
            }
        }
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(Duration.ofSeconds(5));
        }
    }

    private int start(DetachProtocol protocol, ServerConfig.Builder cfg) throws IOException {
        server = new Supervisor(cfg.listen(new InetSocketAddress("127.0.0.1", 0)).build(), protocol);
        server.tlsTransports(TlsContextFactory::create);
        server.start();
        return server.boundAddresses().get(0).getPort();
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("not reached in 10 s: " + what);
            }
            Thread.sleep(5);
        }
    }

    /**
     * Eight producer threads write 16 MB of numbered records to one detached connection while
     * the client does not read: the queue reports full (nothing lost, nothing over the budget),
     * the producers wait for {@link OutboundQueue#whenWritable()}, and the client receives every
     * record whole and each producer's records in order.
     */
    @Test
    void manyProducersFillTheQueueAndEveryRecordArrivesInOrder() throws Exception {
        DetachProtocol protocol = new DetachProtocol(0);
        long limit = 64 * 1024;
        int port = start(protocol, ServerConfig.builder()
                .streaming(StreamingSettings.DEFAULTS.withOutboundQueueLimit(limit)));
        int producers = 8;
        int records = 2000;
        int recordSize = 1000;
        try (Socket s = new Socket()) {
            s.setReceiveBufferSize(8192);
            s.connect(new InetSocketAddress("127.0.0.1", port));
            s.setSoTimeout(20_000);
            s.getOutputStream().write('x');
            ProtocolConnection c = protocol.detached.poll(10, TimeUnit.SECONDS);
            OutboundQueue q = c.outbound();
            AtomicInteger full = new AtomicInteger();
            AtomicInteger overBudget = new AtomicInteger();
            var failures = ConcurrentHashMap.<Throwable>newKeySet();
            CountDownLatch fullSeen = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            for (int p = 0; p < producers; p++) {
                int id = p;
                threads.add(Thread.ofPlatform().start(() -> {
                    try {
                        for (int r = 0; r < records; r++) {
                            ByteBuffer rec = record(id, r, recordSize);
                            while (!q.offer(rec.duplicate())) {
                                full.incrementAndGet();
                                fullSeen.countDown();
                                q.whenWritable().get(20, TimeUnit.SECONDS);
                            }
                            if (q.queuedBytes() > limit) {
                                overBudget.incrementAndGet();
                            }
                        }
                    } catch (Throwable t) {
                        failures.add(t);
                    }
                }));
            }
            assertTrue(fullSeen.await(10, TimeUnit.SECONDS), "the queue reported full while the client did not read");
            // Only now read: each producer's records must be whole and in order.
            int[] next = new int[producers];
            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII));
            for (int i = 0; i < producers * records; i++) {
                String line = in.readLine();
                assertEquals(recordSize - 1, line.length(), "a whole record");
                int p = line.charAt(0) - 'A';
                int seq = Integer.parseInt(line.substring(1, 9));
                assertEquals(next[p], seq, "producer " + p + "'s records in order");
                next[p]++;
            }
            for (Thread t : threads) {
                t.join(20_000);
            }
            assertTrue(failures.isEmpty(), () -> "producer failures: " + failures);
            assertTrue(full.get() > 0);
            assertEquals(0, overBudget.get(), "the queue never held more than its limit");
            assertEquals(0, q.queuedBytes());
            // Idle again: detached, no worker, no context.
            ChildStats child = server.children().get(0);
            await(() -> child.contextsHeld() == 0 && child.activeWorkers() == 0, "idle");
            assertEquals(1, child.detachedConnections());
            assertEquals(1, protocol.dispatches.get(), "the writes needed no worker");
        }
        assertTrue(protocol.errors.isEmpty(), () -> "server errors: " + protocol.errors);
    }

    private static ByteBuffer record(int producer, int seq, int size) {
        byte[] b = new byte[size];
        java.util.Arrays.fill(b, (byte) '.');
        b[0] = (byte) ('A' + producer);
        byte[] n = String.format("%08d", seq).getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(n, 0, b, 1, 8);
        b[size - 1] = '\n';
        return ByteBuffer.wrap(b);
    }

    /** A close asked from another thread writes what is queued first, then ends: the future tells why. */
    @Test
    void closeFromAnyThreadFlushesFirstAndCompletesClosed() throws Exception {
        DetachProtocol protocol = new DetachProtocol(0);
        int port = start(protocol, ServerConfig.builder());
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write('x');
            ProtocolConnection c = protocol.detached.poll(10, TimeUnit.SECONDS);
            OutboundQueue q = c.outbound();
            CompletableFuture<CloseReason> closed = q.closed();
            // runAsync, not a bare thread: an assertion failing there fails the test (join rethrows it)
            CompletableFuture.runAsync(() -> {
                try {
                    assertTrue(q.offer(ByteBuffer.wrap("bye".getBytes(StandardCharsets.US_ASCII))));
                    q.close(CloseReason.NORMAL, true);
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            }, r -> Thread.ofPlatform().start(r)).join();
            InputStream in = s.getInputStream();
            assertEquals("bye", new String(in.readNBytes(3), StandardCharsets.US_ASCII));
            assertEquals(-1, in.read());
            assertEquals(CloseReason.NORMAL, closed.get(10, TimeUnit.SECONDS));
            assertTrue(q.isClosed());
            assertThrows(ClosedChannelException.class, () -> q.offer(ByteBuffer.allocate(1)));
            assertTrue(q.whenWritable().isCompletedExceptionally());
        }
        assertEquals(1, protocol.dispatches.get(), "the close needed no worker");
    }

    /** A signal dispatches a detached connection; its bytes follow what was queued before it. */
    @Test
    void signalDispatchesAfterTheQueueIsWritten() throws Exception {
        DetachProtocol protocol = new DetachProtocol(0);
        int port = start(protocol, ServerConfig.builder());
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write('x');
            ProtocolConnection c = protocol.detached.poll(10, TimeUnit.SECONDS);
            assertTrue(c.outbound().offer(ByteBuffer.wrap("q".getBytes(StandardCharsets.US_ASCII))));
            c.signal();
            InputStream in = s.getInputStream();
            assertEquals('q', in.read());
            assertEquals('E', in.read(), "the protocol ran after the queued byte was written");
            // Bytes from the client dispatch it too (read interest).
            s.getOutputStream().write('y');
            assertEquals('E', in.read());
        }
    }

    /** The deadline dispatches with closeRequested; a peer's close ends the connection and the future. */
    @Test
    void deadlineDispatchesWithCloseRequested() throws Exception {
        DetachProtocol protocol = new DetachProtocol(Duration.ofMillis(100).toNanos());
        int port = start(protocol, ServerConfig.builder());
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write('x');
            ProtocolConnection c = protocol.detached.poll(10, TimeUnit.SECONDS);
            CompletableFuture<CloseReason> closed = c.outbound().closed();
            assertEquals('G', s.getInputStream().read());
            assertEquals(-1, s.getInputStream().read());
            assertEquals(CloseReason.TIMEOUT, closed.get(10, TimeUnit.SECONDS));
        }
        assertEquals(1, protocol.closeRequests.get());
    }

    /** The client going away is seen by read interest: the protocol ends the connection, the future completes. */
    @Test
    void peerCloseEndsADetachedConnection() throws Exception {
        DetachProtocol protocol = new DetachProtocol(0);
        int port = start(protocol, ServerConfig.builder());
        CompletableFuture<CloseReason> closed;
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.getOutputStream().write('x');
            ProtocolConnection c = protocol.detached.poll(10, TimeUnit.SECONDS);
            closed = c.outbound().closed();
            assertFalse(closed.isDone());
        }
        assertEquals(CloseReason.NORMAL, closed.get(10, TimeUnit.SECONDS));
        ChildStats child = server.children().get(0);
        await(() -> child.detachedConnections() == 0 && child.openConnections() == 0, "closed");
    }

    /**
     * Under TLS the poller never runs the TLS engine: a short engine task on a worker writes the
     * queue and hands the connection back DETACHED; a close asked from another thread sends
     * close_notify after the queued bytes.
     */
    @Test
    void tlsQueueIsWrittenByABrieflyDispatchedWorker(@TempDir java.nio.file.Path dir) throws Exception {
        TestCertificates certs = TestCertificates.create(dir);
        DetachProtocol protocol = new DetachProtocol(0);
        int port = start(protocol, ServerConfig.builder()
                .tls(t -> t.engine(true).certificateFile(certs.chainPem).keyFile(certs.pkcs8Key)));
        javax.net.ssl.SSLContext tls = TestCertificates.clientContext(certs.chainPem);
        try (Socket s = tls.getSocketFactory().createSocket("127.0.0.1", port)) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write('x');
            s.getOutputStream().flush();
            ProtocolConnection c = protocol.detached.poll(10, TimeUnit.SECONDS);
            OutboundQueue q = c.outbound();
            int dispatchesBefore = protocol.dispatches.get(); // the handshake took one or two
            int total = 1 << 20;
            // A FutureTask, not a bare thread: get() rethrows what fails there.
            FutureTask<Void> producer = new FutureTask<>(() -> {
                for (int sent = 0; sent < total; sent += 1000) {
                    ByteBuffer rec = record(0, sent / 1000, 1000);
                    while (!q.offer(rec)) {
                        q.whenWritable().get(10, TimeUnit.SECONDS);
                    }
                }
                q.close(CloseReason.NORMAL, true);
                return null;
            });
            Thread.ofPlatform().start(producer);
            byte[] all = s.getInputStream().readAllBytes(); // to close_notify
            producer.get(10, TimeUnit.SECONDS);
            assertEquals(1_049_000, all.length, "every record, then the TLS close");
            assertEquals(CloseReason.NORMAL, q.closed().get(10, TimeUnit.SECONDS));
            assertEquals(dispatchesBefore, protocol.dispatches.get(), "the flush tasks are the engine's, not the protocol's");
        }
    }
}
