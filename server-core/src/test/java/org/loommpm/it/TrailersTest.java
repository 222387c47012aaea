package org.loommpm.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.api.Headers;
import org.loommpm.api.Router;
import org.loommpm.server.LoomServer;
import org.loommpm.testsupport.RawHttp;
import org.loommpm.testsupport.TestServers;

/**
 * Trailer fields on HTTP/1.1, byte for byte with a raw socket: a chunked request's trailers reach
 * the handler once its body is read (the ones no trailer may carry dropped, the field limits
 * applied), and a response's trailers follow its last chunk whatever way the body was sent
 * ({@code send}, a small or a large streamed body, {@code sendFile}, nothing at all), never to an
 * HTTP/1.0 client nor on a HEAD answer, and a bad trailer ends the response as a failure.
 */
class TrailersTest {
    private static final int LARGE = 100_000;
    private static final byte[] LARGE_BODY = new byte[LARGE];

    @TempDir
    static Path dir;
    private static Path file;
    private static LoomServer server;
    private static final AtomicInteger supplierCalls = new AtomicInteger();

    @BeforeAll
    static void start() throws Exception {
        for (int i = 0; i < LARGE; i++) {
            LARGE_BODY[i] = (byte) ('a' + i % 26);
        }
        file = dir.resolve("file.txt");
        Files.write(file, LARGE_BODY);
        Router router = new Router()
                .post("/echo-trailers", (req, res) -> {
                    String before = req.trailers().toString();
                    byte[] body = req.bodyBytes();
                    res.send("before=[" + before + "] body=" + new String(body, StandardCharsets.US_ASCII)
                            + " after=[" + req.trailers().toString().trim().replace('\n', '|') + "]");
                })
                .get("/send", (req, res) -> {
                    byte[] body = "hello".getBytes(StandardCharsets.US_ASCII);
                    res.header("Trailer", "X-Sha256").trailers(() -> sha(body)).send(body);
                })
                .get("/declared", (req, res) -> {
                    // A Content-Length the handler set is not sent with trailers, but still binds the body.
                    res.header("Content-Length", "5").trailers(() -> new Headers().add("X-Done", "yes")).send("hello");
                })
                .get("/large", (req, res) -> {
                    MessageDigest md = MessageDigest.getInstance("SHA-256");
                    res.trailers(() -> new Headers().add("X-Sha256", HexFormat.of().formatHex(md.digest())));
                    try (OutputStream out = res.outputStream()) {
                        for (int off = 0; off < LARGE; off += 1000) {
                            out.write(LARGE_BODY, off, 1000);
                            md.update(LARGE_BODY, off, 1000);
                        }
                    }
                })
                .get("/file", (req, res) -> {
                    res.trailers(() -> new Headers().add("X-File", "sent")).sendFile(file);
                })
                .get("/range", (req, res) -> {
                    res.trailers(() -> new Headers().add("X-File", "range")).sendFile(file, 26, 10);
                })
                .get("/empty", (req, res) -> res.trailers(() -> new Headers().add("X-Empty", "1")))
                .get("/counted", (req, res) -> {
                    res.trailers(() -> {
                        supplierCalls.incrementAndGet();
                        return new Headers().add("X-Counted", "1");
                    }).send("body");
                })
                .get("/bad-small", (req, res) -> {
                    res.trailers(() -> new Headers().add("Content-Length", "1")).send("small");
                })
                .get("/bad-send", (req, res) -> {
                    res.trailers(() -> new Headers().add("Host", "x")).send(LARGE_BODY);
                })
                .get("/bad-large", (req, res) -> {
                    res.trailers(() -> new Headers().add("X-Bad", "a\r\nInjected: 1"));
                    try (OutputStream out = res.outputStream()) {
                        out.write(LARGE_BODY);
                    }
                })
                .get("/suspend", (req, res) -> {
                    res.trailers(() -> new Headers());
                    try {
                        res.suspend();
                        res.send("suspended");
                    } catch (IllegalStateException e) {
                        res.send("refused: " + e.getMessage());
                    }
                });
        server = TestServers.start(router);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static Headers sha(byte[] body) {
        try {
            return new Headers().add("X-Sha256",
                    HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body)));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String sha256(byte[] body) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(body));
    }

    @Test
    void requestTrailersReachTheHandlerOnceTheBodyIsRead() throws Exception {
        try (RawHttp c = new RawHttp(server.port())) {
            RawHttp.Response r = c.send("POST /echo-trailers HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
                    + "Trailer: X-Checksum\r\n\r\n5\r\nhello\r\n0\r\nX-Checksum: abc\r\nContent-Type: evil/x\r\n"
                    + "Host: elsewhere\r\nX-Other:  v \r\n\r\n").read();
            assertEquals(200, r.status());
            // Before the body's end: nothing; after: the allowed fields in order, the others dropped.
            assertEquals("before=[] body=hello after=[X-Checksum: abc|X-Other: v]", r.text());
            // The connection goes on: the trailer section ended the request where it should.
            r = c.send("POST /echo-trailers HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhi").read();
            assertEquals("before=[] body=hi after=[]", r.text());
        }
    }

    @Test
    void tooManyRequestTrailerFieldsAre431() throws Exception {
        StringBuilder fields = new StringBuilder();
        for (int i = 0; i < 101; i++) {
            fields.append("X-F").append(i).append(": v\r\n");
        }
        try (RawHttp c = new RawHttp(server.port())) {
            RawHttp.Response r = c.send("POST /echo-trailers HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "1\r\na\r\n0\r\n" + fields + "\r\n").read();
            assertEquals(431, r.status());
        }
    }

    @Test
    void sendForcesChunkedAndEndsWithTheTrailers() throws Exception {
        try (RawHttp c = new RawHttp(server.port())) {
            RawHttp.Response r = c.send("GET /send HTTP/1.1\r\nHost: x\r\n\r\n").read();
            assertEquals("chunked", r.header("transfer-encoding"));
            assertNull(r.header("content-length"));
            assertEquals("X-Sha256", r.header("trailer"));
            assertEquals("hello", r.text());
            assertEquals(Map.of("x-sha256", sha256("hello".getBytes(StandardCharsets.US_ASCII))), c.trailers());
            // Keep-alive: the next response on the same connection is whole.
            r = c.send("GET /declared HTTP/1.1\r\nHost: x\r\n\r\n").read();
            assertEquals("chunked", r.header("transfer-encoding"));
            assertNull(r.header("content-length"));
            assertEquals("hello", r.text());
            assertEquals(Map.of("x-done", "yes"), c.trailers());
        }
    }

    @Test
    void theWireFormatIsTheLastChunkThenTheFields() throws Exception {
        try (RawHttp c = new RawHttp(server.port())) {
            c.send("GET /empty HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            String raw = new String(c.socket().getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            assertTrue(raw.endsWith("\r\n\r\n0\r\nX-Empty: 1\r\n\r\n"), raw);
            assertTrue(raw.contains("\r\nTransfer-Encoding: chunked\r\n"), raw);
        }
    }

    @Test
    void aLargeStreamedBodyAndFilesCarryTrailers() throws Exception {
        try (RawHttp c = new RawHttp(server.port())) {
            RawHttp.Response r = c.send("GET /large HTTP/1.1\r\nHost: x\r\n\r\n").read();
            assertArrayEquals(LARGE_BODY, r.body());
            assertEquals(Map.of("x-sha256", sha256(LARGE_BODY)), c.trailers());
            r = c.send("GET /file HTTP/1.1\r\nHost: x\r\n\r\n").read();
            assertEquals("chunked", r.header("transfer-encoding"));
            assertArrayEquals(LARGE_BODY, r.body());
            assertEquals(Map.of("x-file", "sent"), c.trailers());
            r = c.send("GET /range HTTP/1.1\r\nHost: x\r\n\r\n").read();
            assertEquals("abcdefghij", r.text());
            assertEquals(Map.of("x-file", "range"), c.trailers());
        }
    }

    @Test
    void noTrailersForHttp10NorHead() throws Exception {
        int before = supplierCalls.get();
        try (RawHttp c = new RawHttp(server.port())) {
            RawHttp.Response r = c.send("GET /counted HTTP/1.0\r\n\r\n").read();
            assertEquals("4", r.header("content-length"));
            assertNull(r.header("transfer-encoding"));
            assertEquals("body", r.text());
        }
        try (RawHttp c = new RawHttp(server.port())) {
            RawHttp.Response r = c.send("HEAD /counted HTTP/1.1\r\nHost: x\r\n\r\n").readHead();
            assertEquals(200, r.status());
            // The next answer proves the HEAD answer had no body nor trailer section.
            r = c.send("GET /counted HTTP/1.1\r\nHost: x\r\n\r\n").read();
            assertEquals("body", r.text());
            assertEquals(Map.of("x-counted", "1"), c.trailers());
        }
        assertEquals(before + 1, supplierCalls.get(), "called for the GET over HTTP/1.1 alone");
    }

    @Test
    void aForbiddenTrailerBeforeTheHeadIsOutIsA500() throws Exception {
        try (RawHttp c = new RawHttp(server.port())) {
            RawHttp.Response r = c.send("GET /bad-small HTTP/1.1\r\nHost: x\r\n\r\n").read();
            assertEquals(500, r.status());
            assertTrue(c.trailers().isEmpty());
        }
        try (RawHttp c = new RawHttp(server.port())) {
            // send(byte[]) knows the whole body: the fields are asked for before any of it goes out.
            RawHttp.Response r = c.send("GET /bad-send HTTP/1.1\r\nHost: x\r\n\r\n").read();
            assertEquals(500, r.status());
        }
    }

    @Test
    void aBadTrailerAfterTheBodyCutsTheResponseOff() throws Exception {
        try (RawHttp c = new RawHttp(server.port())) {
            c.send("GET /bad-large HTTP/1.1\r\nHost: x\r\n\r\n");
            String raw = new String(c.socket().getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            assertTrue(raw.startsWith("HTTP/1.1 200 "), raw.substring(0, 40));
            assertFalse(raw.endsWith("0\r\n\r\n"), "no last chunk: the client sees an incomplete body");
            assertFalse(raw.contains("Injected"));
        }
    }

    @Test
    void aResponseWithTrailersCannotBeSuspended() throws Exception {
        try (RawHttp c = new RawHttp(server.port())) {
            RawHttp.Response r = c.send("GET /suspend HTTP/1.1\r\nHost: x\r\n\r\n").read();
            assertEquals("refused: a response with trailers cannot be suspended", r.text());
        }
    }
}
