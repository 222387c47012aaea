package org.loommpm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.loommpm.server.LoomServer;
import org.loommpm.testsupport.RawHttp;
import org.loommpm.testsupport.TestServers;

/**
 * Malformed, over-limit and ambiguous requests against a running server: each gets its exact
 * status and the connection is closed afterwards (framing is in doubt, so nothing more may be
 * read from it). Requests exactly at the limits are served.
 */
class MalformedRequestTest {
    /** LimitRequestBody for this class; the other limits are the defaults (8190 / 100 / 8190). */
    private static final int BODY_LIMIT = 1000;
    private static final String HOST = "Host: x\r\n";

    private static final Queue<String> seen = new ConcurrentLinkedQueue<>();
    private static LoomServer server;

    @BeforeAll
    static void start() throws Exception {
        server = TestServers.start((req, res) -> {
            seen.add(req.method() + " " + req.path());
            if (req.path().startsWith("/host")) {
                res.send("host=" + req.header("Host"));
            } else if (req.path().startsWith("/ignore")) {
                res.send("ignored"); // never reads the body: the server must skip it
            } else if (req.method().equals("POST")) {
                res.send("len=" + req.bodyBytes().length);
            } else {
                res.send("ok " + req.path());
            }
        }, c -> c.limitRequestBody(BODY_LIMIT));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    static Stream<Arguments> rejected() {
        String chunkedHead = "POST /b HTTP/1.1\r\n" + HOST + "Transfer-Encoding: chunked\r\n\r\n";
        return Stream.of(
                // Limits. The over-long line without any line ending is rejected while it arrives.
                row("request line of 8191 bytes", "GET /" + "a".repeat(8177) + " HTTP/1.1\r\n" + HOST + "\r\n", 414),
                row("unterminated request line over the limit", "GET /" + "a".repeat(20_000), 414),
                row("101 header fields", "GET / HTTP/1.1\r\n" + HOST + fields(100) + "\r\n", 431),
                row("field line of 8191 bytes", "GET / HTTP/1.1\r\n" + HOST + "X-A: " + "v".repeat(8186) + "\r\n\r\n", 431),
                row("unterminated field line over the limit", "GET / HTTP/1.1\r\n" + HOST + "X-A: " + "v".repeat(20_000), 431),
                row("Content-Length over LimitRequestBody (body never sent)",
                        "POST / HTTP/1.1\r\n" + HOST + "Content-Length: 1001\r\n\r\n", 413),
                row("chunked body over LimitRequestBody in one chunk (body never finished)",
                        chunkedHead + "3e9\r\n" + "a".repeat(100), 413),
                row("chunked body over LimitRequestBody over several chunks (body never finished)",
                        chunkedHead + "1f4\r\n" + "a".repeat(500) + "\r\n1f5\r\n" + "a".repeat(10), 413),
                // Framing.
                row("Content-Length and Transfer-Encoding",
                        "POST / HTTP/1.1\r\n" + HOST + "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n"
                                + "0\r\n\r\n", 400),
                row("duplicate Content-Length (equal values)",
                        "POST / HTTP/1.1\r\n" + HOST + "Content-Length: 5\r\nContent-Length: 5\r\n\r\nhello", 400),
                row("Content-Length abc", withLength("abc"), 400),
                row("Content-Length -1", withLength("-1"), 400),
                row("Content-Length 1,1", withLength("1,1"), 400),
                row("Content-Length empty", withLength(""), 400),
                row("Content-Length with a plus sign", withLength("+5"), 400),
                row("Transfer-Encoding gzip", withCoding("gzip"), 400),
                row("Transfer-Encoding gzip, chunked", withCoding("gzip, chunked"), 501),
                row("Transfer-Encoding chunked, gzip", withCoding("chunked, gzip"), 400),
                row("Transfer-Encoding chunked twice", withCoding("chunked, chunked"), 400),
                row("Transfer-Encoding in HTTP/1.0",
                        "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
                row("malformed chunk size", chunkedHead + "zz\r\nhello\r\n0\r\n\r\n", 400),
                row("chunk data not followed by CRLF", chunkedHead + "5\r\nhelloXX0\r\n\r\n", 400),
                // Field syntax.
                row("obs-fold", "GET / HTTP/1.1\r\n" + HOST + "X-A: one\r\n two\r\n\r\n", 400),
                row("whitespace before the colon", "GET / HTTP/1.1\r\n" + HOST + "X-A : b\r\n\r\n", 400),
                row("control character in a value", "GET / HTTP/1.1\r\n" + HOST + "X-A: a\u0001b\r\n\r\n", 400),
                row("NUL in a value", "GET / HTTP/1.1\r\n" + HOST + "X-A: a\u0000b\r\n\r\n", 400),
                row("bare CR in a field line", "GET / HTTP/1.1\r\n" + HOST + "X-A: a\rb\r\n\r\n", 400),
                row("bare CR in the request line", "GET /a\rb HTTP/1.1\r\n" + HOST + "\r\n", 400),
                // Host.
                row("HTTP/1.1 without Host", "GET / HTTP/1.1\r\n\r\n", 400),
                row("two Host fields", "GET / HTTP/1.1\r\n" + HOST + "Host: y\r\n\r\n", 400),
                // Version.
                row("HTTP/2.1", "GET / HTTP/2.1\r\n" + HOST + "\r\n", 505),
                row("HTTP/1.1x", "GET / HTTP/1.1x\r\n" + HOST + "\r\n", 400),
                row("garbage version", "GET / FOO/1.1\r\n" + HOST + "\r\n", 400),
                row("lower-case version", "GET / http/1.1\r\n" + HOST + "\r\n", 400),
                // Expectations.
                row("Expect: something-else", "GET / HTTP/1.1\r\n" + HOST + "Expect: something-else\r\n\r\n", 417));
    }

    @ParameterizedTest(name = "{0} -> {2}")
    @MethodSource("rejected")
    void rejectedWithExactStatusThenClosed(String name, String request, int status) throws Exception {
        try (RawHttp c = new RawHttp(server.port())) {
            c.send(request);
            RawHttp.Response r = c.read();
            assertEquals(status, r.status(), name);
            assertEquals("close", r.header("Connection"), name);
            assertNotNull(r.header("Date"), name);
            assertEquals("loom-mpm", r.header("Server"), name);
            assertTrue(c.closedByServer(), name + ": connection must be closed after the error");
        }
    }

    static Stream<Arguments> rejectedHeads() {
        String longTarget = "/" + "a".repeat(8190);
        return Stream.of(
                row("unknown expectation", "HEAD / HTTP/1.1\r\n" + HOST + "Expect: something-else\r\n\r\n", 417),
                row("obs-fold", "HEAD / HTTP/1.1\r\n" + HOST + "X-A: one\r\n two\r\n\r\n", 400),
                row("unsupported version after an empty line", "\r\nHEAD / HTTP/2.1\r\n" + HOST + "\r\n", 505),
                row("request line over the limit", "HEAD " + longTarget + " HTTP/1.1\r\n" + HOST + "\r\n", 414));
    }

    /** A rejected HEAD gets the status without content (RFC 9110 §9.3.2): nothing follows the head but the close. */
    @ParameterizedTest(name = "{0} -> {2}")
    @MethodSource("rejectedHeads")
    void aRejectedHeadRequestGetsNoContent(String name, String request, int status) throws Exception {
        try (RawHttp c = new RawHttp(server.port())) {
            c.send(request);
            RawHttp.Response r = c.readHead();
            assertEquals(status, r.status(), name);
            assertEquals("close", r.header("Connection"), name);
            assertTrue(c.closedByServer(), name + ": content after the head of a HEAD response");
        }
    }

    /**
     * An absolute-form target names the host, whatever Host says (RFC 9112 §3.2.2): the handler
     * (and a proxy forwarding the request) must not see the Host the target contradicts.
     */
    @Test
    void anAbsoluteFormTargetReplacesTheHostField() throws Exception {
        try (RawHttp c = new RawHttp(server.port())) {
            c.send("GET http://target.example:8080/host HTTP/1.1\r\nHost: other.example\r\n\r\n");
            RawHttp.Response r = c.read();
            assertEquals(200, r.status());
            assertEquals("host=target.example:8080", r.text());
            c.send("GET http://target.example/host HTTP/1.0\r\n\r\n");
            assertEquals("host=target.example", c.read().text(), "HTTP/1.0 without Host");
        }
    }

    static Stream<Arguments> acceptedAtLimit() {
        String body = "b".repeat(BODY_LIMIT);
        return Stream.of(
                row("request line of exactly 8190 bytes",
                        "GET /" + "a".repeat(8176) + " HTTP/1.1\r\n" + HOST + "\r\n", "ok /" + "a".repeat(8176)),
                row("exactly 100 header fields", "GET /f HTTP/1.1\r\n" + HOST + fields(99) + "\r\n", "ok /f"),
                row("field line of exactly 8190 bytes",
                        "GET /g HTTP/1.1\r\n" + HOST + "X-A: " + "v".repeat(8185) + "\r\n\r\n", "ok /g"),
                row("Content-Length equal to LimitRequestBody",
                        "POST /p HTTP/1.1\r\n" + HOST + "Content-Length: " + BODY_LIMIT + "\r\n\r\n" + body,
                        "len=" + BODY_LIMIT),
                row("chunked body of exactly LimitRequestBody",
                        "POST /p HTTP/1.1\r\n" + HOST + "Transfer-Encoding: chunked\r\n\r\n"
                                + "1f4\r\n" + body.substring(500) + "\r\n1f4\r\n" + body.substring(500) + "\r\n0\r\n\r\n",
                        "len=" + BODY_LIMIT),
                row("Expect: 100-continue without a body", "GET /e HTTP/1.1\r\n" + HOST + "Expect: 100-continue\r\n\r\n",
                        "ok /e"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("acceptedAtLimit")
    void acceptedAtTheLimitAndKeptAlive(String name, String request, String expectedBody) throws Exception {
        try (RawHttp c = new RawHttp(server.port())) {
            c.send(request);
            RawHttp.Response r = c.read();
            assertEquals(200, r.status(), name);
            assertEquals(expectedBody, r.text(), name);
            assertEquals(null, r.header("Connection"), name);
            // The connection is still in sync: the next request on it is served.
            c.send("GET /next HTTP/1.1\r\n" + HOST + "\r\n");
            assertEquals("ok /next", c.read().text(), name);
        }
    }

    /** A body that is itself a request must never be parsed as one, whether read, skipped or chunked. */
    @Test
    void bodyBytesAreNeverReadAsANewRequest() throws Exception {
        String evil = "GET /evil HTTP/1.1\r\n" + HOST + "\r\n";
        String real = "GET /real HTTP/1.1\r\n" + HOST + "Connection: close\r\n\r\n";
        String chunked = Integer.toHexString(evil.length()) + "\r\n" + evil + "\r\n0\r\n\r\n";
        List<String[]> variants = List.of(
                new String[] {"POST /read HTTP/1.1\r\n" + HOST + "Content-Length: " + evil.length() + "\r\n\r\n" + evil,
                        "len=" + evil.length()},
                new String[] {"POST /ignore HTTP/1.1\r\n" + HOST + "Content-Length: " + evil.length() + "\r\n\r\n" + evil,
                        "ignored"},
                new String[] {"POST /read HTTP/1.1\r\n" + HOST + "Transfer-Encoding: chunked\r\n\r\n" + chunked,
                        "len=" + evil.length()},
                new String[] {"POST /ignore HTTP/1.1\r\n" + HOST + "Transfer-Encoding: chunked\r\n\r\n" + chunked,
                        "ignored"});
        for (String[] v : variants) {
            seen.clear();
            try (RawHttp c = new RawHttp(server.port())) {
                c.send(v[0] + real); // one write: the server sees both requests at once
                RawHttp.Response first = c.read();
                assertEquals(200, first.status());
                assertEquals(v[1], first.text());
                RawHttp.Response second = c.read();
                assertEquals(200, second.status());
                assertEquals("ok /real", second.text());
                assertEquals("close", second.header("Connection"));
                // Exactly two responses: the connection ends right after the second.
                assertTrue(c.closedByServer(), "a third response or an open connection");
            }
            TestServers.waitFor("handlers done", 5, () -> seen.size() >= 2);
            assertEquals(List.of("POST " + v[0].substring(5, v[0].indexOf(' ', 5)), "GET /real"), List.copyOf(seen));
            assertFalse(seen.stream().anyMatch(s -> s.contains("evil")));
        }
    }

    /** A head that does not arrive within RequestReadTimeout gets a 408, then the connection closes. */
    @Test
    void slowHeadGets408ThenClose() throws Exception {
        try (LoomServer slow = TestServers.start((req, res) -> res.send("never"),
                c -> c.requestHeaderTimeout(Duration.ofMillis(300)));
                RawHttp c = new RawHttp(slow.port())) {
            long start = System.nanoTime();
            c.send("GET /slo");
            RawHttp.Response r = c.read();
            long elapsedMs = (System.nanoTime() - start) / 1_000_000;
            assertEquals(408, r.status());
            assertEquals("Request Timeout\n", r.text());
            assertEquals("close", r.header("Connection"));
            assertNotNull(r.header("Date"), "408 is a 4xx: RFC 9110 §6.6.1 requires Date");
            assertEquals("loom-mpm", r.header("Server"));
            assertTrue(c.closedByServer());
            assertTrue(elapsedMs >= 250 && elapsedMs < 5_000, "408 after " + elapsedMs + " ms");
        }
    }

    private static Arguments row(String name, String request, Object expected) {
        return Arguments.of(name, request, expected);
    }

    private static String fields(int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            sb.append("X-F").append(i).append(": v\r\n");
        }
        return sb.toString();
    }

    private static String withLength(String value) {
        return "POST / HTTP/1.1\r\n" + HOST + "Content-Length: " + value + "\r\n\r\n";
    }

    private static String withCoding(String value) {
        return "POST / HTTP/1.1\r\n" + HOST + "Transfer-Encoding: " + value + "\r\n\r\n0\r\n\r\n";
    }
}
