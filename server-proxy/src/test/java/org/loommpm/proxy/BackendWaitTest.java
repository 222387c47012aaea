package org.loommpm.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A backend connection's waits (the lessee's virtual thread parked until the backend's socket is
 * ready): an answer wakes the parked reader, a full socket parks a writer until the peer reads,
 * the {@link TimeoutSweeper}'s expiry or a close while the reader waits ends the wait and really
 * closes the socket, a read timeout leaves the connection usable, a backend's FIN while pooled
 * makes the connection unusable, and many lessees at once each get their own answers.
 */
class BackendWaitTest {
    private static final String ANSWER = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello";

    @Test
    void aLateAnswerWakesTheParkedReader() throws Exception {
        try (ServerSocket ss = listen(); BackendConnection c = open(ss); Socket peer = ss.accept()) {
            CompletableFuture.runAsync(() -> {
                sleep(200);
                write(peer, ANSWER);
            });
            long t0 = System.nanoTime();
            ResponseHead h = c.readHead();
            assertTrue(System.nanoTime() - t0 >= TimeUnit.MILLISECONDS.toNanos(150), "waited for the answer");
            assertEquals(200, h.status());
            assertEquals("hello", body(c, 5));
            assertTrue(c.usable());
        }
    }

    @Test
    void aWriterParksWhileTheSocketIsFullAndResumesAsThePeerReads() throws Exception {
        int total = 16 << 20; // far more than the socket buffers hold
        try (ServerSocket ss = listen(); BackendConnection c = open(ss); Socket peer = ss.accept()) {
            Future<Long> writer = Executors.newVirtualThreadPerTaskExecutor().submit(() -> {
                byte[] chunk = new byte[64 * 1024];
                for (int sent = 0; sent < total; sent += chunk.length) {
                    c.out().write(chunk, 0, chunk.length);
                }
                c.flush();
                return (long) total;
            });
            sleep(300);
            assertFalse(writer.isDone(), "the peer has not read: the writer must be parked");
            InputStream in = peer.getInputStream();
            byte[] b = new byte[256 * 1024];
            long got = 0;
            while (got < total) {
                int n = in.read(b);
                if (n < 0) {
                    break;
                }
                got += n;
            }
            assertEquals(total, got);
            assertEquals(total, writer.get(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void aTimeoutWhileTheWaitIsRegisteredEndsItAndClosesTheSocket() throws Exception {
        try (ServerSocket ss = listen(); BackendConnection c = open(ss); Socket peer = ss.accept()) {
            c.ioTimeout(TimeUnit.MILLISECONDS.toNanos(100));
            CompletableFuture<Boolean> sweeper = CompletableFuture.supplyAsync(() -> {
                sleep(300);
                return c.expire(System.nanoTime()); // what the balancer's TimeoutSweeper does
            });
            assertThrows(SocketTimeoutException.class, c::readHead);
            assertTrue(sweeper.get(5, TimeUnit.SECONDS));
            assertPeerSeesTheClose(peer);
        }
    }

    @Test
    void aReadTimeoutLeavesTheConnectionUsableForTheAnswerAfterIt() throws Exception {
        try (ServerSocket ss = listen(); BackendConnection c = open(ss); Socket peer = ss.accept()) {
            c.readTimeout(100);
            assertThrows(SocketTimeoutException.class, c::readHead);
            c.readTimeout(0);
            write(peer, ANSWER);
            assertEquals(200, c.readHead().status());
            assertEquals("hello", body(c, 5));
        }
    }

    @Test
    void aBackendClosingInsideTheHeadEndsTheWaitWithEof() throws Exception {
        try (ServerSocket ss = listen(); BackendConnection c = open(ss); Socket peer = ss.accept()) {
            CompletableFuture.runAsync(() -> {
                sleep(100);
                write(peer, "HTTP/1.1 200 OK\r\nConte");
                sleep(100);
                close(peer);
            });
            EOFException e = assertThrows(EOFException.class, c::readHead);
            assertTrue(e.getMessage().contains("inside the response head"), e.getMessage());
        }
    }

    @Test
    void closingWhileTheReaderWaitsWakesItAndClosesTheSocket() throws Exception {
        try (ServerSocket ss = listen(); Socket peerHolder = new Socket()) {
            BackendConnection c = open(ss);
            Socket peer = ss.accept();
            CompletableFuture<Throwable> reader = CompletableFuture.supplyAsync(() -> {
                try {
                    c.readHead();
                    return null;
                } catch (IOException e) {
                    return e;
                }
            }, Executors.newVirtualThreadPerTaskExecutor());
            sleep(200);
            assertFalse(reader.isDone());
            c.close(); // the client went away: its worker gives the lease back, closed
            assertTrue(reader.get(5, TimeUnit.SECONDS) instanceof IOException);
            assertPeerSeesTheClose(peer);
            peer.close();
        }
    }

    @Test
    void aFinWhilePooledMakesTheConnectionUnusable() throws Exception {
        try (ServerSocket ss = listen(); BackendConnection c = open(ss); Socket peer = ss.accept()) {
            write(peer, ANSWER);
            assertEquals(200, c.readHead().status());
            assertEquals("hello", body(c, 5));
            assertTrue(c.usable());
            peer.close(); // the backend's keep-alive timeout while the connection idles in the pool
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (c.usable() && System.nanoTime() < until) {
                sleep(10);
            }
            assertFalse(c.usable());
        }
    }

    @Test
    void manyLesseesAtOnceEachGetTheirOwnAnswers() throws Exception {
        int connections = 48;
        int exchanges = 300;
        try (ServerSocket ss = new ServerSocket(0, connections, InetAddress.getLoopbackAddress());
             var pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> backends = new ArrayList<>();
            List<Future<Long>> lessees = new ArrayList<>();
            AtomicLong answered = new AtomicLong();
            for (int i = 0; i < connections; i++) {
                BackendConnection c = open(ss);
                Socket peer = ss.accept();
                backends.add(pool.submit(() -> echoIds(peer, exchanges)));
                lessees.add(pool.submit(() -> {
                    try (c) {
                        for (int k = 0; k < exchanges; k++) {
                            String id = Long.toString(answered.incrementAndGet());
                            c.ascii("GET /").ascii(id).ascii(" HTTP/1.1\r\n\r\n");
                            c.flush();
                            ResponseHead h = c.readHead();
                            assertEquals(id, body(c, (int) h.contentLength()));
                        }
                    }
                    return (long) exchanges;
                }));
            }
            for (Future<Long> f : lessees) {
                assertEquals(exchanges, f.get(60, TimeUnit.SECONDS));
            }
            for (Future<?> f : backends) {
                f.get(10, TimeUnit.SECONDS);
            }
        }
    }

    /** A backend answering each {@code GET /ID} with the body {@code ID}, split in two writes at random. */
    private static Void echoIds(Socket peer, int exchanges) throws IOException {
        try (peer) {
            peer.setTcpNoDelay(true); // each half of a split answer goes out at once
            InputStream in = peer.getInputStream();
            OutputStream out = peer.getOutputStream();
            java.util.Random r = new java.util.Random(peer.getPort());
            for (int k = 0; k < exchanges; k++) {
                StringBuilder line = new StringBuilder();
                int ch;
                int crlf = 0;
                while (crlf < 4 && (ch = in.read()) >= 0) {
                    line.append((char) ch);
                    crlf = ch == '\r' || ch == '\n' ? crlf + 1 : 0;
                }
                String id = line.substring(5, line.indexOf(" HTTP/1.1"));
                byte[] answer = ("HTTP/1.1 200 OK\r\nContent-Length: " + id.length() + "\r\n\r\n" + id)
                        .getBytes(StandardCharsets.US_ASCII);
                int split = r.nextInt(answer.length);
                out.write(answer, 0, split);
                out.flush();
                out.write(answer, split, answer.length - split);
                out.flush();
            }
        }
        return null;
    }

    private static ServerSocket listen() throws IOException {
        return new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
    }

    private static BackendConnection open(ServerSocket ss) throws IOException {
        return BackendConnection.open(new InetSocketAddress(ss.getInetAddress(), ss.getLocalPort()), 5000);
    }

    private static String body(BackendConnection c, int length) throws IOException {
        byte[] b = new byte[length];
        int off = 0;
        while (off < length) {
            int n = c.read(b, off, length - off);
            if (n < 0) {
                throw new EOFException();
            }
            off += n;
        }
        return new String(b, StandardCharsets.US_ASCII);
    }

    /** The peer reads the end of the stream: the socket itself was closed, not only the channel object. */
    private static void assertPeerSeesTheClose(Socket peer) throws IOException {
        peer.setSoTimeout(5000);
        assertEquals(-1, peer.getInputStream().read());
    }

    private static void write(Socket s, String text) {
        try {
            s.getOutputStream().write(text.getBytes(StandardCharsets.US_ASCII));
            s.getOutputStream().flush();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void close(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
