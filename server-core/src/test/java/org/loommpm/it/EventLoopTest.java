package org.loommpm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.loommpm.api.Handler;
import org.loommpm.server.LoomServer;
import org.loommpm.api.SuspendedResponse;
import org.loommpm.spi.EventLoop;

/**
 * The poller as an event loop for non-blocking code ({@link EventLoop}): a handler on the poller
 * finds its loop, registers a socket there and is called back on the same thread, any thread
 * queues tasks onto it, and a loop that ends tells what is still registered.
 */
class EventLoopTest {

    @Test
    void aHandlerOnThePollerWatchesASocketAndRunsTasksThere() throws Exception {
        try (ServerSocketChannel peer = ServerSocketChannel.open()) {
            peer.bind(new InetSocketAddress("127.0.0.1", 0));
            AtomicReference<String> handlerThread = new AtomicReference<>();
            AtomicReference<String> answerThread = new AtomicReference<>();
            CountDownLatch ended = new CountDownLatch(1);
            Handler h = Handler.nonBlocking((req, res) -> {
                EventLoop loop = EventLoop.current();
                assertNotNull(loop, "a non-blocking handler served inline runs on a loop");
                assertTrue(loop.inLoop());
                handlerThread.set(Thread.currentThread().getName());
                SuspendedResponse s = res.suspend();
                SocketChannel ch = SocketChannel.open(peer.getLocalAddress());
                ch.configureBlocking(false);
                loop.register(ch, SelectionKey.OP_READ, new EventLoop.Watcher() {
                    @Override
                    public void ready(SelectionKey key) {
                        ByteBuffer b = ByteBuffer.allocate(64);
                        try {
                            int n = ch.read(b);
                            if (n < 0) {
                                key.cancel();
                            } else if (n > 0) {
                                answerThread.set(Thread.currentThread().getName());
                                String got = new String(b.array(), 0, n, StandardCharsets.US_ASCII);
                                // A task queued from another thread answers, on the loop again.
                                Thread.ofVirtual().start(() -> loop.execute(() -> answer(s, got)));
                            }
                        } catch (IOException e) {
                            s.abort();
                        }
                    }

                    @Override
                    public void loopEnded() {
                        ended.countDown();
                    }
                });
            });
            LoomServer server = LoomServer.builder().listen("127.0.0.1", 0).handler(h).start();
            try {
                assertNull(EventLoop.current(), "not a loop's thread");
                HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
                var pending = client.sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/"))
                        .build(), HttpResponse.BodyHandlers.ofString());
                try (SocketChannel accepted = accept(peer)) {
                    accepted.write(ByteBuffer.wrap("ping".getBytes(StandardCharsets.US_ASCII)));
                    HttpResponse<String> r = pending.get(10, TimeUnit.SECONDS);
                    assertEquals("ping on " + handlerThread.get(), r.body());
                    assertEquals(handlerThread.get(), answerThread.get(), "called back on the handler's poller");
                    assertTrue(handlerThread.get().contains("poller"), handlerThread.get());
                    server.close();
                    assertTrue(ended.await(10, TimeUnit.SECONDS), "the loop's end reaches the watcher");
                }
            } finally {
                server.close();
            }
        }
    }

    /** The handler's connection, within 10 s. */
    private static SocketChannel accept(ServerSocketChannel peer) throws Exception {
        peer.configureBlocking(false);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        for (;;) {
            SocketChannel c = peer.accept();
            if (c != null) {
                return c;
            }
            assertTrue(System.nanoTime() < deadline, "the handler on the poller connected");
            Thread.sleep(10);
        }
    }

    private static void answer(SuspendedResponse s, String got) {
        try {
            s.send(got + " on " + Thread.currentThread().getName());
        } catch (IOException e) {
            s.abort();
        }
    }

    @Test
    void aTaskForALoopThatEndedIsRefused() throws Exception {
        AtomicReference<EventLoop> seen = new AtomicReference<>();
        LoomServer server = LoomServer.builder().listen("127.0.0.1", 0)
                .handler(Handler.nonBlocking((req, res) -> {
                    seen.set(EventLoop.current());
                    res.send("ok".getBytes(StandardCharsets.US_ASCII));
                })).start();
        try (Socket c = new Socket("127.0.0.1", server.port())) {
            OutputStream out = c.getOutputStream();
            out.write("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            InputStream in = c.getInputStream();
            assertTrue(new String(in.readAllBytes(), StandardCharsets.ISO_8859_1).startsWith("HTTP/1.1 200"));
        }
        EventLoop loop = seen.get();
        assertNotNull(loop);
        CountDownLatch ran = new CountDownLatch(1);
        assertTrue(loop.execute(ran::countDown));
        assertTrue(ran.await(5, TimeUnit.SECONDS), "a queued task runs");
        server.close();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!loop.hasEnded() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertTrue(loop.hasEnded());
        assertEquals(false, loop.execute(() -> { }), "refused once the loop ended");
    }
}
