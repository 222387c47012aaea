package org.loommpm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
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
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.loommpm.server.LoomServer;
import org.loommpm.api.Router;
import org.loommpm.api.SuspendedResponse;
import org.loommpm.config.StreamingSettings;
import org.loommpm.engine.ChildStats;
import org.loommpm.engine.EngineStats;
import org.loommpm.spi.ProtocolCounters;
import org.loommpm.testsupport.LogCapture;
import org.loommpm.testsupport.RawHttp;
import org.loommpm.testsupport.TestServers;

/**
 * Suspended HTTP/1.1 exchanges ({@code Response.suspend()}) with real clients: a long poll holds
 * no worker slot (counted, with fewer slots than suspended requests), answers come from other
 * threads whole or streamed, the deadline answers 503 (or the handle's onTimeout action), a
 * graceful stop answers 503, a full queue is reported, and a client that goes away ends the
 * exchange.
 */
class SuspendedExchangeTest {
    private LoomServer server;
    private final LinkedBlockingQueue<SuspendedResponse> waiting = new LinkedBlockingQueue<>();

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(Duration.ofSeconds(5));
        }
    }

    private int start(java.util.function.Consumer<org.loommpm.config.ServerConfig.Builder> directives) throws IOException {
        Router router = new Router()
                .get("/poll", (req, res) -> waiting.add(res.suspend()))
                .get("/short", (req, res) -> waiting.add(res.suspend(Duration.ofMillis(200))))
                .get("/short204", (req, res) -> {
                    SuspendedResponse s = res.suspend(Duration.ofMillis(200));
                    s.onTimeout(() -> s.status(204).complete());
                })
                .get("/raced", (req, res) -> {
                    SuspendedResponse s = res.suspend(Duration.ofMillis(200));
                    // As if another thread answered just before the action's own status():
                    s.onTimeout(() -> {
                        try {
                            s.send("answered first");
                        } catch (IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                        s.status(204);
                    });
                })
                .get("/inline", (req, res) -> res.suspend().send("at once"))
                .get("/length10", (req, res) -> waiting.add(res.header("Content-Length", "10").suspend()))
                .get("/ping", (req, res) -> res.send("pong"));
        server = TestServers.start(router, directives);
        return server.port();
    }

    private ChildStats child() {
        return EngineStats.of(server.stats()).children().get(0);
    }

    private ProtocolCounters counters() {
        return EngineStats.of(server.stats()).protocols();
    }

    /**
     * 100 long polls with 4 worker slots: all wait suspended with no slot held, other requests
     * are answered meanwhile, and one thread then answers every poll.
     */
    @Test
    void longPollsHoldNoWorkerSlot() throws Exception {
        int port = start(c -> c.threadsPerChild(4));
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        int polls = 100;
        List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
        for (int i = 0; i < polls; i++) {
            answers.add(client.sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/poll")).build(),
                    HttpResponse.BodyHandlers.ofString()));
        }
        TestServers.waitFor("every poll suspended", 20, () -> waiting.size() == polls);
        // The hand-backs reach the pollers just after the workers let their slots go.
        TestServers.waitFor("no worker held, every connection detached", 10,
                () -> child().activeWorkers() == 0 && child().detachedConnections() == polls);
        assertEquals(polls, counters().value("loom.suspended.exchanges"));
        assertEquals(0, child().contextsHeld(), "a suspended exchange holds no buffer");
        for (int i = 0; i < 10; i++) {
            try (RawHttp raw = new RawHttp(port)) {
                assertEquals("pong", raw.send("GET /ping HTTP/1.1\r\nHost: x\r\n\r\n").read().text());
            }
        }
        // A FutureTask, not a bare thread: get() rethrows what fails there.
        FutureTask<Void> answerer = new FutureTask<>(() -> {
            SuspendedResponse s;
            int i = 0;
            while ((s = waiting.poll()) != null) {
                s.header("X-N", Integer.toString(i++)).send("news");
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
        TestServers.waitFor("counted", 10, () -> counters().value("loom.suspended.exchanges") == 0);
        assertEquals(polls, counters().value("loom.suspended.total"));
        // The connections went back to keep-alive: the client reuses them.
        HttpResponse<String> again = client.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/ping")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals("pong", again.body());
        // A request is counted once its answer is on its way, maybe just after the client read it.
        TestServers.waitFor("suspended exchanges are counted when they end", 10,
                () -> server.stats().requests() >= polls + 11);
    }

    /** A streamed answer from another thread is chunked; the connection then serves its next request. */
    @Test
    void streamedAnswerThenKeepAlive() throws Exception {
        int port = start(c -> { });
        try (RawHttp raw = new RawHttp(port)) {
            raw.send("GET /poll HTTP/1.1\r\nHost: x\r\n\r\n");
            SuspendedResponse s = waiting.poll(10, TimeUnit.SECONDS);
            // runAsync, not a bare thread: an assertion failing there fails the test (join rethrows it)
            CompletableFuture.runAsync(() -> {
                try {
                    s.header("Content-Type", "text/plain");
                    assertTrue(s.write("a".getBytes()));
                    assertTrue(s.write("b".getBytes()));
                    s.complete();
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            }, r -> Thread.ofPlatform().start(r)).join();
            RawHttp.Response r = raw.read();
            assertEquals("chunked", r.header("Transfer-Encoding"));
            assertEquals("ab", r.text());
            assertEquals("pong", raw.send("GET /ping HTTP/1.1\r\nHost: x\r\n\r\n").read().text());
        }
        assertEquals("at once", new RawHttp(port).send("GET /inline HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                .read().text(), "answered on the handler's own thread before it returned");
    }

    /** A request pipelined behind a suspended one is answered after it, in order. */
    @Test
    void pipelinedRequestWaitsForTheSuspendedAnswer() throws Exception {
        int port = start(c -> { });
        try (RawHttp raw = new RawHttp(port)) {
            raw.send("GET /poll HTTP/1.1\r\nHost: x\r\n\r\nGET /ping HTTP/1.1\r\nHost: x\r\n\r\n");
            SuspendedResponse s = waiting.poll(10, TimeUnit.SECONDS);
            assertTrue(raw.silentFor(200), "nothing before the suspended answer");
            s.send("first");
            assertEquals("first", raw.read().text());
            assertEquals("pong", raw.read().text());
        }
    }

    /** The deadline answers 503, or the handle's onTimeout action answers. */
    @Test
    void deadlineAnswers503OrTheTimeoutAction() throws Exception {
        int port = start(c -> { });
        try (RawHttp raw = new RawHttp(port)) {
            RawHttp.Response r = raw.send("GET /short HTTP/1.1\r\nHost: x\r\n\r\n").read();
            assertEquals(503, r.status());
            assertTrue(waiting.poll(1, TimeUnit.SECONDS).isDone());
            assertEquals(204, raw.send("GET /short204 HTTP/1.1\r\nHost: x\r\n\r\n").read().status());
            assertEquals("pong", raw.send("GET /ping HTTP/1.1\r\nHost: x\r\n\r\n").read().text());
        }
        assertEquals(2, counters().value("loom.suspended.timeouts"));
    }

    /** An onTimeout action that loses the race with an answer is no handler failure: the answer stands, logged at debug. */
    @Test
    void aTimeoutActionThatCameAfterTheAnswerIsNotAnError() throws Exception {
        int port = start(c -> { });
        try (LogCapture log = new LogCapture(); RawHttp raw = new RawHttp(port)) {
            assertEquals("answered first", raw.send("GET /raced HTTP/1.1\r\nHost: x\r\n\r\n").read().text());
            TestServers.waitFor("LM1606 logged", 5,
                    () -> !log.find(java.util.logging.Level.FINE, "LM1606").isEmpty());
            assertTrue(log.find(java.util.logging.Level.SEVERE, "LM1602").isEmpty(), "no ERROR for a lost race");
            assertEquals("pong", raw.send("GET /ping HTTP/1.1\r\nHost: x\r\n\r\n").read().text());
        }
    }

    /**
     * A deadline that passes inside a streamed body cuts it off: a client never takes it for whole.
     * The body must begin within the 200 ms deadline; where a busy machine stalls the test that
     * long, the deadline answers 503 first and the write fails, and the test tries again.
     */
    @Test
    void deadlineInsideAStreamedBodyCutsItOff() throws Exception {
        int port = start(c -> { });
        for (int attempt = 1; ; attempt++) {
            try (RawHttp raw = new RawHttp(port)) {
                raw.send("GET /short HTTP/1.1\r\nHost: x\r\n\r\n");
                SuspendedResponse s = waiting.poll(10, TimeUnit.SECONDS);
                boolean begun;
                try {
                    begun = s.write("partial".getBytes(StandardCharsets.UTF_8));
                } catch (IOException lateAlready) {
                    begun = false;
                }
                if (begun) {
                    RawHttp.Response head = raw.readHead();
                    assertEquals(200, head.status());
                    assertEquals("chunked", head.header("Transfer-Encoding"));
                    assertEquals("partial", raw.readChunk());
                    assertCutOff(raw);
                    s.ended().get(10, TimeUnit.SECONDS);
                    return;
                }
                assertEquals(503, raw.read().status(), "the deadline came first");
                assertTrue(attempt < 10, "the body never began within the deadline in 10 attempts");
            }
        }
    }

    /** Sends GET {@code path}, streams "partial" through its suspension, reads the chunked head and that piece. */
    private SuspendedResponse streamPartial(RawHttp raw, String path) throws Exception {
        raw.send("GET " + path + " HTTP/1.1\r\nHost: x\r\n\r\n");
        SuspendedResponse s = waiting.poll(10, TimeUnit.SECONDS);
        assertTrue(s.write("partial".getBytes(StandardCharsets.UTF_8)));
        RawHttp.Response head = raw.readHead();
        assertEquals(200, head.status());
        assertEquals("chunked", head.header("Transfer-Encoding"));
        assertEquals("partial", raw.readChunk());
        return s;
    }

    /** The connection closes inside the chunked body: no last chunk, so the body cannot pass for whole. */
    private static void assertCutOff(RawHttp raw) {
        IOException cut = assertThrows(IOException.class, raw::readChunk);
        assertTrue(cut.getMessage().contains("closed inside a chunked body"), cut.getMessage());
    }

    /** A graceful stop answers suspended exchanges 503 before GracefulShutdownTimeout ends. */
    @Test
    void gracefulStopAnswers503() throws Exception {
        int port = start(c -> c.gracefulShutdownTimeout(Duration.ofSeconds(2)));
        List<RawHttp> clients = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            clients.add(new RawHttp(port).send("GET /poll HTTP/1.1\r\nHost: x\r\n\r\n"));
        }
        TestServers.waitFor("suspended", 10, () -> waiting.size() == 5);
        FutureTask<Void> stopper = new FutureTask<>(() -> server.stop(Duration.ofSeconds(2)), null);
        Thread.ofPlatform().start(stopper);
        for (RawHttp raw : clients) {
            RawHttp.Response r = raw.read();
            assertEquals(503, r.status());
            assertEquals("close", r.header("Connection"));
            assertTrue(raw.closedByServer());
            raw.close();
        }
        stopper.get(10, TimeUnit.SECONDS);
        server = null;
    }

    /** A client that does not read fills the queue: write reports it, whenWritable completes once it reads. */
    @Test
    void fullQueueIsReported() throws Exception {
        int port = start(c -> c.streaming(StreamingSettings.DEFAULTS.withOutboundQueueLimit(4096)));
        try (Socket socket = new Socket()) {
            socket.setReceiveBufferSize(4096);
            socket.connect(new InetSocketAddress("127.0.0.1", port));
            RawHttp raw = new RawHttp(socket, 10_000);
            raw.send("GET /poll HTTP/1.1\r\nHost: x\r\n\r\n");
            SuspendedResponse s = waiting.poll(10, TimeUnit.SECONDS);
            byte[] piece = new byte[1000];
            int queued = 0;
            while (s.write(piece)) {
                queued++;
                assertTrue(queued < 100_000, "the queue never reported full");
            }
            // Done already if the poller drained to half the budget meanwhile; else once the client reads.
            CompletableFuture<Void> room = s.whenWritable();
            RawHttp.Response head = raw.readHead();
            assertEquals(200, head.status());
            for (int i = 0; i < queued; i++) {
                assertEquals(1000, raw.readChunk().length());
            }
            room.get(10, TimeUnit.SECONDS);
            s.complete();
            assertEquals(null, raw.readChunk());
        }
    }

    /** header() replaces a field, addHeader() keeps the earlier ones (two Set-Cookie lines reach the client). */
    @Test
    void addHeaderKeepsRepeatedFields() throws Exception {
        int port = start(c -> { });
        HttpClient client = HttpClient.newHttpClient();
        CompletableFuture<HttpResponse<String>> answer = client.sendAsync(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/poll")).build(),
                HttpResponse.BodyHandlers.ofString());
        SuspendedResponse s = waiting.poll(10, TimeUnit.SECONDS);
        s.header("X-One", "first").header("X-One", "replaced")
                .addHeader("Set-Cookie", "a=1").addHeader("Set-Cookie", "b=2").send("done");
        HttpResponse<String> r = answer.get(10, TimeUnit.SECONDS);
        assertEquals("done", r.body());
        assertEquals(List.of("a=1", "b=2"), r.headers().allValues("set-cookie"));
        assertEquals(List.of("replaced"), r.headers().allValues("x-one"));
    }

    /**
     * abort() after a streamed piece: the client gets the piece, then the connection closes
     * without the last chunk, so the body cannot pass for whole; the exchange ends unanswered.
     * Before anything was sent: the connection just closes.
     */
    @Test
    void abortCutsTheStreamedBodyOff() throws Exception {
        int port = start(c -> { });
        try (RawHttp raw = new RawHttp(port)) {
            SuspendedResponse s = streamPartial(raw, "/poll");
            s.abort();
            assertCutOff(raw);
            s.ended().get(10, TimeUnit.SECONDS);
            assertThrows(IOException.class, () -> s.write("late".getBytes(StandardCharsets.UTF_8)));
            s.abort(); // once ended, nothing more
        }
        try (RawHttp raw = new RawHttp(port)) {
            raw.send("GET /poll HTTP/1.1\r\nHost: x\r\n\r\n");
            SuspendedResponse s = waiting.poll(10, TimeUnit.SECONDS);
            s.abort();
            assertTrue(raw.closedByServer(), "no answer, the connection closed");
        }
        TestServers.waitFor("gone", 10, () -> counters().value("loom.suspended.exchanges") == 0);
        TestServers.waitFor("closed", 10, () -> child().openConnections() == 0);
    }

    /** A client that goes away ends the exchange: ended() completes and sends fail. */
    @Test
    void clientGoneEndsTheExchange() throws Exception {
        int port = start(c -> { });
        SuspendedResponse s;
        try (RawHttp raw = new RawHttp(port)) {
            raw.send("GET /poll HTTP/1.1\r\nHost: x\r\n\r\n");
            s = waiting.poll(10, TimeUnit.SECONDS);
        }
        s.ended().get(10, TimeUnit.SECONDS);
        assertTrue(s.isDone());
        assertThrows(IOException.class, () -> s.send("late"));
        TestServers.waitFor("gone", 10, () -> counters().value("loom.suspended.exchanges") == 0);
        TestServers.waitFor("closed", 10, () -> child().openConnections() == 0);
    }

    /**
     * A Content-Length set before streaming that the pieces fall short of: complete() must not
     * leave the connection reusable, or the client reads the next response (here the pipelined
     * one's) as the rest of the body. The connection closes after the 3 bytes instead.
     */
    @Test
    void bodyShortOfItsContentLengthClosesTheConnection() throws Exception {
        int port = start(c -> { });
        try (RawHttp raw = new RawHttp(port)) {
            raw.send("GET /length10 HTTP/1.1\r\nHost: x\r\n\r\nGET /ping HTTP/1.1\r\nHost: x\r\n\r\n");
            SuspendedResponse s = waiting.poll(10, TimeUnit.SECONDS);
            assertTrue(s.write("abc".getBytes(StandardCharsets.US_ASCII)));
            s.complete();
            RawHttp.Response head = raw.readHead();
            assertEquals("10", head.header("Content-Length"));
            assertEquals("abc", new String(raw.readBytes(10), StandardCharsets.US_ASCII),
                    "the connection ends after the 3 bytes: nothing of the next response is read as the body");
        }
    }

    /**
     * A piece beyond a Content-Length set before streaming is refused, nothing of it queued: the
     * excess would be read as the next response. The body can still end as announced, and the
     * pipelined request is then answered on the same connection.
     */
    @Test
    void bodyBeyondItsContentLengthIsRefused() throws Exception {
        int port = start(c -> { });
        try (RawHttp raw = new RawHttp(port)) {
            raw.send("GET /length10 HTTP/1.1\r\nHost: x\r\n\r\nGET /ping HTTP/1.1\r\nHost: x\r\n\r\n");
            SuspendedResponse s = waiting.poll(10, TimeUnit.SECONDS);
            assertTrue(s.write("0123456".getBytes(StandardCharsets.US_ASCII)));
            IOException e = assertThrows(IOException.class, () -> s.write("789XYZ".getBytes(StandardCharsets.US_ASCII)));
            assertTrue(e.getMessage().contains("Content-Length"), e.getMessage());
            assertTrue(s.write("789".getBytes(StandardCharsets.US_ASCII)));
            s.complete();
            assertEquals("0123456789", raw.read().text());
            assertEquals("pong", raw.read().text());
        }
    }
}
