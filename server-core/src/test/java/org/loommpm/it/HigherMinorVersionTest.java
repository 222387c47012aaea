package org.loommpm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.loommpm.server.LoomServer;
import org.loommpm.api.Router;
import org.loommpm.testsupport.RawHttp;
import org.loommpm.testsupport.TestServers;

/**
 * A request line of a higher HTTP/1 minor version ({@code HTTP/1.2} to {@code HTTP/1.9}) is
 * served as HTTP/1.1 and answered with {@code HTTP/1.1} (RFC 9110 §2.5, as httpd does): Host
 * required, persistent by default, chunked and 100-continue as in 1.1. Handlers see
 * {@code protocol()} {@code HTTP/1.1} and {@code rawProtocol()} the version sent. Other versions
 * keep their answers: another major version is a 505, a malformed version (two digits, lower
 * case) a 400.
 */
class HigherMinorVersionTest {
    private static LoomServer server;

    @BeforeAll
    static void start() throws Exception {
        // Through a Router, so the routed request's forwarding of rawProtocol() is covered too.
        Router router = new Router()
                .get("/v", (req, res) -> res.send(req.protocol() + " " + req.rawProtocol()))
                .post("/echo", (req, res) -> res.send(req.rawProtocol() + " " + req.bodyString()));
        server = TestServers.start(router);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @ParameterizedTest
    @CsvSource({"HTTP/1.2", "HTTP/1.9"})
    void servedAsHttp11OnAPersistentConnection(String version) throws Exception {
        try (RawHttp c = new RawHttp(server.port())) {
            c.send("GET /v " + version + "\r\nHost: x\r\n\r\n");
            RawHttp.Response r = c.read();
            assertEquals("HTTP/1.1 200 OK", r.statusLine(), "answered with the server's own version");
            assertEquals("HTTP/1.1 " + version, r.text());
            assertNull(r.header("Connection"), "persistent by default, as HTTP/1.1");
            // A second request on the same connection.
            c.send("GET /v " + version + "\r\nHost: x\r\n\r\n");
            RawHttp.Response again = c.read();
            assertEquals("HTTP/1.1 200 OK", again.statusLine());
            assertEquals("HTTP/1.1 " + version, again.text());
            // And an HTTP/1.1 request after it: the remembered line is not reused for another version.
            c.send("GET /v HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            RawHttp.Response last = c.read();
            assertEquals("HTTP/1.1 HTTP/1.1", last.text());
            assertEquals("close", last.header("Connection"));
            assertTrue(c.closedByServer());
        }
    }

    @Test
    void chunkedBodyAndContinueAsInHttp11() throws Exception {
        try (RawHttp c = new RawHttp(server.port())) {
            c.send("POST /echo HTTP/1.2\r\nHost: x\r\nExpect: 100-continue\r\nTransfer-Encoding: chunked\r\n\r\n");
            RawHttp.Response interim = c.read();
            assertEquals("HTTP/1.1 100 Continue", interim.statusLine());
            c.send("5\r\nhello\r\n0\r\n\r\n");
            RawHttp.Response r = c.read();
            assertEquals("HTTP/1.1 200 OK", r.statusLine());
            assertEquals("HTTP/1.2 hello", r.text());
            assertNull(r.header("Connection"));
        }
    }

    @Test
    void connectionCloseIsHonoured() throws Exception {
        try (RawHttp c = new RawHttp(server.port())) {
            c.send("GET /v HTTP/1.2\r\nHost: x\r\nConnection: close\r\n\r\n");
            RawHttp.Response r = c.read();
            assertEquals(200, r.status());
            assertEquals("close", r.header("Connection"));
            assertTrue(c.closedByServer());
        }
    }

    /** What each other version got before HTTP/1.2 was accepted, and still gets. */
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "HTTP/1.2 without Host, 400",
        "HTTP/2.0, 505",
        "HTTP/3.0, 505",
        "HTTP/0.9, 505",
        "HTTP/1.10, 400",
        "HTTP/10.1, 400",
        "http/1.1, 400",
        "http/1.2, 400",
    })
    void otherVersionsKeepTheirAnswers(String version, int status) throws Exception {
        String request = version.endsWith(" without Host")
                ? "GET /v " + version.substring(0, version.indexOf(' ')) + "\r\n\r\n"
                : "GET /v " + version + "\r\nHost: x\r\n\r\n";
        try (RawHttp c = new RawHttp(server.port())) {
            c.send(request);
            RawHttp.Response r = c.read();
            assertEquals(status, r.status(), version);
            assertTrue(r.statusLine().startsWith("HTTP/1.1 "), r.statusLine());
            assertEquals("close", r.header("Connection"));
            assertTrue(c.closedByServer(), version + ": closed after the error");
            assertFalse(r.text().contains("HTTP/1.1 HTTP/"), "the handler never ran");
        }
    }
}
