package org.loommpm.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.logging.Level;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.loommpm.server.LoomServer;
import org.loommpm.testsupport.LogCapture;
import org.loommpm.testsupport.RawHttp;
import org.loommpm.testsupport.TestServers;

/**
 * What a strict HTTP/1.1 server answers at once and closes, where a lenient one waits or guesses
 * (issue #21): a request line without a version (HTTP/0.9), chunked framing lines ended by a bare
 * LF, a TLS ClientHello on a cleartext port; and {@code OPTIONS *}, which is valid and answered
 * by the server itself. Every connection is gone afterwards (the open count returns to 0).
 */
class StrictnessTest {
    private static final String HOST = "Host: x\r\n";
    /** Well below the header timeout (RequestReadTimeout, set long here): an answer "at once". */
    private static final int PROMPT_MS = 1500;

    private static final Queue<String> seen = new ConcurrentLinkedQueue<>();
    private static LoomServer server;

    @BeforeAll
    static void start() throws Exception {
        server = TestServers.start((req, res) -> {
            seen.add(req.method() + " " + req.path());
            res.send(req.method().equals("POST") ? "len=" + req.bodyBytes().length : "ok");
        }, c -> c.requestHeaderTimeout(Duration.ofSeconds(10)));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @AfterEach
    void noConnectionLeft() throws InterruptedException {
        TestServers.waitFor("no open connection", 5, () -> server.stats().connectionsOpen() == 0);
    }

    static Stream<Arguments> withoutVersion() {
        return Stream.of(
                Arguments.of("GET / with CRLF", "GET /\r\n"),
                Arguments.of("GET / with a bare LF", "GET /\n"),
                Arguments.of("a target with a space after it", "GET /index.html \r\n"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("withoutVersion")
    void aRequestLineWithoutAVersionIsRejectedAtOnce(String name, String line) throws Exception {
        try (LogCapture logs = new LogCapture(); RawHttp c = new RawHttp(server.port(), PROMPT_MS)) {
            c.send(line);
            RawHttp.Response r = c.read();
            assertEquals(400, r.status());
            assertEquals("close", r.header("Connection"));
            assertTrue(c.closedByServer(), "closed after the 400");
            assertFalse(logs.find(Level.FINE, "LM0403").isEmpty(), "LM0403 logged");
        }
    }

    @Test
    void optionsAsteriskIsAnsweredByTheServer() throws Exception {
        seen.clear();
        try (RawHttp c = new RawHttp(server.port())) {
            c.send("OPTIONS * HTTP/1.1\r\n" + HOST + "\r\n");
            RawHttp.Response r = c.read();
            assertEquals(200, r.status());
            assertEquals("GET, HEAD, POST, PUT, DELETE, PATCH, OPTIONS", r.header("Allow"));
            assertEquals("0", r.header("Content-Length"));
            assertEquals(0, r.body().length);
            // A valid request: the connection stays open and in sync.
            c.send("GET /next HTTP/1.1\r\n" + HOST + "Connection: close\r\n\r\n");
            assertEquals("ok", c.read().text());
        }
        assertEquals("[GET /next]", seen.toString(), "the handler never sees OPTIONS *");
    }

    static Stream<Arguments> bareLfInChunkedFraming() {
        return Stream.of(
                Arguments.of("chunk-size line", "5\nhello\r\n0\r\n\r\n"),
                Arguments.of("chunk-size line with an extension", "5;a=b\nhello\r\n0\r\n\r\n"),
                Arguments.of("after chunk data", "5\r\nhello\n0\r\n\r\n"),
                Arguments.of("last-chunk line", "5\r\nhello\r\n0\n\r\n"),
                Arguments.of("trailer field line", "5\r\nhello\r\n0\r\nX-T: 1\n\r\n"),
                Arguments.of("empty line ending the trailer section", "5\r\nhello\r\n0\r\nX-T: 1\r\n\n"),
                Arguments.of("empty line ending the body", "5\r\nhello\r\n0\r\n\n"));
    }

    @ParameterizedTest(name = "bare LF ending the {0}")
    @MethodSource("bareLfInChunkedFraming")
    void aBareLfInChunkedFramingIsA400(String name, String body) throws Exception {
        try (RawHttp c = new RawHttp(server.port(), PROMPT_MS)) {
            c.send("POST /c HTTP/1.1\r\n" + HOST + "Transfer-Encoding: chunked\r\n\r\n" + body);
            RawHttp.Response r = c.read();
            assertEquals(400, r.status(), name);
            assertEquals("close", r.header("Connection"), name);
            assertTrue(c.closedByServer(), name + ": closed after the 400");
        }
    }

    @Test
    void aTlsClientHelloOnACleartextPortGetsAnAlertAtOnce() throws Exception {
        SSLEngine engine = SSLContext.getDefault().createSSLEngine("localhost", server.port());
        engine.setUseClientMode(true);
        ByteBuffer hello = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
        engine.wrap(ByteBuffer.allocate(0), hello);
        hello.flip();
        byte[] record = Arrays.copyOf(hello.array(), hello.limit());
        assertEquals(0x16, record[0], "a handshake record");
        try (LogCapture logs = new LogCapture(); RawHttp c = new RawHttp(server.port(), PROMPT_MS)) {
            c.send(record);
            // A fatal unexpected_message alert in a TLS record, then the close.
            assertArrayEquals(new byte[] {0x15, 0x03, 0x01, 0x00, 0x02, 0x02, 0x0a}, c.readBytes(7));
            assertTrue(c.closedByServer(), "closed after the alert");
            assertEquals(1, logs.find(Level.INFO, "LM0408").size(), "LM0408 logged once");
        }
    }
}
