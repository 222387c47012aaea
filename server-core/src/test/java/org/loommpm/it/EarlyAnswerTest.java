package org.loommpm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.loommpm.server.LoomServer;
import org.loommpm.testsupport.RawHttp;
import org.loommpm.testsupport.TestServers;

/**
 * An answer a handler gives without reading the request body (a 401, 405 or 413 before the
 * upload, issue 51 item 5) reaches a client that sent part of the body and waits for it: the
 * server sends it at once with {@code Connection: close} and then closes (lingering), instead of
 * first discarding up to 256 KiB of a body that is not coming. A body already received whole is
 * still dropped and the connection kept.
 */
class EarlyAnswerTest {
    private static final int TEN_MB = 10 * 1024 * 1024;
    private static LoomServer server;

    @BeforeAll
    static void start() throws Exception {
        server = TestServers.start((req, res) -> {
            switch (req.path()) {
                case "/too-large" -> res.status(413).send("too large\n");
                case "/login" -> res.status(401).header("WWW-Authenticate", "Basic realm=\"x\"").send("who?\n");
                case "/later" -> {
                    var later = res.suspend();
                    Thread.ofVirtual().start(() -> {
                        try {
                            later.status(405).send("no uploads here\n");
                        } catch (java.io.IOException e) {
                            later.abort();
                        }
                    });
                }
                default -> res.send("ok " + req.path());
            }
        });
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    /**
     * Sends {@code head} with the first 1,000 bytes of its body in one write, then reads the
     * answer within 1 s of the send.
     */
    private static RawHttp.Response answerWithinASecond(RawHttp c, String head) throws Exception {
        byte[] request = Arrays.copyOf(head.getBytes(StandardCharsets.ISO_8859_1), head.length() + 1000);
        Arrays.fill(request, head.length(), request.length, (byte) 'u');
        long deadline = System.nanoTime() + 1_000_000_000L;
        c.send(request);
        RawHttp.Response r = c.read(); // the socket's timeout is the 1 s: no answer fails here
        assertTrue(System.nanoTime() - deadline < 0, "the answer took more than 1 s");
        return r;
    }

    @ParameterizedTest
    @ValueSource(strings = {"/too-large", "/login", "/later"})
    void aPartialUploadGetsTheAnswerAtOnceAndTheConnectionCloses(String path) throws Exception {
        try (RawHttp c = new RawHttp(server.port(), 1000)) {
            RawHttp.Response r = answerWithinASecond(c,
                    "POST " + path + " HTTP/1.1\r\nHost: x\r\nContent-Length: " + TEN_MB + "\r\n\r\n");
            assertEquals(path.equals("/too-large") ? 413 : path.equals("/login") ? 401 : 405, r.status());
            assertEquals("close", r.header("Connection"), "the server will not wait for the rest");
            assertTrue(c.closedByServer(), "the connection ends after the answer");
        }
    }

    @Test
    void aPartialChunkedUploadGetsTheAnswerAtOnceToo() throws Exception {
        try (RawHttp c = new RawHttp(server.port(), 1000)) {
            RawHttp.Response r = answerWithinASecond(c,
                    "POST /login HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" + "100000\r\n");
            assertEquals(401, r.status());
            assertEquals("close", r.header("Connection"));
            assertTrue(c.closedByServer());
        }
    }

    @Test
    void aBodyAlreadyReceivedWholeIsDroppedAndTheConnectionKept() throws Exception {
        try (RawHttp c = new RawHttp(server.port(), 5000)) {
            c.send("POST /login HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello"
                    + "POST /too-large HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"
                    + "GET /next HTTP/1.1\r\nHost: x\r\n\r\n");
            RawHttp.Response first = c.read();
            assertEquals(401, first.status());
            assertNull(first.header("Connection"));
            RawHttp.Response second = c.read();
            assertEquals(413, second.status());
            assertNull(second.header("Connection"));
            assertEquals("ok /next", c.read().text());
        }
    }
}
