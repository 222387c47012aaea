package org.loommpm.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.loommpm.server.LoomServer;
import org.loommpm.api.Response;
import org.loommpm.api.Router;
import org.loommpm.testsupport.RawHttp;
import org.loommpm.testsupport.TestServers;

/**
 * How responses are framed on the wire, checked byte-exactly with a raw socket: Content-Length
 * for small and declared bodies, chunked for large streamed ones (close-delimited in HTTP/1.0),
 * no body for 204/304 and HEAD, header values that cannot split the head, and Date and Server on
 * every response.
 */
class ResponseModesTest {
    private static final Pattern IMF_FIXDATE =
            Pattern.compile("(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \\d{2} [A-Z][a-z]{2} \\d{4} \\d{2}:\\d{2}:\\d{2} GMT");
    /** Larger than the 16 KB write buffer, so a streamed body cannot be buffered whole. */
    private static final int LARGE = 100_000;
    private static final byte[] LARGE_BODY = pattern(LARGE);

    private static LoomServer server;

    @BeforeAll
    static void start() throws Exception {
        Router router = new Router()
                .get("/bytes", (req, res) -> {
                    // The body stream of a request without a body ends at once, also when read again.
                    if (req.body().read() != -1 || req.body().read(new byte[4], 0, 4) != -1) {
                        throw new IllegalStateException("a body-less request has a body");
                    }
                    res.send(new byte[Integer.parseInt(req.query().substring(2))]);
                })
                .get("/small", (req, res) -> {
                    try (OutputStream out = res.outputStream()) {
                        out.write("small body".getBytes());
                    }
                })
                .get("/large", (req, res) -> {
                    try (OutputStream out = res.outputStream()) {
                        for (int off = 0; off < LARGE; off += 1000) {
                            out.write(LARGE_BODY, off, 1000);
                        }
                    }
                })
                .get("/large1", (req, res) -> {
                    try (OutputStream out = res.outputStream()) {
                        out.write(LARGE_BODY); // one write larger than the buffer
                    }
                })
                .get("/declared", (req, res) -> {
                    res.header("Content-Length", String.valueOf(LARGE));
                    try (OutputStream out = res.outputStream()) {
                        for (int off = 0; off < LARGE; off += 1000) {
                            out.write(LARGE_BODY, off, 1000);
                        }
                    }
                })
                .get("/short", (req, res) -> {
                    res.header("Content-Length", "100");
                    try (OutputStream out = res.outputStream()) {
                        out.write("only ten!!".getBytes()); // fewer bytes than declared
                    }
                })
                .head("/announced", (req, res) -> {
                    res.header("Content-Length", "1234");
                    res.send(new byte[0]);
                })
                .get("/latin1", (req, res) -> res.header("X-Name", "caf\u00e9 \u00ff").send("ok"))
                .get("/204", (req, res) -> res.status(204).send("must not be sent"))
                .get("/204stream", (req, res) -> {
                    res.status(204);
                    try (OutputStream out = res.outputStream()) {
                        out.write(LARGE_BODY); // discarded: 204 has no body
                    }
                })
                .get("/304", (req, res) -> {
                    res.status(304).header("ETag", "\"v1\"");
                    res.send("must not be sent");
                })
                .get("/inject", (req, res) -> {
                    List<String> outcomes = new ArrayList<>();
                    outcomes.add(tryHeader(res, "X-A", "a\r\nSet-Cookie: pwned=1"));
                    outcomes.add(tryHeader(res, "X-A", "a\nSet-Cookie: pwned=1"));
                    outcomes.add(tryHeader(res, "X-A", "a\rb"));
                    outcomes.add(tryHeader(res, "X-A", "nul\u0000"));
                    outcomes.add(tryHeader(res, "X-A", "euro \u20ac"));
                    outcomes.add(tryHeader(res, "Set-Cookie: pwned=1\r\nX-A", "v"));
                    outcomes.add(tryHeader(res, "X A", "v"));
                    outcomes.add(tryHeader(res, "", "v"));
                    outcomes.add(tryHeader(res, "X-Ok", "fine\tvalue"));
                    res.send(String.join(",", outcomes));
                })
                .get("/inject-view", (req, res) -> {
                    // The mutable headers() view must not be a way around the check.
                    res.headers().set("X-Evil", "a\r\nSet-Cookie: pwned=1");
                    try {
                        res.send("sent with a split head");
                    } catch (IllegalArgumentException e) {
                        res.headers().remove("X-Evil");
                        res.send("rejected at send");
                    }
                })
                .get("/inject-view-between", (req, res) -> {
                    // Checked fields before and after one added through the view: the view's
                    // field must still be checked at send.
                    res.header("X-Before", "fine");
                    res.headers().add("X-Evil", "a\r\nSet-Cookie: pwned=1");
                    res.header("X-After", "fine");
                    try {
                        res.send("sent with a split head".getBytes());
                    } catch (IllegalArgumentException e) {
                        res.headers().remove("X-Evil");
                        res.send("rejected at send");
                    }
                })
                .get("/inject-view-uncaught", (req, res) -> {
                    res.headers().add("X-Evil", "a\r\nSet-Cookie: pwned=1");
                    try (OutputStream out = res.outputStream()) {
                        out.write("x".getBytes());
                    }
                });
        server = TestServers.start(router);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static String tryHeader(Response res, String name, String value) {
        try {
            res.header(name, value);
            return "ok";
        } catch (IllegalArgumentException e) {
            return "IAE";
        }
    }

    private static RawHttp.Response get(RawHttp c, String path) throws Exception {
        c.send("GET " + path + " HTTP/1.1\r\nHost: x\r\n\r\n");
        RawHttp.Response r = c.read();
        assertStandardHeaders(r);
        return r;
    }

    private static void assertStandardHeaders(RawHttp.Response r) {
        String date = r.header("Date");
        assertTrue(date != null && IMF_FIXDATE.matcher(date).matches(), "Date: " + date);
        assertEquals("loom-mpm", r.header("Server"));
    }

    /** Content-Length is written digit by digit into the head: every length at a digit boundary. */
    @Test
    void contentLengthOfEveryNumberOfDigits() throws Exception {
        try (RawHttp c = new RawHttp(server.port())) {
            for (int n : new int[] {0, 1, 9, 10, 99, 100, 12_345, 999_999, 1_000_000}) {
                RawHttp.Response r = get(c, "/bytes?n=" + n);
                assertEquals(200, r.status());
                assertEquals(Integer.toString(n), r.header("Content-Length"));
                assertEquals(n, r.body().length);
            }
        }
    }

    /** A Latin-1 field value goes out as its one byte per character (the head is copied in bulk). */
    @Test
    void latin1FieldValueGoesOutByteForByte() throws Exception {
        try (RawHttp c = new RawHttp(server.port())) {
            RawHttp.Response r = get(c, "/latin1");
            assertEquals(200, r.status());
            assertEquals("caf\u00e9 \u00ff", r.header("X-Name"));
            assertEquals("ok", r.text());
        }
    }

    @Test
    void smallStreamedBodyGetsContentLength() throws Exception {
        try (RawHttp c = new RawHttp(server.port())) {
            RawHttp.Response r = get(c, "/small");
            assertEquals(200, r.status());
            assertEquals("10", r.header("Content-Length"));
            assertNull(r.header("Transfer-Encoding"));
            assertEquals("small body", r.text());
            assertEquals("small body", get(c, "/small").text(), "kept alive");
        }
    }

    @Test
    void largeStreamedBodyIsChunked() throws Exception {
        try (RawHttp c = new RawHttp(server.port())) {
            RawHttp.Response r = get(c, "/large");
            assertEquals(200, r.status());
            assertEquals("chunked", r.header("Transfer-Encoding"));
            assertNull(r.header("Content-Length"));
            assertArrayEquals(LARGE_BODY, r.body());
            assertEquals("small body", get(c, "/small").text(), "kept alive after the last chunk");
        }
    }

    @Test
    void declaredContentLengthStreamsWithoutChunking() throws Exception {
        try (RawHttp c = new RawHttp(server.port())) {
            RawHttp.Response r = get(c, "/declared");
            assertEquals(200, r.status());
            assertEquals(String.valueOf(LARGE), r.header("Content-Length"));
            assertNull(r.header("Transfer-Encoding"));
            assertArrayEquals(LARGE_BODY, r.body());
            assertEquals("small body", get(c, "/small").text(), "kept alive");
        }
    }

    /** A body shorter than the Content-Length the handler declared, noticed before the head went out. */
    @Test
    void bufferedBodyShorterThanDeclaredIs500() throws Exception {
        try (RawHttp c = new RawHttp(server.port())) {
            RawHttp.Response r = get(c, "/short");
            assertEquals(500, r.status());
            assertEquals("Internal Server Error\n", r.text());
            assertEquals("close", r.header("Connection"));
            assertTrue(c.closedByServer());
        }
    }

    @Test
    void http10LargeStreamedBodyIsCloseDelimited() throws Exception {
        try (RawHttp c = new RawHttp(server.port())) {
            c.send("GET /large HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
            RawHttp.Response r = c.read(); // no length, no chunking: reads to EOF
            assertStandardHeaders(r);
            assertEquals(200, r.status());
            assertNull(r.header("Content-Length"));
            assertNull(r.header("Transfer-Encoding"));
            assertEquals("close", r.header("Connection"));
            assertArrayEquals(LARGE_BODY, r.body());
            assertTrue(c.closedByServer());
        }
    }

    @Test
    void http10SmallStreamedBodyKeepsTheConnectionWhenAsked() throws Exception {
        try (RawHttp c = new RawHttp(server.port())) {
            c.send("GET /small HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
            RawHttp.Response r = c.read();
            assertStandardHeaders(r);
            assertEquals("10", r.header("Content-Length"));
            assertEquals("keep-alive", r.header("Connection"));
            assertEquals("small body", r.text());
            assertEquals("small body", get(c, "/small").text());
        }
    }

    @Test
    void noBodyFor204And304() throws Exception {
        try (RawHttp c = new RawHttp(server.port())) {
            for (String path : List.of("/204", "/204stream", "/304")) {
                RawHttp.Response r = get(c, path);
                assertEquals(Integer.parseInt(path.substring(1, 4)), r.status(), path);
                assertNull(r.header("Transfer-Encoding"), path);
                if (r.status() == 204) {
                    assertNull(r.header("Content-Length"), path);
                } else {
                    assertEquals("\"v1\"", r.header("ETag"));
                }
                // No stray body bytes: the next response on the connection parses cleanly.
                RawHttp.Response next = get(c, "/small");
                assertEquals(200, next.status(), path);
                assertEquals("small body", next.text(), path);
            }
        }
    }

    @Test
    void headGetsHeadersOfTheStreamedBodyButNoBytes() throws Exception {
        try (RawHttp c = new RawHttp(server.port())) {
            c.send("HEAD /small HTTP/1.1\r\nHost: x\r\n\r\n");
            RawHttp.Response r = c.readHead();
            assertStandardHeaders(r);
            assertEquals(200, r.status());
            assertEquals("10", r.header("Content-Length"));
            c.send("HEAD /large HTTP/1.1\r\nHost: x\r\n\r\n");
            RawHttp.Response large = c.readHead();
            assertStandardHeaders(large);
            assertEquals(200, large.status());
            assertEquals(String.valueOf(LARGE), large.header("Content-Length"));
            // One write larger than the buffer commits the head early: it announces the chunked
            // coding a GET gets, and the connection stays open.
            c.send("HEAD /large1 HTTP/1.1\r\nHost: x\r\n\r\n");
            RawHttp.Response large1 = c.readHead();
            assertStandardHeaders(large1);
            assertEquals(200, large1.status());
            assertEquals("chunked", large1.header("Transfer-Encoding"));
            assertNull(large1.header("Content-Length"));
            assertNull(large1.header("Connection"));
            c.send("HEAD /announced HTTP/1.1\r\nHost: x\r\n\r\n");
            RawHttp.Response announced = c.readHead();
            assertEquals("1234", announced.header("Content-Length"), "a HEAD handler's own length is kept");
            assertEquals("small body", get(c, "/small").text(), "no body bytes were sent for any HEAD");
            RawHttp.Response get1 = get(c, "/large1");
            assertEquals("chunked", get1.header("Transfer-Encoding"));
            assertArrayEquals(LARGE_BODY, get1.body());
        }
    }

    @Test
    void headerInjectionIsRejectedByHeader() throws Exception {
        try (RawHttp c = new RawHttp(server.port())) {
            RawHttp.Response r = get(c, "/inject");
            assertEquals(200, r.status());
            assertEquals("IAE,IAE,IAE,IAE,IAE,IAE,IAE,IAE,ok", r.text());
            assertEquals("fine\tvalue", r.header("X-Ok"));
            assertNull(r.header("Set-Cookie"));
            assertNull(r.header("X-A"));
        }
    }

    @Test
    void headerInjectionThroughTheHeadersViewIsRejectedAtSend() throws Exception {
        try (RawHttp c = new RawHttp(server.port())) {
            RawHttp.Response r = get(c, "/inject-view");
            assertEquals(200, r.status());
            assertEquals("rejected at send", r.text());
            assertNull(r.header("Set-Cookie"));
            assertNull(r.header("X-Evil"));
            RawHttp.Response b = get(c, "/inject-view-between");
            assertEquals("rejected at send", b.text());
            assertEquals("fine", b.header("X-After"));
            assertNull(b.header("Set-Cookie"));
            assertNull(b.header("X-Evil"));
            RawHttp.Response u = get(c, "/inject-view-uncaught");
            assertEquals(500, u.status());
            assertEquals("Internal Server Error\n", u.text());
            assertNull(u.header("Set-Cookie"));
            assertNull(u.header("X-Evil"));
            assertTrue(c.closedByServer());
        }
    }

    private static byte[] pattern(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) ('a' + (i * 7 + i / 26) % 26);
        }
        return b;
    }
}
