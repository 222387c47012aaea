package org.loommpm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.zip.CRC32;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.loommpm.api.HttpException;
import org.loommpm.server.LoomServer;
import org.loommpm.api.Router;
import org.loommpm.testsupport.Curl;
import org.loommpm.testsupport.RawHttp;
import org.loommpm.testsupport.TestServers;

/**
 * {@code Expect: 100-continue}: the interim response is sent when the handler starts reading the
 * body, never when it answers without reading; then the client has not sent the body, so the
 * connection closes, announced in the final response.
 */
class ExpectContinueTest {
    private static LoomServer server;

    @BeforeAll
    static void start() throws Exception {
        Router router = new Router()
                .post("/echo", (req, res) -> res.send(req.bodyBytes()))
                .post("/crc", (req, res) -> {
                    byte[] body = req.bodyBytes();
                    CRC32 crc = new CRC32();
                    crc.update(body);
                    res.send("expect=" + req.header("Expect") + " len=" + body.length + " crc=" + crc.getValue());
                })
                .post("/deny413", (req, res) -> res.send(413, "too large, not reading it"))
                .post("/deny401", (req, res) -> {
                    res.header("WWW-Authenticate", "Basic realm=\"x\"");
                    res.send(401, "log in first");
                })
                .post("/throw413", (req, res) -> {
                    throw new HttpException(413, "refused before reading");
                });
        server = TestServers.start(router);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void continueThenBodyThenResponse() throws Exception {
        try (RawHttp c = new RawHttp(server.port())) {
            c.send("POST /echo HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 11\r\n\r\n");
            RawHttp.Response interim = c.read();
            assertEquals(100, interim.status());
            assertEquals(0, interim.body().length);
            c.send("hello world");
            RawHttp.Response r = c.read();
            assertEquals(200, r.status());
            assertEquals("hello world", r.text());
            assertEquals(null, r.header("Connection"));
            // Kept alive; a second exchange on the same connection works the same way.
            c.send("POST /echo HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nTransfer-Encoding: chunked\r\n\r\n");
            assertEquals(100, c.read().status());
            c.send("5\r\nagain\r\n0\r\n\r\n");
            RawHttp.Response r2 = c.read();
            assertEquals(200, r2.status());
            assertEquals("again", r2.text());
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"/deny413", "/deny401", "/throw413"})
    void finalStatusWithoutReadingSendsNoContinueAndCloses(String path) throws Exception {
        int expected = path.equals("/deny401") ? 401 : 413;
        try (RawHttp c = new RawHttp(server.port())) {
            c.send("POST " + path + " HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 100000\r\n\r\n");
            RawHttp.Response r = c.read();
            assertEquals(expected, r.status(), "the first response must be final: no 100 Continue");
            // The body was never sent, so the connection cannot be reused: say so, then close.
            assertEquals("close", r.header("Connection"));
            assertTrue(c.closedByServer());
        }
    }

    /** RFC 9110 §10.1.1: a 100-continue expectation in an HTTP/1.0 request is ignored. */
    @Test
    void http10ExpectationIsIgnored() throws Exception {
        try (RawHttp c = new RawHttp(server.port())) {
            c.send("POST /echo HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\nabc");
            RawHttp.Response r = c.read();
            assertEquals(200, r.status());
            assertEquals("abc", r.text());
            assertTrue(c.closedByServer());
        }
    }

    /** curl sends {@code Expect: 100-continue} by itself for a large POST and waits for the 100. */
    @Test
    void curlLargeBodyUsesExpectContinue(@TempDir Path dir) throws Exception {
        assumeTrue(Curl.available(), "curl not installed");
        // Larger than 1 MiB: every curl version sends Expect for a body this size (1 KiB before 8.x).
        byte[] body = new byte[2 * 1024 * 1024 + 123];
        new Random(42).nextBytes(body);
        Path file = dir.resolve("body.bin");
        Files.write(file, body);
        CRC32 crc = new CRC32();
        crc.update(body);
        long start = System.nanoTime();
        // curl sends the body anyway if no 100 arrives within --expect100-timeout: make that 10 s,
        // so a server that never answers 100 shows up as a slow run.
        Curl.Result r = Curl.run("-o", "-", "-w", "\n%{http_code}", "--expect100-timeout", "10",
                "--data-binary", "@" + file,
                "http://127.0.0.1:" + server.port() + "/crc");
        long ms = (System.nanoTime() - start) / 1_000_000;
        assertEquals(0, r.exitCode(), r.stderr());
        assertEquals("expect=100-continue len=" + body.length + " crc=" + crc.getValue() + "\n200", r.text());
        assertTrue(ms < 5_000, "curl took " + ms + " ms: the 100 Continue came late or never");
    }
}
