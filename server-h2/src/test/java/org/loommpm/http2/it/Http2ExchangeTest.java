package org.loommpm.http2.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Random;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.loommpm.api.Handler;
import org.loommpm.server.LoomServer;
import org.loommpm.testing.H2c;
import org.loommpm.testing.LoomServerSetup;
import org.loommpm.testing.LoomServerTest;

/**
 * Requests and responses over h2c: the frame client, the JDK client (Upgrade: h2c) and curl
 * (prior knowledge). The server is the embedded one ({@code LoomServer}, HTTP/2 found by
 * ServiceLoader), one per class, from loom-mpm-testing's extension.
 */
@LoomServerTest
class Http2ExchangeTest {
    static final byte[] BIG = new byte[1 << 20];
    private final LoomServer server;

    static {
        new Random(7).nextBytes(BIG);
    }

    /** What a byte written after the response stream's close met. */
    static final java.util.concurrent.CompletableFuture<String> AFTER_CLOSE = new java.util.concurrent.CompletableFuture<>();

    static final Handler APP = (req, res) -> {
        switch (req.path()) {
            case "/hello" -> res.header("X-Proto", req.protocol()).send("Hello, " + req.method());
            case "/echo" -> res.send(req.bodyBytes());
            case "/big" -> res.send(BIG);
            case "/stream" -> {
                try (OutputStream out = res.outputStream()) {
                    for (int i = 0; i < BIG.length; i += 1000) {
                        out.write(BIG, i, Math.min(1000, BIG.length - i));
                    }
                }
            }
            case "/sha" -> res.send(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(req.bodyBytes())));
            case "/fail" -> throw new IllegalStateException("boom (expected by the test)");
            case "/empty" -> res.status(204).send(new byte[0]);
            case "/write-after-close" -> {
                OutputStream out = res.outputStream();
                out.write('a');
                out.close();
                try {
                    out.write('b');
                    AFTER_CLOSE.complete("taken");
                } catch (java.io.IOException e) {
                    AFTER_CLOSE.complete("refused");
                }
            }
            default -> res.send(404, "no");
        }
    };

    Http2ExchangeTest(LoomServer server) {
        this.server = server;
    }

    @LoomServerSetup
    static Handler app(LoomServer.Builder builder) {
        builder.configure(c -> c.threadsPerChild(64).gracefulShutdownTimeout(Duration.ofSeconds(10)));
        return APP;
    }

    @Test
    void getWithFrameClient() throws Exception {
        try (FrameClient c = FrameClient.open(server.port())) {
            c.headers(1, true, FrameClient.get("/hello"));
            FrameClient.Response r = c.response(1);
            assertEquals(200, r.status());
            assertEquals("Hello, GET", r.text());
            assertEquals("HTTP/2.0", r.headers().get("x-proto"));
            assertEquals("10", r.headers().get("content-length"));
        }
    }

    /** A byte written after close() is refused, as a byte array is: the response ended with what came before. */
    @Test
    void aByteWrittenAfterCloseIsRefused() throws Exception {
        try (FrameClient c = FrameClient.open(server.port())) {
            c.headers(1, true, FrameClient.get("/write-after-close"));
            assertEquals("a", c.response(1).text());
            assertEquals("refused", AFTER_CLOSE.get(10, java.util.concurrent.TimeUnit.SECONDS));
        }
    }

    /** {@code :path *} (RFC 9113 §8.3.1) asks about the server: answered without the handler (which says 404). */
    @Test
    void optionsAsteriskIsAnsweredByTheServer() throws Exception {
        try (FrameClient c = FrameClient.open(server.port())) {
            c.headers(1, true, ":method", "OPTIONS", ":scheme", "http", ":path", "*", ":authority", "x");
            FrameClient.Response r = c.response(1);
            assertEquals(200, r.status());
            assertEquals("GET, HEAD, POST, PUT, DELETE, PATCH, OPTIONS", r.headers().get("allow"));
            assertEquals("0", r.headers().get("content-length"));
            assertEquals(0, r.body().length);
        }
    }

    @Test
    void manyStreamsOnOneConnection() throws Exception {
        try (FrameClient c = FrameClient.open(server.port())) {
            for (int i = 0; i < 20; i++) {
                c.headers(1 + 2 * i, true, FrameClient.get("/hello"));
            }
            for (int i = 0; i < 20; i++) {
                assertEquals("Hello, GET", c.response(1 + 2 * i).text());
            }
        }
    }

    @Test
    void postBodyIsEchoedAcrossWindowUpdates() throws Exception {
        byte[] body = new byte[200_000];
        new Random(1).nextBytes(body);
        try (FrameClient c = FrameClient.open(server.port())) {
            c.headers(1, false, ":method", "POST", ":scheme", "http", ":path", "/echo", ":authority", "x",
                    "content-length", Integer.toString(body.length));
            // The server announced a 65535-byte stream window: send within it, then wait for updates.
            int sent = 0;
            long window = 65_535;
            while (sent < body.length) {
                while (window == 0) {
                    FrameClient.Frame f = c.expect(FrameClient.WINDOW_UPDATE);
                    if (f.stream() == 1) {
                        window += f.int32(0);
                    }
                }
                int n = (int) Math.min(Math.min(16_384, window), body.length - sent);
                byte[] chunk = java.util.Arrays.copyOfRange(body, sent, sent + n);
                c.data(1, chunk, sent + n == body.length);
                sent += n;
                window -= n;
            }
            FrameClient.Response r = c.response(1);
            assertEquals(200, r.status());
            assertArrayEquals(body, r.body());
        }
    }

    @Test
    void expectContinueGets100BeforeTheBody() throws Exception {
        try (FrameClient c = FrameClient.open(server.port())) {
            c.headers(1, false, ":method", "POST", ":scheme", "http", ":path", "/echo", ":authority", "x",
                    "expect", "100-continue");
            FrameClient.Frame interim = c.expect(FrameClient.HEADERS);
            assertEquals(1, interim.stream());
            assertTrue(!interim.has(FrameClient.END_STREAM), "an interim response");
            c.data(1, "body".getBytes(java.nio.charset.StandardCharsets.US_ASCII), true);
            FrameClient.Response r = c.response(1);
            assertEquals(200, r.status());
            assertEquals("body", r.text());
        }
    }

    @Test
    void largeResponsesHonourTheClientWindow() throws Exception {
        try (FrameClient c = FrameClient.open(server.port())) {
            c.headers(1, true, FrameClient.get("/big"));
            c.headers(3, true, FrameClient.get("/stream"));
            assertArrayEquals(BIG, c.response(1).body());
            assertArrayEquals(BIG, c.response(3).body());
        }
    }

    @Test
    void handlerFailureIs500AndConnectionGoesOn() throws Exception {
        try (FrameClient c = FrameClient.open(server.port())) {
            c.headers(1, true, FrameClient.get("/fail"));
            assertEquals(500, c.response(1).status());
            c.headers(3, true, FrameClient.get("/empty"));
            FrameClient.Response r = c.response(3);
            assertEquals(204, r.status());
            assertEquals(0, r.body().length);
        }
    }

    @Test
    void jdkClientUpgradesWithH2c(@H2c HttpClient client, URI base) throws Exception {
        HttpResponse<String> first = client.send(HttpRequest.newBuilder(base.resolve("/hello")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(HttpClient.Version.HTTP_2, first.version());
        assertEquals("Hello, GET", first.body());
        assertEquals("HTTP/2.0", first.headers().firstValue("x-proto").orElseThrow());
        HttpResponse<byte[]> big = client.send(HttpRequest.newBuilder(base.resolve("/big")).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(HttpClient.Version.HTTP_2, big.version());
        assertArrayEquals(BIG, big.body());
        HttpResponse<String> sha = client.send(HttpRequest.newBuilder(base.resolve("/sha"))
                .POST(HttpRequest.BodyPublishers.ofByteArray(BIG)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(BIG)), sha.body());
    }

    @Test
    void nghttpPriorKnowledgeUpgradeAndUpload() throws Exception {
        Tools.assumeInstalled("nghttp");
        String base = "http://127.0.0.1:" + server.port();
        Tools.Result get = Tools.run("nghttp", base + "/hello");
        assertEquals(0, get.exitCode(), get.stderr());
        assertEquals("Hello, GET", get.stdout());
        Tools.Result upgrade = Tools.run("nghttp", "-u", base + "/hello");
        assertEquals(0, upgrade.exitCode(), upgrade.stderr());
        assertEquals("Hello, GET", upgrade.stdout());
        java.nio.file.Path file = java.nio.file.Files.createTempFile("h2-upload", ".bin");
        try {
            java.nio.file.Files.write(file, BIG);
            Tools.Result sha = Tools.run("nghttp", "-d", file.toString(), base + "/sha");
            assertEquals(0, sha.exitCode(), sha.stderr());
            assertEquals(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(BIG)), sha.stdout());
        } finally {
            java.nio.file.Files.delete(file);
        }
        Tools.Result many = Tools.run("nghttp", "-n", "-m", "20", base + "/big");
        assertEquals(0, many.exitCode(), many.stderr());
    }

    @Test
    void curlWithPriorKnowledge() throws Exception {
        Tools.assumeInstalled("curl");
        Tools.Result r = Tools.run("curl", "-s", "--http2-prior-knowledge", "-w", "\n%{http_version}",
                "http://127.0.0.1:" + server.port() + "/hello");
        assertEquals(0, r.exitCode(), r.stderr());
        assertEquals("Hello, GET\n2", r.stdout());
        Tools.Result sha = Tools.run("curl", "-s", "--http2-prior-knowledge",
                "http://127.0.0.1:" + server.port() + "/big", "-o", "/dev/null", "-w", "%{size_download}");
        assertEquals(Integer.toString(BIG.length), sha.stdout());
        java.nio.file.Path file = java.nio.file.Files.createTempFile("h2-curl", ".bin");
        try {
            java.nio.file.Files.write(file, BIG);
            Tools.Result upload = Tools.run("curl", "-s", "--http2-prior-knowledge", "--data-binary", "@" + file,
                    "http://127.0.0.1:" + server.port() + "/sha");
            assertEquals(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(BIG)), upload.stdout());
        } finally {
            java.nio.file.Files.delete(file);
        }
        assertTrue(server.stats().requests() >= 3);
    }
}
