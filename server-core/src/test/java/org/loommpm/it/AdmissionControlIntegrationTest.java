package org.loommpm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.loommpm.api.Handler;
import org.loommpm.api.Router;
import org.loommpm.config.AdmissionSettings;
import org.loommpm.engine.ChildStats;
import org.loommpm.engine.EngineStats;
import org.loommpm.server.LoomServer;
import org.loommpm.testsupport.TestServers;

/**
 * Fair admission against real sockets: the listener closes at the connection bound (not when the
 * workers are busy), and under keep-alive overload of a small pool a new connection's first
 * request and a non-blocking status route are answered while every slot stays busy.
 */
class AdmissionControlIntegrationTest {
    /**
     * Bound 8, ThreadsPerChild 4, a handler parked on a latch: the listener goes off at 8 open
     * connections. Keep-alive off, so that answered clients close and the backlog drains at once.
     */
    @Test
    void listenerGoesOffAtTheConnectionBoundAndBackOnBelowIt() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger entered = new AtomicInteger();
        try (LoomServer server = TestServers.start((req, res) -> {
            entered.incrementAndGet();
            release.await();
            res.send("ok");
        }, c -> c.threadsPerChild(4).pollersPerChild(1).keepAlive(false).admission(new AdmissionSettings(8)))) {
            ChildStats child = EngineStats.of(server.stats()).children().get(0);
            assertTrue(child.admissionOpen());
            assertEquals(8, child.connectionBound());
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(30)).build();
            List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
            for (int i = 0; i < 32; i++) {
                calls.add(client.sendAsync(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + server.port() + "/slow/" + i))
                        .timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString()));
            }
            TestServers.waitFor("admission off", 20, () -> !child.admissionOpen());
            TestServers.waitFor("4 handlers running", 20, () -> entered.get() == 4);
            assertEquals(8, child.openConnections(), "accepted up to the bound, no further");
            // The last connections' requests may still be on their way to the pool.
            TestServers.waitFor("the four beyond the slots pending", 20, () -> child.pendingWorkers() == 4);
            assertEquals(4, child.pendingWorkers(), "the four beyond the slots wait as pending");
            assertEquals(4, child.pendingNewcomers(), "their first requests, in the newcomer lane");
            assertFalse(child.accepting());
            long transitionsWhileOff = child.admissionTransitions();
            assertTrue(transitionsWhileOff >= 1);

            release.countDown();
            for (CompletableFuture<HttpResponse<String>> f : calls) {
                HttpResponse<String> r = f.get(60, TimeUnit.SECONDS);
                assertEquals(200, r.statusCode());
                assertEquals("ok", r.body());
            }
            TestServers.waitFor("admission on again", 20, child::admissionOpen);
            assertTrue(child.admissionTransitions() >= transitionsWhileOff + 1);
            assertEquals(32, entered.get());
        }
    }

    /**
     * ThreadsPerChild 4 and 40 keep-alive clients looping on a 20 ms blocking handler: every slot
     * stays busy and some 36 requests are always pending. Motorz's rule closed the listener here
     * until the load ended; now a new connection's first request waits in the newcomer lane
     * (about one handler's time) and the non-blocking status route is answered by the poller.
     * The bounds are generous liveness checks: under the old rule the probes got nothing until
     * the load stopped.
     */
    @Test
    void newcomersAndStatusAreAnsweredWhileKeepAliveClientsSaturateThePool() throws Exception {
        Router router = new Router()
                .get("/slow", (req, res) -> {
                    Thread.sleep(20);
                    res.send("slow");
                })
                .get("/status", Handler.nonBlocking((req, res) -> res.send("up")));
        try (LoomServer server = TestServers.start(router, c -> c.threadsPerChild(4).pollersPerChild(1))) {
            ChildStats child = EngineStats.of(server.stats()).children().get(0);
            int port = server.port();
            AtomicBoolean stop = new AtomicBoolean();
            AtomicInteger served = new AtomicInteger();
            List<Thread> loaders = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                loaders.add(Thread.ofVirtual().start(() -> keepAliveLoop(port, stop, served)));
            }
            try {
                TestServers.waitFor("the pool saturated", 20, () -> child.pendingWorkers() >= 20);
                for (int i = 0; i < 6; i++) {
                    assertEquals("slow", firstResponseBody(port, "/slow"), "newcomer " + i);
                    assertEquals("up", firstResponseBody(port, "/status"), "status " + i);
                    assertTrue(child.pendingWorkers() > 0, "still saturated");
                    Thread.sleep(100);
                }
                assertTrue(child.admissionOpen(), "the listener stayed open");
                assertTrue(served.get() > 0);
            } finally {
                stop.set(true);
                for (Thread t : loaders) {
                    t.join(10_000);
                }
            }
        }
    }

    /** A keep-alive client: one connection, GET /slow again as soon as each response is read. */
    private static void keepAliveLoop(int port, AtomicBoolean stop, AtomicInteger served) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
            s.setSoTimeout(30_000);
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            byte[] req = ("GET /slow HTTP/1.1\r\nHost: t\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
            while (!stop.get()) {
                out.write(req);
                out.flush();
                readResponse(in);
                served.incrementAndGet();
            }
        } catch (IOException e) {
            // The server closing at the end of the test: the loop is over.
        }
    }

    /**
     * Opens a new connection, sends one request and reads its response within 5 s (the newcomer
     * lane's wait is about one 20 ms handler; the old rule held the connection in the backlog).
     */
    private static String firstResponseBody(int port, String path) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            s.setSoTimeout(5_000);
            s.getOutputStream().write(("GET " + path + " HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            return readResponse(s.getInputStream());
        }
    }

    /** Reads one response with a Content-Length body; returns the body. */
    private static String readResponse(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed after " + head);
            }
            head.append((char) b);
        }
        int length = 0;
        for (String line : head.toString().split("\r\n")) {
            if (line.regionMatches(true, 0, "content-length:", 0, 15)) {
                length = Integer.parseInt(line.substring(15).trim());
            }
        }
        byte[] body = in.readNBytes(length);
        return new String(body, StandardCharsets.US_ASCII);
    }
}
