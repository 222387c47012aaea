package org.loommpm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.loommpm.api.EventStream;
import org.loommpm.server.LoomServer;
import org.loommpm.api.Router;
import org.loommpm.api.ServerSentEvent;
import org.loommpm.config.StreamingSettings;
import org.loommpm.engine.ChildStats;
import org.loommpm.engine.EngineStats;
import org.loommpm.testsupport.Curl;
import org.loommpm.testsupport.RawHttp;
import org.loommpm.testsupport.TestServers;

/**
 * Server-Sent Events over HTTP/1.1 ({@code Response.eventStream()}) with a raw socket, curl
 * {@code -N} and the JDK HttpClient: the format (event, id, retry, multi-line data, comments),
 * {@code Last-Event-ID}, heartbeats, idle streams holding nothing, the end on close and on stop.
 */
class EventStreamTest {
    private LoomServer server;
    private final LinkedBlockingQueue<EventStream> streams = new LinkedBlockingQueue<>();

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(Duration.ofSeconds(5));
        }
    }

    private int start(java.util.function.Consumer<org.loommpm.config.ServerConfig.Builder> directives) throws IOException {
        Router router = new Router()
                .get("/events", (req, res) -> streams.add(res.eventStream()))
                .get("/ping", (req, res) -> res.send("pong"));
        server = TestServers.start(router, directives);
        return server.port();
    }

    private ChildStats child() {
        return EngineStats.of(server.stats()).children().get(0);
    }

    /** Every field of the format, multi-line data split on CR, LF and CRLF, comments, Last-Event-ID. */
    @Test
    void eventsInTheHtmlFormatOverChunks() throws Exception {
        int port = start(c -> c.streaming(StreamingSettings.DEFAULTS.withEventStreamHeartbeat(Duration.ZERO)));
        try (RawHttp raw = new RawHttp(port)) {
            RawHttp.Response head = raw.send("GET /events HTTP/1.1\r\nHost: x\r\nLast-Event-ID: 41\r\n\r\n").readHead();
            assertEquals(200, head.status());
            assertEquals("text/event-stream; charset=UTF-8", head.header("Content-Type"));
            assertEquals("no-cache", head.header("Cache-Control"));
            assertEquals("chunked", head.header("Transfer-Encoding"));
            EventStream es = streams.poll(10, TimeUnit.SECONDS);
            assertEquals("41", es.lastEventId());
            // Sent from another thread, as a FutureTask: get() rethrows what fails there.
            FutureTask<Void> sender = new FutureTask<>(() -> {
                assertTrue(es.send(ServerSentEvent.data("a\nb\r\nc\rd").id("42").name("tick").retry(Duration.ofSeconds(3))));
                assertTrue(es.send("plain"));
                assertTrue(es.comment("keep\nalive"));
                return null;
            });
            Thread.ofPlatform().start(sender);
            sender.get(10, TimeUnit.SECONDS);
            assertEquals("event: tick\nid: 42\nretry: 3000\ndata: a\ndata: b\ndata: c\ndata: d\n\n", raw.readChunk());
            assertEquals("data: plain\n\n", raw.readChunk());
            assertEquals(": keep\n: alive\n\n", raw.readChunk());
            es.close();
            assertNull(raw.readChunk(), "close ends the chunked body");
            assertFalse(es.isOpen());
            assertThrows(IOException.class, () -> es.send("late"));
            assertEquals("pong", raw.send("GET /ping HTTP/1.1\r\nHost: x\r\n\r\n").read().text(), "the connection goes on");
        }
        assertThrows(IllegalArgumentException.class, () -> ServerSentEvent.data("x").id("a\nid: forged"));
    }

    /** An idle stream gets a comment every EventStreamHeartbeat. */
    @Test
    void heartbeatCommentsKeepAnIdleStreamAlive() throws Exception {
        int port = start(c -> c.streaming(StreamingSettings.DEFAULTS.withEventStreamHeartbeat(Duration.ofMillis(200))));
        try (RawHttp raw = new RawHttp(port)) {
            raw.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n").readHead();
            assertEquals(":\n\n", raw.readChunk());
            assertEquals(":\n\n", raw.readChunk());
        }
    }

    /** Fifty open, idle streams hold no worker slot, no thread's work and no buffer. */
    @Test
    void idleStreamsHoldNothing() throws Exception {
        int port = start(c -> c.threadsPerChild(4));
        List<RawHttp> clients = new ArrayList<>();
        try {
            for (int i = 0; i < 50; i++) {
                RawHttp raw = new RawHttp(port);
                raw.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n").readHead();
                clients.add(raw);
            }
            TestServers.waitFor("idle", 10, () -> child().activeWorkers() == 0 && child().contextsHeld() == 0
                    && child().detachedConnections() == 50);
            assertEquals(50, EngineStats.of(server.stats()).protocols().value("loom.eventstreams.open"));
            // One thread broadcasts to every stream.
            for (EventStream es : streams) {
                assertTrue(es.send("hello"));
            }
            for (RawHttp raw : clients) {
                assertEquals("data: hello\n\n", raw.readChunk());
            }
        } finally {
            for (RawHttp raw : clients) {
                raw.close();
            }
        }
        TestServers.waitFor("closed", 10, () -> EngineStats.of(server.stats()).protocols().value("loom.eventstreams.open") == 0);
    }

    /** curl -N prints events as they come; the stream's end ends curl. */
    @Test
    void curlNoBuffer() throws Exception {
        assumeTrue(Curl.available(), "curl is not installed");
        int port = start(c -> { });
        FutureTask<Void> sender = new FutureTask<>(() -> {
            EventStream es = streams.poll(10, TimeUnit.SECONDS);
            for (int i = 1; i <= 3; i++) {
                assertTrue(es.send(ServerSentEvent.data("n=" + i).id(Integer.toString(i))));
            }
            es.close();
            return null;
        });
        Thread.ofPlatform().start(sender);
        Curl.Result r = Curl.run("-N", "--max-time", "20", "http://127.0.0.1:" + port + "/events");
        sender.get(10, TimeUnit.SECONDS);
        assertEquals(0, r.exitCode(), r.stderr());
        assertEquals("id: 1\ndata: n=1\n\nid: 2\ndata: n=2\n\nid: 3\ndata: n=3\n\n", r.text());
    }

    /** The JDK HttpClient reads the stream line by line while events are sent from another thread. */
    @Test
    void jdkHttpClientReadsLines() throws Exception {
        int port = start(c -> { });
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        HttpResponse<java.io.InputStream> res = client.send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + port + "/events")).build(),
                HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, res.statusCode());
        EventStream es = streams.poll(10, TimeUnit.SECONDS);
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(res.body(), StandardCharsets.UTF_8))) {
            for (int i = 0; i < 5; i++) {
                assertTrue(es.send("tick " + i));
                assertEquals("data: tick " + i, lines.readLine());
                assertEquals("", lines.readLine());
            }
            es.close();
            assertNull(lines.readLine());
        }
    }

    /**
     * Over TLS the poller does not write the queue itself: a short engine task on a worker
     * encrypts it. Events still arrive in order, and the stream's end too.
     */
    @Test
    void eventsOverTls(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        org.loommpm.testsupport.TestCertificates certs = org.loommpm.testsupport.TestCertificates.create(dir);
        int port = start(c -> c.tls(t -> t.engine(true).certificateFile(certs.chainPem).keyFile(certs.pkcs8Key)));
        javax.net.ssl.SSLContext tls = org.loommpm.testsupport.TestCertificates.clientContext(certs.chainPem);
        try (RawHttp raw = new RawHttp(tls.getSocketFactory().createSocket("127.0.0.1", port), 10_000)) {
            assertEquals(200, raw.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n").readHead().status());
            EventStream es = streams.poll(10, TimeUnit.SECONDS);
            FutureTask<Void> sender = new FutureTask<>(() -> {
                for (int i = 0; i < 100; i++) {
                    while (!es.send(ServerSentEvent.data("n" + i).id(Integer.toString(i)))) {
                        es.whenWritable().get(10, TimeUnit.SECONDS);
                    }
                }
                es.close();
                return null;
            });
            Thread.ofPlatform().start(sender);
            for (int i = 0; i < 100; i++) {
                assertEquals("id: " + i + "\ndata: n" + i + "\n\n", raw.readChunk());
            }
            assertNull(raw.readChunk());
            sender.get(10, TimeUnit.SECONDS);
            assertEquals("pong", raw.send("GET /ping HTTP/1.1\r\nHost: x\r\n\r\n").read().text());
        }
    }

    /** A graceful stop ends event streams at once (the client reconnects elsewhere), not after GracefulShutdownTimeout. */
    @Test
    void gracefulStopEndsStreamsAtOnce() throws Exception {
        int port = start(c -> c.gracefulShutdownTimeout(Duration.ofSeconds(30)));
        RawHttp raw = new RawHttp(port);
        raw.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n").readHead();
        EventStream es = streams.poll(10, TimeUnit.SECONDS);
        Thread stopper = Thread.ofPlatform().start(() -> server.stop(Duration.ofSeconds(30)));
        assertNull(raw.readChunk(), "the body ends (within the client's 10 s read timeout, not after 30 s)");
        assertTrue(raw.closedByServer());
        stopper.join(20_000);
        assertFalse(stopper.isAlive());
        assertTrue(es.closed().isDone());
        raw.close();
        server = null;
    }

    /**
     * HEAD on an event stream: the head is the whole answer, so the stream ends with it. Left
     * open (no deadline, heartbeats discarded) it held the connection: the client's next request
     * was never answered and the stream was never counted out.
     */
    @Test
    void headRequestEndsWithTheHead() throws Exception {
        int port = start(c -> { });
        try (RawHttp raw = new RawHttp(port)) {
            RawHttp.Response head = raw.send("HEAD /events HTTP/1.1\r\nHost: x\r\n\r\n").readHead();
            assertEquals(200, head.status());
            assertEquals("text/event-stream; charset=UTF-8", head.header("Content-Type"));
            EventStream es = streams.poll(10, TimeUnit.SECONDS);
            assertFalse(es.isOpen());
            assertTrue(es.closed().isDone());
            assertThrows(IOException.class, () -> es.send("late"));
            assertEquals("pong", raw.send("GET /ping HTTP/1.1\r\nHost: x\r\n\r\n").read().text());
        }
        TestServers.waitFor("counted out", 10,
                () -> EngineStats.of(server.stats()).protocols().value("loom.eventstreams.open") == 0);
    }
}
