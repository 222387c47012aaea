package org.loommpm.http2.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.loommpm.http2.it.FrameClient.DATA;
import static org.loommpm.http2.it.FrameClient.END_STREAM;
import static org.loommpm.http2.it.FrameClient.HEADERS;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.api.Headers;

/**
 * Trailer fields on HTTP/2, frame by frame: a request's trailing HEADERS frame reaches the handler
 * once its body is read (forbidden fields dropped, a section past H2MaxHeaderListSize a 431), and a
 * response's trailers are a HEADERS frame with END_STREAM and no pseudo-header field after the
 * last DATA frame, whatever way the body was sent; none on a HEAD answer; a bad trailer after the
 * body resets the stream instead of ending it.
 */
class TrailersH2Test {
    static final int INTERNAL_ERROR = 2;
    private static final int LARGE = 100_000;
    private static final byte[] LARGE_BODY = new byte[LARGE];
    private static final AtomicInteger supplierCalls = new AtomicInteger();

    @TempDir
    static Path dir;
    static Path file;
    static H2Server server;

    @BeforeAll
    static void start() throws Exception {
        for (int i = 0; i < LARGE; i++) {
            LARGE_BODY[i] = (byte) ('a' + i % 26);
        }
        file = dir.resolve("file.txt");
        Files.write(file, LARGE_BODY);
        server = H2Server.start((req, res) -> {
            switch (req.path()) {
                case "/echo-trailers" -> {
                    String before = req.trailers().toString();
                    byte[] body = req.bodyBytes();
                    res.send("before=[" + before + "] body=" + new String(body, StandardCharsets.US_ASCII)
                            + " after=[" + req.trailers().toString().trim().replace('\n', '|') + "]");
                }
                case "/send" -> res.trailers(() -> new Headers().add("X-Sum", "5").add("grpc-status", "0"))
                        .send("hello");
                case "/large" -> {
                    res.trailers(() -> new Headers().add("x-length", "" + LARGE));
                    try (OutputStream out = res.outputStream()) {
                        for (int off = 0; off < LARGE; off += 1000) {
                            out.write(LARGE_BODY, off, 1000);
                        }
                    }
                }
                case "/small-stream" -> {
                    res.trailers(() -> new Headers().add("x-small", "1"));
                    res.outputStream().write("tiny".getBytes(StandardCharsets.US_ASCII)); // finished on return
                }
                case "/file" -> res.trailers(() -> new Headers().add("x-file", "sent")).sendFile(file);
                case "/empty" -> res.trailers(() -> new Headers().add("x-empty", "1"));
                case "/none" -> res.trailers(() -> null).send("no fields");
                case "/counted" -> res.trailers(() -> {
                    supplierCalls.incrementAndGet();
                    return new Headers().add("x-counted", "1");
                }).send("body");
                case "/bad-small" -> res.trailers(() -> new Headers().add("content-type", "x/y")).send("small");
                case "/bad-send" -> res.trailers(() -> new Headers().add("x-bad", "a\nb")).send(LARGE_BODY);
                case "/bad-large" -> {
                    res.trailers(() -> new Headers().add("x-bad", "a\nb"));
                    try (OutputStream out = res.outputStream()) {
                        out.write(LARGE_BODY, 0, 40_000); // past the buffer, within the stream's window
                    }
                }
                case "/suspend" -> {
                    res.trailers(() -> new Headers().add("x-t", "1"));
                    try {
                        res.eventStream();
                        res.send("streamed");
                    } catch (IllegalStateException e) {
                        res.send("refused: " + e.getMessage());
                    }
                }
                default -> res.send("ok");
            }
        }, s -> s.withMaxHeaderListSize(4096));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void requestTrailersReachTheHandlerOnceTheBodyIsRead() throws Exception {
        try (FrameClient c = FrameClient.open(server.port())) {
            c.headers(1, false, ":method", "POST", ":scheme", "http", ":path", "/echo-trailers", ":authority", "x");
            c.data(1, "hello".getBytes(StandardCharsets.US_ASCII), false);
            c.headers(1, true, "x-checksum", "abc", "content-type", "evil/x", "host", "elsewhere", "x-other", "v");
            assertEquals("before=[] body=hello after=[x-checksum: abc|x-other: v]", c.response(1).text());
            // Without trailers: empty after the body too.
            c.headers(3, false, ":method", "POST", ":scheme", "http", ":path", "/echo-trailers", ":authority", "x");
            c.data(3, "hi".getBytes(StandardCharsets.US_ASCII), true);
            assertEquals("before=[] body=hi after=[]", c.response(3).text());
        }
    }

    @Test
    void requestTrailersPastTheHeaderListSizeAre431() throws Exception {
        try (FrameClient c = FrameClient.open(server.port())) {
            c.headers(1, false, ":method", "POST", ":scheme", "http", ":path", "/echo-trailers", ":authority", "x");
            c.data(1, "hello".getBytes(StandardCharsets.US_ASCII), false);
            c.headers(1, true, "x-big", "v".repeat(5000));
            assertEquals(431, c.response(1).status());
        }
    }

    /** Stream 1's frames up to its END_STREAM. */
    private static List<FrameClient.Frame> frames(FrameClient c, String path) throws Exception {
        c.headers(1, true, FrameClient.get(path));
        List<FrameClient.Frame> frames = new ArrayList<>();
        for (;;) {
            FrameClient.Frame f = c.read();
            if (f.stream() != 1) {
                continue;
            }
            frames.add(f);
            if (f.has(END_STREAM) || f.type() == FrameClient.RST_STREAM) {
                return frames;
            }
        }
    }

    @Test
    void trailersAreAHeadersFrameWithEndStreamAfterTheData() throws Exception {
        try (FrameClient c = FrameClient.open(server.port())) {
            List<FrameClient.Frame> frames = frames(c, "/send");
            assertEquals(3, frames.size(), frames.toString());
            FrameClient.Frame head = frames.get(0);
            assertEquals(HEADERS, head.type());
            assertFalse(head.has(END_STREAM));
            assertEquals("200", c.fields(head).get(":status"));
            assertEquals(DATA, frames.get(1).type());
            assertFalse(frames.get(1).has(END_STREAM));
            assertEquals("hello", new String(frames.get(1).payload(), StandardCharsets.US_ASCII));
            FrameClient.Frame trailers = frames.get(2);
            assertEquals(HEADERS, trailers.type());
            assertTrue(trailers.has(END_STREAM));
            // Lower-case names, no pseudo-header field.
            assertEquals(Map.of("x-sum", "5", "grpc-status", "0"), c.fields(trailers));
        }
    }

    @Test
    void streamedBodiesFilesAndEmptyBodiesCarryTrailers() throws Exception {
        try (FrameClient c = FrameClient.open(server.port())) {
            c.headers(1, true, FrameClient.get("/large"));
            FrameClient.Response r = c.response(1);
            assertArrayEquals(LARGE_BODY, r.body());
            assertEquals(Map.of("x-length", "" + LARGE), r.trailers());
            c.headers(3, true, FrameClient.get("/small-stream"));
            r = c.response(3);
            assertEquals("tiny", r.text());
            assertEquals(Map.of("x-small", "1"), r.trailers());
            c.headers(5, true, FrameClient.get("/file"));
            r = c.response(5);
            assertArrayEquals(LARGE_BODY, r.body());
            assertEquals(Map.of("x-file", "sent"), r.trailers());
            c.headers(7, true, FrameClient.get("/empty"));
            r = c.response(7);
            assertEquals(200, r.status());
            assertEquals(0, r.body().length);
            assertEquals(Map.of("x-empty", "1"), r.trailers());
            c.headers(9, true, FrameClient.get("/none"));
            r = c.response(9);
            assertEquals("no fields", r.text());
            assertEquals(Map.of(), r.trailers());
        }
    }

    @Test
    void noTrailersOnAHeadAnswer() throws Exception {
        int before = supplierCalls.get();
        try (FrameClient c = FrameClient.open(server.port())) {
            c.headers(1, true, ":method", "HEAD", ":scheme", "http", ":path", "/counted", ":authority", "x");
            FrameClient.Response r = c.response(1);
            assertEquals(200, r.status());
            assertEquals(Map.of(), r.trailers());
        }
        assertEquals(before, supplierCalls.get());
    }

    @Test
    void aResponseWithTrailersCannotBeSuspended() throws Exception {
        try (FrameClient c = FrameClient.open(server.port())) {
            c.headers(1, true, FrameClient.get("/suspend"));
            FrameClient.Response r = c.response(1);
            assertEquals("refused: a response with trailers cannot be suspended", r.text());
            assertEquals(Map.of("x-t", "1"), r.trailers());
        }
    }

    @Test
    void aBadTrailerIsA500BeforeTheHeadAndAResetAfterTheBody() throws Exception {
        try (FrameClient c = FrameClient.open(server.port())) {
            FrameClient.Response r;
            c.headers(1, true, FrameClient.get("/bad-small"));
            r = c.response(1);
            assertEquals(500, r.status());
            assertEquals(Map.of(), r.trailers());
            // send(byte[]) knows the whole body: the fields are asked for before any of it is queued.
            c.headers(3, true, FrameClient.get("/bad-send"));
            assertEquals(500, c.response(3).status());
            c.headers(5, true, FrameClient.get("/bad-large"));
            assertEquals(INTERNAL_ERROR, c.expectRst(5));
            c.headers(7, true, FrameClient.get("/"));
            assertEquals("ok", c.response(7).text());
        }
    }
}
