package org.loommpm.http2.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.api.Router;
import org.loommpm.multipart.MultipartLimits;
import org.loommpm.multipart.Part;
import org.loommpm.server.LoomServer;
import org.loommpm.testsupport.Curl;
import org.loommpm.testsupport.MultipartBody;
import org.loommpm.testsupport.TestServers;
import static org.loommpm.testsupport.PartDigests.describe;
import static org.loommpm.testsupport.PartDigests.line;
import static org.loommpm.testsupport.PartDigests.random;
import static org.loommpm.testsupport.PartDigests.streamed;

/**
 * Issue 54's request toolkit over h2c: {@code Request.attributes()} per stream (a filter sets, the
 * handler reads, the next stream on the same connection starts empty, concurrent streams do not
 * mix), {@code form()}, and {@code multipart()} streamed and stored, from the JDK's client and
 * curl {@code -F}; the spool directory empty after a stored upload, also when the client resets
 * the stream mid-upload. server-core's {@code RequestAttributesTest}, {@code FormRequestTest} and
 * {@code MultipartUploadTest} are the HTTP/1.1 side.
 */
class ToolkitH2cTest {
    @TempDir
    static Path spool;

    private static LoomServer server;
    private static HttpClient client;
    private static final AtomicReference<String> outcome = new AtomicReference<>();

    @BeforeAll
    static void start() throws Exception {
        MultipartLimits spooling = MultipartLimits.DEFAULTS.withSpoolDirectory(spool).withSpoolThreshold(1024);
        Router router = new Router()
                .filter((req, res, next) -> {
                    String before = String.valueOf(req.attributes().keySet());
                    if (req.header("x-user") != null) {
                        req.attributes().put("user", req.header("x-user"));
                    }
                    req.attributes().put("before", before);
                    next.handle(req, res);
                })
                .get("/who", (req, res) -> {
                    Thread.sleep(20); // concurrent streams overlap
                    res.send(req.protocol() + " user=" + req.attributes().get("user") + " before="
                            + req.attributes().get("before"));
                })
                .post("/form", (req, res) -> res.send(req.protocol() + " " + req.form().asMap()))
                .post("/parts", (req, res) -> res.send(streamed(req.multipart())))
                .post("/spooled", (req, res) -> {
                    try {
                        StringBuilder b = new StringBuilder();
                        for (Part p : req.multipart(spooling).readAll()) {
                            b.append(describe(p, p.content())).append('\n');
                        }
                        outcome.set("ok");
                        res.send(b.toString());
                    } catch (Exception e) {
                        outcome.set(e.toString());
                        throw e;
                    }
                });
        server = TestServers.start(router, c -> c.limitRequestBody(0));
        client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
        // The JDK's client upgrades its first request (without a body) to h2c; the rest ride that connection.
        HttpResponse<String> first = client.send(HttpRequest.newBuilder(uri("/who")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(HttpClient.Version.HTTP_2, first.version());
    }

    @AfterAll
    static void stop() {
        client.close();
        server.close();
    }

    private static URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.port() + path);
    }

    @Test
    void attributesBelongToOneStream() throws Exception {
        HttpResponse<String> alice = client.send(HttpRequest.newBuilder(uri("/who")).header("X-User", "alice").build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals("HTTP/2.0 user=alice before=[]", alice.body());
        HttpResponse<String> next = client.send(HttpRequest.newBuilder(uri("/who")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals("HTTP/2.0 user=null before=[]", next.body(), "the next stream of the same connection");
        List<CompletableFuture<HttpResponse<String>>> concurrent = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            HttpRequest.Builder r = HttpRequest.newBuilder(uri("/who"));
            if (i % 2 == 0) {
                r.header("X-User", "u" + i);
            }
            concurrent.add(client.sendAsync(r.build(), HttpResponse.BodyHandlers.ofString()));
        }
        for (int i = 0; i < 20; i++) {
            assertEquals("HTTP/2.0 user=" + (i % 2 == 0 ? "u" + i : "null") + " before=[]", concurrent.get(i).join().body());
        }
    }

    @Test
    void aFormOverH2c() throws Exception {
        HttpResponse<String> r = client.send(HttpRequest.newBuilder(uri("/form"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("a=1&b=x+y&a=%E2%82%AC")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals("HTTP/2.0 {a=[1, €], b=[x y]}", r.body());
        HttpResponse<String> bad = client.send(HttpRequest.newBuilder(uri("/form"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("a=%G1")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(400, bad.statusCode());
        assertEquals(HttpClient.Version.HTTP_2, bad.version());
    }

    @Test
    void theJdkClientUploadsOverH2c() throws Exception {
        byte[] file = random(2 * 1024 * 1024 + 5, 1);
        MultipartBody body = new MultipartBody().field("title", "Hi").file("file", "f.bin", "application/octet-stream", file);
        HttpResponse<String> r = client.send(HttpRequest.newBuilder(uri("/parts")).header("Content-Type", body.contentType())
                .POST(HttpRequest.BodyPublishers.ofByteArray(body.build())).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(HttpClient.Version.HTTP_2, r.version());
        assertEquals(line("title", "null", "Hi".getBytes(StandardCharsets.UTF_8)) + "\n" + line("file", "f.bin", file)
                + "\n", r.body());
        HttpResponse<String> stored = client.send(HttpRequest.newBuilder(uri("/spooled"))
                .header("Content-Type", body.contentType())
                .POST(HttpRequest.BodyPublishers.ofByteArray(body.build())).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(r.body(), stored.body());
        assertSpoolEmpty();
    }

    @Test
    void curlUploadsOverH2cWithPriorKnowledge(@TempDir Path dir) throws Exception {
        assumeTrue(Curl.available(), "curl is not installed");
        byte[] file = random(300_000, 2);
        Path f = dir.resolve("notes.txt");
        Files.write(f, file);
        Curl.Response r = Curl.exchange("--http2-prior-knowledge", "-F", "title=Notes", "-F", "file=@" + f,
                "http://127.0.0.1:" + server.port() + "/spooled");
        assertEquals(200, r.status(), r.body());
        assertEquals(line("title", "null", "Notes".getBytes(StandardCharsets.UTF_8)) + "\n"
                + line("file", "notes.txt", file) + "\n", r.body());
        assertSpoolEmpty();
    }

    @Test
    void theSpoolIsEmptyAfterTheClientResetsTheStreamMidUpload() throws Exception {
        outcome.set(null);
        MultipartBody body = new MultipartBody().file("a", "a", "x/y", random(300_000, 3))
                .file("b", "b", "x/y", random(2_000_000, 4));
        byte[] all = body.build();
        CountDownLatch release = new CountDownLatch(1);
        InputStream half = new InputStream() {
            private int sent;

            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (sent >= all.length / 2) {
                    try {
                        release.await(); // the rest never comes: the request is cancelled meanwhile
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    throw new IOException("cancelled");
                }
                int n = Math.min(len, all.length / 2 - sent);
                System.arraycopy(all, sent, b, off, n);
                sent += n;
                return n;
            }
        };
        CompletableFuture<HttpResponse<String>> upload = client.sendAsync(HttpRequest.newBuilder(uri("/spooled"))
                .header("Content-Type", body.contentType())
                .POST(HttpRequest.BodyPublishers.fromPublisher(HttpRequest.BodyPublishers.ofInputStream(() -> half),
                        all.length)).build(), HttpResponse.BodyHandlers.ofString());
        try {
            TestServers.waitFor("a spooled file", 10, () -> spoolFiles() > 0);
            upload.cancel(true); // the JDK's client resets the stream
        } finally {
            release.countDown();
        }
        TestServers.waitFor("the handler's end", 10, () -> outcome.get() != null);
        assertNotEquals("ok", outcome.get());
        assertSpoolEmpty();
        // The connection serves on.
        assertEquals(200, client.send(HttpRequest.newBuilder(uri("/who")).build(), HttpResponse.BodyHandlers.ofString())
                .statusCode());
    }

    private static long spoolFiles() {
        try (Stream<Path> s = Files.list(spool)) {
            return s.count();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void assertSpoolEmpty() throws InterruptedException {
        TestServers.waitFor("an empty spool directory", 5, () -> spoolFiles() == 0);
        assertTrue(spoolFiles() == 0);
    }
}
