package org.loommpm.http2.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.loommpm.api.EventStream;
import org.loommpm.api.Router;
import org.loommpm.api.SuspendedResponse;
import org.loommpm.config.StreamingSettings;
import org.loommpm.engine.ChildStats;

/**
 * Suspended exchanges and event streams on HTTP/2 streams, with the JDK HttpClient (h2c by
 * upgrade) and a frame-level client: a suspended stream holds no worker slot (with every stream
 * suspended the connection waits DETACHED, holding no buffer either), answers come from other
 * threads as HEADERS and DATA, the deadline answers 503, a reset ends the exchange, a full
 * stream queue is reported, and a graceful stop answers 503.
 */
class Http2SuspendTest {
    private H2Server server;
    private final LinkedBlockingQueue<SuspendedResponse> waiting = new LinkedBlockingQueue<>();
    private final LinkedBlockingQueue<EventStream> streams = new LinkedBlockingQueue<>();

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private int start(java.util.function.UnaryOperator<org.loommpm.config.ServerConfig.Builder> engine)
            throws IOException {
        Router router = new Router()
                .get("/poll", (req, res) -> waiting.add(res.suspend()))
                .get("/short", (req, res) -> waiting.add(res.suspend(Duration.ofMillis(200))))
                .get("/length10", (req, res) -> waiting.add(res.header("Content-Length", "10").suspend()))
                .get("/events", (req, res) -> streams.add(res.eventStream()))
                .get("/ping", (req, res) -> res.send("pong"));
        server = H2Server.start(router, s -> s, engine);
        return server.port();
    }

    private ChildStats child() {
        return server.supervisor().children().get(0);
    }

    private static void waitFor(String what, BooleanSupplier cond) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!cond.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("timed out waiting for: " + what);
            }
            Thread.sleep(5);
        }
    }

    /** 50 suspended streams on one h2c connection with 4 worker slots: none held; one thread answers all. */
    @Test
    void suspendedStreamsHoldNoSlot() throws Exception {
        int port = start(b -> b.threadsPerChild(4));
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
        String base = "http://127.0.0.1:" + port;
        HttpResponse<String> first = client.send(HttpRequest.newBuilder(URI.create(base + "/ping")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(HttpClient.Version.HTTP_2, first.version());
        int polls = 50;
        List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
        for (int i = 0; i < polls; i++) {
            answers.add(client.sendAsync(HttpRequest.newBuilder(URI.create(base + "/poll")).build(),
                    HttpResponse.BodyHandlers.ofString()));
        }
        waitFor("every stream suspended", () -> waiting.size() == polls);
        waitFor("no worker held, the connection detached with no buffer", () -> child().activeWorkers() == 0
                && child().detachedConnections() == 1 && child().contextsHeld() == 0);
        assertEquals(polls, server.stats().suspendedNow());
        assertEquals("pong", client.send(HttpRequest.newBuilder(URI.create(base + "/ping")).build(),
                HttpResponse.BodyHandlers.ofString()).body(), "other streams are served meanwhile");
        // A FutureTask, not a bare thread: get() rethrows what fails there.
        FutureTask<Void> answerer = new FutureTask<>(() -> {
            SuspendedResponse s;
            while ((s = waiting.poll()) != null) {
                s.send("news");
            }
            return null;
        });
        Thread.ofPlatform().start(answerer);
        answerer.get(10, TimeUnit.SECONDS);
        for (CompletableFuture<HttpResponse<String>> f : answers) {
            HttpResponse<String> r = f.get(20, TimeUnit.SECONDS);
            assertEquals(200, r.statusCode());
            assertEquals("news", r.body());
        }
        waitFor("counted", () -> server.stats().suspendedNow() == 0);
    }

    /** An event stream over h2c, read by the JDK HttpClient line by line; Last-Event-ID is seen. */
    @Test
    void eventStreamOverH2c() throws Exception {
        int port = start(b -> b);
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
        String base = "http://127.0.0.1:" + port;
        client.send(HttpRequest.newBuilder(URI.create(base + "/ping")).build(), HttpResponse.BodyHandlers.ofString());
        HttpResponse<InputStream> res = client.send(HttpRequest.newBuilder(URI.create(base + "/events"))
                .header("Last-Event-ID", "9").build(), HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(HttpClient.Version.HTTP_2, res.version());
        assertEquals("text/event-stream; charset=UTF-8", res.headers().firstValue("content-type").orElse(null));
        EventStream es = streams.poll(10, TimeUnit.SECONDS);
        assertEquals("9", es.lastEventId());
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(res.body(), StandardCharsets.UTF_8))) {
            for (int i = 10; i < 15; i++) {
                int id = i;
                FutureTask<Boolean> sent = new FutureTask<>(
                        () -> es.send(org.loommpm.api.ServerSentEvent.data("x\ny").id(Integer.toString(id))));
                Thread.ofPlatform().start(sent);
                assertTrue(sent.get(10, TimeUnit.SECONDS));
                assertEquals("id: " + i, lines.readLine());
                assertEquals("data: x", lines.readLine());
                assertEquals("data: y", lines.readLine());
                assertEquals("", lines.readLine());
            }
            waitFor("idle stream holds nothing", () -> child().activeWorkers() == 0 && child().contextsHeld() == 0);
            es.close();
            assertNull(lines.readLine());
        }
    }

    /** The deadline answers 503 on the stream. */
    @Test
    void deadlineAnswers503() throws Exception {
        int port = start(b -> b);
        try (FrameClient c = FrameClient.open(port)) {
            c.headers(1, true, FrameClient.get("/short"));
            assertEquals(503, c.response(1).status());
        }
        assertEquals(1, server.stats().suspendTimeouts());
    }

    /** A client's RST_STREAM ends the suspended exchange: ended() completes, the stream's place is given back. */
    @Test
    void resetEndsTheExchange() throws Exception {
        int port = start(b -> b);
        try (FrameClient c = FrameClient.open(port)) {
            c.headers(1, true, FrameClient.get("/poll"));
            SuspendedResponse s = waiting.poll(10, TimeUnit.SECONDS);
            c.rst(1, 8); // CANCEL
            s.ended().get(10, TimeUnit.SECONDS);
            assertTrue(s.isDone());
            c.headers(3, true, FrameClient.get("/ping"));
            assertEquals("pong", c.response(3).text());
        }
        waitFor("ended", () -> server.stats().suspendedNow() == 0);
    }

    /** abort() after a streamed piece resets the stream (INTERNAL_ERROR); the connection serves on. */
    @Test
    void abortResetsTheStream() throws Exception {
        int port = start(b -> b);
        try (FrameClient c = FrameClient.open(port)) {
            c.headers(1, true, FrameClient.get("/poll"));
            SuspendedResponse s = waiting.poll(10, TimeUnit.SECONDS);
            assertTrue(s.write("partial".getBytes(StandardCharsets.UTF_8)));
            s.abort();
            assertEquals(2, c.expectRst(1), "INTERNAL_ERROR");
            s.ended().get(10, TimeUnit.SECONDS);
            c.headers(3, true, FrameClient.get("/ping"));
            assertEquals("pong", c.response(3).text());
        }
        waitFor("ended", () -> server.stats().suspendedNow() == 0);
    }

    /** A client that grants no window fills the stream's queue: write reports it. */
    @Test
    void fullStreamQueueIsReported() throws Exception {
        int port = start(b -> b.streaming(StreamingSettings.DEFAULTS.withOutboundQueueLimit(4096)));
        try (FrameClient c = new FrameClient(port)) {
            c.handshake();
            c.settings(4, 0); // SETTINGS_INITIAL_WINDOW_SIZE 0: nothing of any body may be sent
            c.headers(1, true, FrameClient.get("/poll"));
            SuspendedResponse s = waiting.poll(10, TimeUnit.SECONDS);
            int queued = 0;
            while (s.write(new byte[1000])) {
                queued++;
                assertTrue(queued < 100, "the queue never reported full");
            }
            assertTrue(queued >= 1 && queued <= 5, "within the 4096-byte budget: " + queued);
            CompletableFuture<Void> room = s.whenWritable();
            c.windowUpdate(1, 1 << 20);
            room.get(10, TimeUnit.SECONDS);
            s.complete();
            assertEquals(queued * 1000, c.response(1).body().length);
        }
    }

    /** A graceful stop answers suspended streams 503 before GracefulShutdownTimeout ends, then closes. */
    @Test
    void gracefulStopAnswers503() throws Exception {
        int port = start(b -> b.gracefulShutdownTimeout(Duration.ofSeconds(2)));
        Thread stopper;
        try (FrameClient c = FrameClient.open(port)) {
            c.socket().setSoTimeout(10_000);
            c.headers(1, true, FrameClient.get("/poll"));
            c.headers(3, true, FrameClient.get("/poll"));
            waitFor("suspended", () -> waiting.size() == 2);
            stopper = Thread.ofPlatform().start(() -> server.supervisor().stop(Duration.ofSeconds(2)));
            assertEquals(0, c.expectGoAway(), "GOAWAY(NO_ERROR) at once: no new stream; the suspended ones go on");
            assertEquals(503, c.response(1).status());
            assertEquals(503, c.response(3).status());
            assertTrue(c.closedByServer());
        }
        stopper.join(10_000); // the lingering close ends with the client's
        server = null;
    }

    /** HEAD on an event stream ends with its head (END_STREAM): left open, the client's request never ended. */
    @Test
    void headEventStreamEndsWithTheHead() throws Exception {
        int port = start(b -> b);
        try (FrameClient c = FrameClient.open(port)) {
            c.headers(1, true, ":method", "HEAD", ":scheme", "http", ":path", "/events", ":authority", "localhost");
            FrameClient.Response r = c.response(1);
            assertEquals(200, r.status());
            assertEquals(0, r.body().length);
            assertTrue(streams.poll(10, TimeUnit.SECONDS).closed().isDone());
        }
        waitFor("counted out", () -> server.stats().eventStreamsNow() == 0);
    }

    /**
     * A Content-Length set before streaming: a piece beyond it is refused, and a body ended short
     * of it resets the stream rather than end a malformed response (RFC 9113 §8.1.1) the client
     * could take for whole.
     */
    @Test
    void bodyNotMatchingItsContentLength() throws Exception {
        int port = start(b -> b);
        try (FrameClient c = FrameClient.open(port)) {
            c.headers(1, true, FrameClient.get("/length10"));
            SuspendedResponse s = waiting.poll(10, TimeUnit.SECONDS);
            assertTrue(s.write("0123456".getBytes(StandardCharsets.US_ASCII)));
            assertThrows(IOException.class, () -> s.write("789XYZ".getBytes(StandardCharsets.US_ASCII)));
            assertTrue(s.write("789".getBytes(StandardCharsets.US_ASCII)));
            s.complete();
            assertEquals("0123456789", c.response(1).text());

            c.headers(3, true, FrameClient.get("/length10"));
            SuspendedResponse shorter = waiting.poll(10, TimeUnit.SECONDS);
            assertTrue(shorter.write("abc".getBytes(StandardCharsets.US_ASCII)));
            shorter.complete();
            assertEquals(2, c.expectRst(3), "INTERNAL_ERROR, not END_STREAM after 3 of 10 bytes");
            c.headers(5, true, FrameClient.get("/ping"));
            assertEquals("pong", c.response(5).text());
        }
        waitFor("ended", () -> server.stats().suspendedNow() == 0);
    }
}
