package org.loommpm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.loommpm.server.LoomServer;
import org.loommpm.testsupport.RawHttp;
import org.loommpm.testsupport.TestServers;

/**
 * Pipelined requests on one connection: every one is answered, in order, with request bodies
 * (fixed-length and chunked, read or skipped by the handler) consumed exactly; nothing after a
 * {@code Connection: close} request is served.
 */
class PipeliningTest {
    private static final Queue<String> seen = new ConcurrentLinkedQueue<>();
    private static LoomServer server;

    @BeforeAll
    static void start() throws Exception {
        server = TestServers.start((req, res) -> {
            seen.add(req.method() + " " + req.path());
            if (req.path().startsWith("/stream")) {
                try (var out = res.outputStream()) { // chunked, flushed mid-body
                    out.write("streamed ".getBytes());
                    out.flush();
                    out.write(req.path().getBytes());
                }
            } else if (req.path().startsWith("/large")) {
                res.send("L".repeat(20_000)); // larger than the batch: written directly, in order
            } else if (req.path().startsWith("/skip")) {
                res.send("skipped " + req.path()); // body left unread: the server discards it
            } else if (req.method().equals("POST")) {
                res.send("POST " + req.path() + " " + req.bodyString());
            } else {
                res.send(req.method() + " " + req.path());
            }
        });
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @BeforeEach
    void clear() {
        seen.clear();
    }

    @Test
    void fiveGetsInOneWriteAnsweredInOrder() throws Exception {
        StringBuilder all = new StringBuilder();
        for (int i = 0; i < 5; i++) {
            all.append(get("/p" + i));
        }
        try (RawHttp c = new RawHttp(server.port())) {
            c.send(all.toString());
            for (int i = 0; i < 5; i++) {
                RawHttp.Response r = c.read();
                assertEquals(200, r.status());
                assertEquals("GET /p" + i, r.text());
                assertNull(r.header("Connection"));
            }
            assertTrue(c.silentFor(200), "no sixth response, connection kept open");
        }
    }

    @Test
    void postsWithLengthAndChunkedBodiesInterleavedWithGets() throws Exception {
        List<String> requests = List.of(
                get("/a"),
                post("/b", "hello"),
                get("/c"),
                chunked("/d", "3;ext=1\r\nwor\r\n2\r\nld\r\n0\r\n\r\n"),
                post("/skip1", "unread body that is not a request"),
                get("/e"),
                chunked("/skip2", "4\r\nGET \r\n0\r\nX-Trailer: t\r\n\r\n"),
                post("/f", ""),
                get("/g"));
        List<String> expected = List.of("GET /a", "POST /b hello", "GET /c", "POST /d world", "skipped /skip1",
                "GET /e", "skipped /skip2", "POST /f ", "GET /g");
        try (RawHttp c = new RawHttp(server.port())) {
            c.send(String.join("", requests));
            for (String e : expected) {
                RawHttp.Response r = c.read();
                assertEquals(200, r.status(), e);
                assertEquals(e, r.text());
            }
            assertTrue(c.silentFor(200));
        }
        assertEquals(List.of("GET /a", "POST /b", "GET /c", "POST /d", "POST /skip1", "GET /e", "POST /skip2",
                "POST /f", "GET /g"), List.copyOf(seen));
    }

    /** 40 requests is more than the 16 served per dispatch before the connection is re-dispatched. */
    @Test
    void fortyPipelinedRequestsBeyondTheFairnessBound() throws Exception {
        StringBuilder all = new StringBuilder();
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            switch (i % 3) {
                case 0 -> {
                    all.append(get("/r" + i));
                    expected.add("GET /r" + i);
                }
                case 1 -> {
                    all.append(post("/r" + i, "body" + i));
                    expected.add("POST /r" + i + " body" + i);
                }
                default -> {
                    String b = "chunk" + i;
                    all.append(chunked("/r" + i, Integer.toHexString(b.length()) + "\r\n" + b + "\r\n0\r\n\r\n"));
                    expected.add("POST /r" + i + " " + b);
                }
            }
        }
        try (RawHttp c = new RawHttp(server.port())) {
            c.send(all.toString());
            for (String e : expected) {
                RawHttp.Response r = c.read();
                assertEquals(200, r.status(), e);
                assertEquals(e, r.text());
            }
            // Still usable afterwards.
            c.send(get("/after"));
            assertEquals("GET /after", c.read().text());
        }
        assertEquals(41, seen.size());
    }

    /** The pipeline is larger than the 16 KB read buffer: heads straddle buffer refills. */
    @Test
    void pipelineLargerThanTheReadBuffer() throws Exception {
        StringBuilder all = new StringBuilder();
        String pad = "X-Pad: " + "p".repeat(1000) + "\r\n";
        for (int i = 0; i < 60; i++) {
            all.append("GET /big").append(i).append(" HTTP/1.1\r\nHost: x\r\n").append(pad).append("\r\n");
        }
        assertTrue(all.length() > 3 * 16 * 1024);
        try (RawHttp c = new RawHttp(server.port())) {
            c.send(all.toString());
            for (int i = 0; i < 60; i++) {
                assertEquals("GET /big" + i, c.read().text());
            }
        }
    }

    /** Requests dribbled one byte per write: every split point inside heads and bodies. */
    @Test
    void pipelineDeliveredOneByteAtATime() throws Exception {
        String all = get("/x1") + post("/x2", "abc") + chunked("/x3", "2\r\nde\r\n0\r\n\r\n") + get("/x4");
        try (RawHttp c = new RawHttp(server.port())) {
            for (byte b : all.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1)) {
                c.send(new byte[] {b});
            }
            assertEquals("GET /x1", c.read().text());
            assertEquals("POST /x2 abc", c.read().text());
            assertEquals("POST /x3 de", c.read().text());
            assertEquals("GET /x4", c.read().text());
        }
    }

    @Test
    void requestAfterConnectionCloseIsNotAnswered() throws Exception {
        try (RawHttp c = new RawHttp(server.port())) {
            c.send(get("/one")
                    + "GET /two HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                    + get("/three"));
            RawHttp.Response one = c.read();
            assertEquals("GET /one", one.text());
            assertNull(one.header("Connection"));
            RawHttp.Response two = c.read();
            assertEquals("GET /two", two.text());
            assertEquals("close", two.header("Connection"));
            assertTrue(c.closedByServer(), "/three must not be answered");
        }
        assertEquals(List.of("GET /one", "GET /two"), List.copyOf(seen));
    }

    @Test
    void http10PipelineWithoutKeepAliveEndsAfterTheFirst() throws Exception {
        try (RawHttp c = new RawHttp(server.port())) {
            c.send("GET /old HTTP/1.0\r\n\r\n" + get("/ignored"));
            RawHttp.Response r = c.read();
            assertEquals("GET /old", r.text());
            assertEquals("close", r.header("Connection"));
            assertTrue(c.closedByServer());
        }
        assertEquals(List.of("GET /old"), List.copyOf(seen));
    }

    /**
     * Answers to a burst are batched into few writes; a streamed or large response in the middle
     * flushes what is batched first, so the order holds.
     */
    @Test
    void streamedAndLargeResponsesInsideABurstKeepTheOrder() throws Exception {
        StringBuilder all = new StringBuilder();
        List<String> paths = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            String p = switch (i % 5) {
                case 1 -> "/stream" + i;
                case 3 -> "/large" + i;
                default -> "/s" + i;
            };
            paths.add(p);
            all.append(get(p));
        }
        try (RawHttp c = new RawHttp(server.port())) {
            c.send(all.toString());
            for (String p : paths) {
                String text = c.read().text();
                if (p.startsWith("/stream")) {
                    assertEquals("streamed " + p, text);
                } else if (p.startsWith("/large")) {
                    assertEquals(20_000, text.length(), p);
                } else {
                    assertEquals("GET " + p, text);
                }
            }
            assertTrue(c.silentFor(200));
        }
    }

    /** A client that half-closes right after its burst still gets every answer, then EOF. */
    @Test
    void burstThenHalfCloseGetsEveryAnswer() throws Exception {
        try (RawHttp c = new RawHttp(server.port())) {
            StringBuilder all = new StringBuilder();
            for (int i = 0; i < 12; i++) {
                all.append(get("/h" + i));
            }
            c.send(all.toString());
            c.shutdownOutput();
            for (int i = 0; i < 12; i++) {
                assertEquals("GET /h" + i, c.read().text());
            }
            assertTrue(c.closedByServer());
        }
    }

    /** Bytes are counted per exchange whether its answer was batched or not: totals match the wire. */
    @Test
    void bytesSentMatchTheWireForABatchedBurst() throws Exception {
        long before = server.stats().bytesSent();
        long requestsBefore = server.stats().requests();
        StringBuilder all = new StringBuilder();
        for (int i = 0; i < 20; i++) {
            all.append(get(i % 7 == 3 ? "/stream" + i : "/b" + i));
        }
        all.append("GET /last HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        long received;
        try (java.net.Socket s = new java.net.Socket("127.0.0.1", server.port())) {
            s.setSoTimeout(5_000);
            s.getOutputStream().write(all.toString().getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
            received = s.getInputStream().readAllBytes().length;
        }
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (server.stats().requests() - requestsBefore < 21 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertEquals(21, server.stats().requests() - requestsBefore);
        assertEquals(received, server.stats().bytesSent() - before);
    }

    private static String get(String path) {
        return "GET " + path + " HTTP/1.1\r\nHost: x\r\n\r\n";
    }

    private static String post(String path, String body) {
        return "POST " + path + " HTTP/1.1\r\nHost: x\r\nContent-Length: " + body.length() + "\r\n\r\n" + body;
    }

    private static String chunked(String path, String framedBody) {
        return "POST " + path + " HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n" + framedBody;
    }
}
