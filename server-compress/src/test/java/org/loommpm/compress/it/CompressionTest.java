package org.loommpm.compress.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.aayushatharva.brotli4j.decoder.BrotliInputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.loommpm.server.LoomServer;
import org.loommpm.api.Router;
import org.loommpm.compress.CompressionFilter;
import org.loommpm.compress.CompressionSettings;
import org.loommpm.compress.ContentCoding;
import org.loommpm.testsupport.TestServers;

/**
 * {@link CompressionFilter} over HTTP/1.1 with the JDK client: negotiation by Accept-Encoding
 * and q-values, gzip and brotli decoded back, each exclusion rule, the three body paths
 * (whole, streamed, file), a flush reaching the client before the response ends, a HEAD and a
 * 304 carrying the coded variant's headers, and an event stream passing through.
 */
class CompressionTest {
    static final byte[] JSON = json(20_000);
    static LoomServer server;
    static HttpClient client;
    static final CountDownLatch firstEventSeen = new CountDownLatch(1);

    static byte[] json(int approx) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; sb.length() < approx; i++) {
            sb.append(i == 0 ? "" : ",").append("{\"id\":").append(i).append(",\"name\":\"item ").append(i)
                    .append("\",\"tags\":[\"a\",\"b\"],\"price\":").append(i * 7 % 1000).append('}');
        }
        return sb.append(']').toString().getBytes(StandardCharsets.UTF_8);
    }

    @BeforeAll
    static void start() throws IOException {
        java.nio.file.Path file = java.nio.file.Files.createTempFile("loom-compress", ".json");
        java.nio.file.Files.write(file, JSON);
        file.toFile().deleteOnExit();
        Router r = new Router()
                .get("/json", (q, s) -> s.header("Content-Type", "application/json").header("ETag", "\"v1\"").send(JSON))
                .get("/conditional", (q, s) -> {
                    s.header("Content-Type", "application/json").header("ETag", "\"v1\"");
                    String tags = q.header("If-None-Match");
                    if (tags != null && tags.replace("W/", "").equals("\"v1\"")) {
                        s.status(304).send(new byte[0]); // weak comparison, as RFC 9110 §13.1.2 asks
                    } else {
                        s.send(JSON);
                    }
                })
                .get("/sse", (q, s) -> {
                    org.loommpm.api.EventStream events = s.eventStream();
                    events.send("hello");
                    events.close();
                })
                .get("/tiny", (q, s) -> s.header("Content-Type", "application/json").send("{\"ok\":true}"))
                .get("/png", (q, s) -> s.header("Content-Type", "image/png").send(JSON))
                .get("/no-transform", (q, s) -> s.header("Content-Type", "application/json")
                        .header("Cache-Control", "public, no-transform").send(JSON))
                .get("/encoded", (q, s) -> s.header("Content-Type", "application/json")
                        .header("Content-Encoding", "identity-ish").send(JSON))
                .get("/partial", (q, s) -> s.status(206).header("Content-Type", "application/json")
                        .header("Content-Range", "bytes 0-99/" + JSON.length).send(java.util.Arrays.copyOf(JSON, 100)))
                .get("/stream", (q, s) -> {
                    s.header("Content-Type", "application/json");
                    try (OutputStream out = s.outputStream()) {
                        for (int i = 0; i < JSON.length; i += 1000) {
                            out.write(JSON, i, Math.min(1000, JSON.length - i));
                        }
                    }
                })
                .get("/stream-tiny", (q, s) -> {
                    s.header("Content-Type", "application/json");
                    s.outputStream().write("{}".getBytes(StandardCharsets.UTF_8)); // left open: the filter finishes it
                })
                .get("/file", (q, s) -> s.header("Content-Type", "application/json").sendFile(file))
                .get("/events", (q, s) -> {
                    s.header("Content-Type", "text/event-stream");
                    OutputStream out = s.outputStream();
                    out.write("data: one\n\n".getBytes(StandardCharsets.UTF_8));
                    out.flush();
                    // The second event is written only once the client has decoded the first.
                    if (!firstEventSeen.await(10, TimeUnit.SECONDS)) {
                        throw new IllegalStateException("the first event never reached the client");
                    }
                    out.write("data: two\n\n".getBytes(StandardCharsets.UTF_8));
                    out.close();
                });
        CompressionFilter filter = new CompressionFilter(CompressionSettings.builder()
                .types(ContentCoding.GZIP, "application/json", "text/event-stream")
                .types(ContentCoding.BROTLI, "application/json", "text/event-stream")
                .minimumSize(256).build());
        server = TestServers.start(filter.around(r));
        client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    }

    @AfterAll
    static void stop() {
        server.stop(Duration.ofSeconds(5));
    }

    private static HttpResponse<byte[]> get(String path, String acceptEncoding, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path));
        if (acceptEncoding != null) {
            b.header("Accept-Encoding", acceptEncoding);
        }
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    static byte[] decode(String coding, byte[] body) throws IOException {
        InputStream in = switch (coding) {
            case "gzip" -> new GZIPInputStream(new ByteArrayInputStream(body));
            case "br" -> new BrotliInputStream(new ByteArrayInputStream(body));
            default -> throw new AssertionError(coding);
        };
        try (in) {
            return in.readAllBytes();
        }
    }

    private static String enc(HttpResponse<?> r) {
        return r.headers().firstValue("Content-Encoding").orElse(null);
    }

    @Test
    void gzipAndBrotliByAcceptEncoding() throws Exception {
        HttpResponse<byte[]> gz = get("/json", "gzip");
        assertEquals("gzip", enc(gz));
        assertArrayEquals(JSON, decode("gzip", gz.body()));
        assertEquals(String.valueOf(gz.body().length), gz.headers().firstValue("Content-Length").orElseThrow());
        assertTrue(gz.body().length < JSON.length / 4, "compressed: " + gz.body().length);
        assertEquals("Accept-Encoding", gz.headers().firstValue("Vary").orElseThrow());
        assertEquals("W/\"v1\"", gz.headers().firstValue("ETag").orElseThrow(), "a weak ETag for the coded variant");

        HttpResponse<byte[]> br = get("/json", "gzip, deflate, br");
        assertEquals("br", enc(br));
        assertArrayEquals(JSON, decode("br", br.body()));
        assertEquals("gzip", enc(get("/json", "br;q=0.5, gzip;q=0.8")));
        assertEquals("br", enc(get("/json", "*")));

        HttpResponse<byte[]> none = get("/json", null);
        assertNull(enc(none));
        assertArrayEquals(JSON, none.body());
        assertEquals("Accept-Encoding", none.headers().firstValue("Vary").orElseThrow());
        assertEquals("\"v1\"", none.headers().firstValue("ETag").orElseThrow(), "identity keeps the strong ETag");
        assertNull(enc(get("/json", "gzip;q=0, br;q=0")));
    }

    @Test
    void exclusions() throws Exception {
        assertNull(enc(get("/tiny", "gzip, br")), "below the minimum size");
        HttpResponse<byte[]> png = get("/png", "gzip, br");
        assertNull(enc(png), "a type not configured");
        assertTrue(png.headers().firstValue("Vary").isEmpty());
        assertNull(enc(get("/no-transform", "gzip, br")), "Cache-Control: no-transform");
        assertEquals("identity-ish", enc(get("/encoded", "gzip, br")), "already encoded: untouched");
        HttpResponse<byte[]> partial = get("/partial", "gzip, br");
        assertEquals(206, partial.statusCode());
        assertNull(enc(partial));
        assertNull(enc(get("/json", "gzip, br", "Range", "bytes=0-99")), "a Range request");
    }

    @Test
    void headCarriesTheHeadersOfTheGet() throws Exception {
        HttpResponse<byte[]> get = get("/json", "gzip");
        HttpResponse<Void> head = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/json"))
                .method("HEAD", HttpRequest.BodyPublishers.noBody()).header("Accept-Encoding", "gzip").build(),
                HttpResponse.BodyHandlers.discarding());
        for (String name : new String[] {"Content-Encoding", "Content-Length", "ETag", "Vary"}) {
            assertEquals(get.headers().allValues(name), head.headers().allValues(name), name);
        }
    }

    @Test
    void aNotModifiedCarriesTheCodedVariantsETagAndVary() throws Exception {
        HttpResponse<byte[]> full = get("/conditional", "gzip");
        assertEquals("W/\"v1\"", full.headers().firstValue("ETag").orElseThrow());
        HttpResponse<byte[]> notModified = get("/conditional", "gzip", "If-None-Match", "W/\"v1\"");
        assertEquals(304, notModified.statusCode());
        assertEquals("W/\"v1\"", notModified.headers().firstValue("ETag").orElseThrow(), "the tag a cache holds");
        assertEquals(java.util.List.of("Accept-Encoding"), notModified.headers().allValues("Vary"));
    }

    @Test
    void anEventStreamWorksBehindTheFilter() throws Exception {
        HttpResponse<InputStream> r = client.send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + server.port() + "/sse")).header("Accept-Encoding", "gzip").build(),
                HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, r.statusCode());
        try (InputStream events = r.body()) {
            assertEquals("data: hello\n\n", new String(events.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    @Test
    void streamedAndFileBodies() throws Exception {
        for (String coding : new String[] {"gzip", "br"}) {
            HttpResponse<byte[]> s = get("/stream", coding);
            assertEquals(coding, enc(s));
            // Small enough once coded to fit the write buffer: then it goes out with its coded length.
            s.headers().firstValue("Content-Length").ifPresent(cl -> assertEquals(String.valueOf(s.body().length), cl));
            assertArrayEquals(JSON, decode(coding, s.body()));
            HttpResponse<byte[]> f = get("/file", coding);
            assertEquals(coding, enc(f));
            assertArrayEquals(JSON, decode(coding, f.body()));
        }
        HttpResponse<byte[]> tiny = get("/stream-tiny", "gzip");
        assertNull(enc(tiny));
        assertEquals("{}", new String(tiny.body(), StandardCharsets.UTF_8));
    }

    @Test
    void aFlushReachesTheClientThroughTheCoding() throws Exception {
        HttpResponse<InputStream> r = client.send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + server.port() + "/events")).header("Accept-Encoding", "gzip").build(),
                HttpResponse.BodyHandlers.ofInputStream());
        assertEquals("gzip", enc(r));
        // Exact reads: a Reader would ask for more than the first event and wait for it.
        try (InputStream events = new GZIPInputStream(r.body(), 64)) {
            assertEquals("data: one\n\n", new String(events.readNBytes(11), StandardCharsets.UTF_8));
            firstEventSeen.countDown();
            assertEquals("data: two\n\n", new String(events.readAllBytes(), StandardCharsets.UTF_8));
        }
    }
}
