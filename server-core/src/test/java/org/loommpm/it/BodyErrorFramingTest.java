package org.loommpm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.logging.Level;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.loommpm.api.HttpException;
import org.loommpm.api.SuspendedResponse;
import org.loommpm.server.LoomServer;
import org.loommpm.testsupport.LogCapture;
import org.loommpm.testsupport.RawHttp;
import org.loommpm.testsupport.TestServers;

/**
 * A handler that catches the error its body read threw (a malformed chunked body, one over
 * LimitRequestBody) and answers itself: the body's end is then unknown, so the connection must
 * close after that answer. Skipping "the rest" of such a body would go on parsing from wherever
 * the decoder stopped, and could read chunk data as framing and serve a request hidden in it
 * (request smuggling).
 */
class BodyErrorFramingTest {
    private static final int BODY_LIMIT = 1000;
    private static final String HOST = "Host: x\r\n";
    private static final String SMUGGLED = "GET /smuggled HTTP/1.1\r\n" + HOST + "\r\n";

    private static final Queue<String> seen = new ConcurrentLinkedQueue<>();
    private static LoomServer server;

    @BeforeAll
    static void start() throws Exception {
        server = TestServers.start((req, res) -> {
            seen.add(req.method() + " " + req.path());
            if (req.path().equals("/ignore")) {
                res.send("ignored"); // never reads the body: the server skips it
                return;
            }
            if (req.path().equals("/later")) {
                SuspendedResponse later = res.suspend(); // nor does this one, answered from another thread
                Thread.ofVirtual().start(() -> {
                    try {
                        later.send("answered later");
                    } catch (java.io.IOException e) {
                        later.abort();
                    }
                });
                return;
            }
            try {
                res.send("len=" + req.bodyBytes().length);
            } catch (HttpException e) {
                res.status(e.status()).send("caught " + e.status());
            }
        }, c -> c.limitRequestBody(BODY_LIMIT));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @BeforeEach
    void clear() {
        seen.clear();
    }

    static Stream<Arguments> brokenBodies() {
        return Stream.of(
                // A proxy sees one chunk of 0x3e9 bytes that holds a last-chunk and a request.
                Arguments.of("chunk over LimitRequestBody whose data looks like framing",
                        "3e9\r\n0\r\n\r\n" + SMUGGLED + "a".repeat(0x3e9 - 5 - SMUGGLED.length()) + "\r\n0\r\n\r\n",
                        413),
                // The stray byte after the chunk data must not be skipped on a second try.
                Arguments.of("chunk data followed by a byte, then a CRLF",
                        "1\r\nAZ\r\n0\r\n\r\n" + SMUGGLED, 400),
                Arguments.of("malformed chunk size, then a last chunk",
                        "z\r\n0\r\n\r\n" + SMUGGLED, 400));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("brokenBodies")
    void aBodyErrorTheHandlerCaughtStillClosesTheConnection(String name, String body, int status) throws Exception {
        try (RawHttp c = new RawHttp(server.port(), 3000)) {
            c.send("POST /p HTTP/1.1\r\n" + HOST + "Transfer-Encoding: chunked\r\n\r\n" + body);
            RawHttp.Response r = c.read();
            assertEquals(status, r.status(), name);
            assertEquals("caught " + status, r.text(), name);
            assertEquals("close", r.header("Connection"), name + ": the body's end is unknown");
            assertTrue(c.closedByServer(), name + ": no further request may be read from the connection");
        }
        assertFalse(seen.contains("GET /smuggled"), name + ": a request inside the body was served");
    }

    /**
     * A handler that never read a malformed body (a static file's 405 to a POST): the server finds
     * the error when it skips the body to keep the connection, answers 400 instead of the
     * handler's answer, which had not gone out (the body's bytes looked like a pipelined request,
     * so it waited in the batch), and closes. It once dropped that answer, logged LM0405 (ERROR,
     * "a bug") and closed without a word; an answer to an earlier pipelined request still goes
     * out first.
     */
    @Test
    void aMalformedBodyTheHandlerLeftUnreadIsAnswered400() throws Exception {
        try (LogCapture logs = new LogCapture(); RawHttp c = new RawHttp(server.port(), 3000)) {
            c.send("GET /ignore HTTP/1.1\r\n" + HOST + "\r\n"
                    + "POST /ignore HTTP/1.1\r\n" + HOST + "Transfer-Encoding: chunked\r\n\r\nzz\r\n");
            assertEquals("ignored", c.read().text(), "the pipelined request before it");
            RawHttp.Response r = c.read();
            assertEquals(400, r.status());
            assertEquals("close", r.header("Connection"));
            assertTrue(c.closedByServer());
            assertEquals(List.of(), logs.errors(), "a client's error, not the server's");
            assertEquals(1, logs.find(Level.FINE, "LM0406").size());
        }
    }

    /**
     * The same body behind a suspended exchange: the answer stays the handler's (another thread
     * gives it), and the connection closes after it. It was LM0405 (ERROR) and no answer.
     */
    @Test
    void aMalformedBodyASuspendedExchangeLeftUnreadClosesAfterItsAnswer() throws Exception {
        try (LogCapture logs = new LogCapture(); RawHttp c = new RawHttp(server.port(), 3000)) {
            c.send("POST /later HTTP/1.1\r\n" + HOST + "Transfer-Encoding: chunked\r\n\r\nzz\r\n");
            assertEquals("answered later", c.read().text());
            assertTrue(c.closedByServer());
            assertEquals(List.of(), logs.errors(), "a client's error, not the server's");
        }
    }

    /**
     * The body a server skips to keep a connection alive is bounded by the bytes it reads, not
     * only by the data they decode to: chunk extensions (each line up to 4 KiB) around 1-byte
     * chunks would otherwise make the server read ~4000 times the bound (CVE-2023-39326's
     * pattern), and keep reading for as long as the client sends.
     */
    @Test
    void skippingAChunkedBodyIsBoundedByTheBytesOnTheWire() throws Exception {
        String chunk = "1;x=" + "e".repeat(4000) + "\r\nA\r\n";
        String request = "POST /ignore HTTP/1.1\r\n" + HOST + "Transfer-Encoding: chunked\r\n\r\n"
                + chunk.repeat(100) + "0\r\n\r\n"; // 400 KB on the wire for 100 bytes of data
        try (RawHttp c = new RawHttp(server.port(), 3000)) {
            Thread sender = Thread.ofVirtual().start(() -> {
                try {
                    c.send(request);
                } catch (java.io.IOException e) {
                    // the server closed while the rest was on its way: expected
                }
            });
            RawHttp.Response r = c.read();
            assertEquals("ignored", r.text());
            assertTrue(c.closedByServer(), "a 400 KB body skipped to keep the connection alive");
            sender.join();
        }
    }
}
