package org.loommpm.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.api.HttpException;
import org.loommpm.server.LoomServer;
import org.loommpm.api.Router;
import org.loommpm.testsupport.Curl;
import org.loommpm.testsupport.TestServers;

/** The JDK's HttpClient and curl against a running server with a Router. */
class RealClientsTest {
    private static LoomServer server;
    private static HttpClient client;

    @BeforeAll
    static void start() throws Exception {
        Router router = new Router()
                .get("/hello", (req, res) -> res.send("Hello"))
                .post("/echo", (req, res) -> res.send(req.bodyBytes()))
                .get("/search", (req, res) -> res.send("q=" + req.queryParam("q") + " tag=" + req.queryParams().get("tag")
                        + " missing=" + req.queryParam("missing")))
                .get("/users/{id}/posts/{post}", (req, res) ->
                        res.send("user=" + req.pathParam("id") + " post=" + req.pathParam("post")))
                .get("/items/{id}", (req, res) -> res.send("item " + req.pathParam("id")))
                .post("/items/{id}", (req, res) -> res.send("posted " + req.pathParam("id")))
                .get("/ten", (req, res) -> res.send("0123456789"))
                .get("/boom", (req, res) -> {
                    throw new IllegalStateException("secret internal detail 12345");
                })
                .get("/teapot", (req, res) -> {
                    throw new HttpException(418, "short and stout");
                })
                .post("/upload", (req, res) -> {
                    CRC32 crc = new CRC32();
                    byte[] buf = new byte[8192];
                    long len = 0;
                    try (InputStream in = req.body()) {
                        for (int n; (n = in.read(buf)) >= 0; ) {
                            crc.update(buf, 0, n);
                            len += n;
                        }
                    }
                    res.send("te=" + req.header("Transfer-Encoding") + " cl=" + req.contentLength() + " len=" + len
                            + " crc=" + crc.getValue());
                });
        server = TestServers.start(router);
        client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
    }

    @AfterAll
    static void stop() {
        client.close();
        server.close();
    }

    private static URI uri(String pathAndQuery) {
        return URI.create("http://127.0.0.1:" + server.port() + pathAndQuery);
    }

    private static HttpResponse<String> get(String path) throws Exception {
        return client.send(HttpRequest.newBuilder(uri(path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    // ---- JDK HttpClient ----

    @Test
    void get() throws Exception {
        HttpResponse<String> r = get("/hello");
        assertEquals(200, r.statusCode());
        assertEquals("Hello", r.body());
        assertEquals(HttpClient.Version.HTTP_1_1, r.version());
        assertEquals("text/plain; charset=UTF-8", r.headers().firstValue("Content-Type").orElseThrow());
        assertEquals("5", r.headers().firstValue("Content-Length").orElseThrow());
        assertEquals("loom-mpm", r.headers().firstValue("Server").orElseThrow());
        assertTrue(r.headers().firstValue("Date").isPresent());
    }

    @Test
    void postEchoOneMegabyte() throws Exception {
        byte[] body = new byte[1024 * 1024];
        new Random(7).nextBytes(body);
        HttpResponse<byte[]> r = client.send(HttpRequest.newBuilder(uri("/echo"))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, r.statusCode());
        assertEquals(String.valueOf(body.length), r.headers().firstValue("Content-Length").orElseThrow());
        assertArrayEquals(body, r.body());
    }

    @Test
    void keepAliveReusesOneConnection() throws Exception {
        try (HttpClient own = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            long before = server.stats().connectionsAccepted();
            for (int i = 0; i < 50; i++) {
                HttpResponse<String> r = own.send(HttpRequest.newBuilder(uri("/items/" + i)).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(200, r.statusCode());
                assertEquals("item " + i, r.body());
            }
            long used = server.stats().connectionsAccepted() - before;
            assertEquals(1, used, "50 sequential requests should share one keep-alive connection");
        }
    }

    @Test
    void queryAndPathParameters() throws Exception {
        assertEquals("q=a b tag=[x, y] missing=null", get("/search?q=a%20b&tag=x&tag=y").body());
        assertEquals("user=42 post=hello world", get("/users/42/posts/hello%20world").body());
    }

    @Test
    void notFoundAndMethodNotAllowed() throws Exception {
        HttpResponse<String> nf = get("/nope");
        assertEquals(404, nf.statusCode());
        assertEquals("Not Found\n", nf.body());
        HttpResponse<String> na = client.send(HttpRequest.newBuilder(uri("/items/7")).DELETE().build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(405, na.statusCode());
        assertEquals("GET, HEAD, POST, OPTIONS", na.headers().firstValue("Allow").orElseThrow());
        assertEquals("Method Not Allowed\n", na.body());
    }

    @Test
    void headHasContentLengthAndNoBody() throws Exception {
        HttpResponse<byte[]> r = client.send(HttpRequest.newBuilder(uri("/ten")).HEAD().build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, r.statusCode());
        assertEquals("10", r.headers().firstValue("Content-Length").orElseThrow());
        assertEquals(0, r.body().length);
        // The connection stayed in sync: a GET right after gets the real body.
        assertEquals("0123456789", get("/ten").body());
    }

    @Test
    void handlerExceptionIs500WithoutInternals() throws Exception {
        HttpResponse<String> r = get("/boom");
        assertEquals(500, r.statusCode());
        assertEquals("Internal Server Error\n", r.body());
        assertFalse(r.body().contains("secret") || r.body().contains("IllegalState"));
        r.headers().map().forEach((k, v) -> assertFalse(v.toString().contains("secret"), k));
    }

    @Test
    void httpExceptionGivesItsStatus() throws Exception {
        HttpResponse<String> r = get("/teapot");
        assertEquals(418, r.statusCode());
        assertFalse(r.body().contains("stout"));
    }

    // ---- curl ----

    private static String url(String path) {
        return "http://127.0.0.1:" + server.port() + path;
    }

    @Test
    void curlGet() throws Exception {
        assumeTrue(Curl.available(), "curl not installed");
        Curl.Result r = Curl.run("-o", "-", "-w", "\n%{http_code} %{http_version}", url("/hello"));
        assertEquals(0, r.exitCode(), r.stderr());
        assertEquals("Hello\n200 1.1", r.text());
    }

    @Test
    void curlPostDataBinary() throws Exception {
        assumeTrue(Curl.available(), "curl not installed");
        Curl.Result r = Curl.run("-o", "-", "-w", "\n%{http_code}", "--data-binary", "line one\nline two",
                url("/echo"));
        assertEquals(0, r.exitCode(), r.stderr());
        assertEquals("line one\nline two\n200", r.text());
    }

    @Test
    void curlHead() throws Exception {
        assumeTrue(Curl.available(), "curl not installed");
        Curl.Result r = Curl.run("-I", url("/ten"));
        assertEquals(0, r.exitCode(), r.stderr());
        String out = r.text();
        assertTrue(out.startsWith("HTTP/1.1 200 OK\r\n"), out);
        assertTrue(out.contains("\r\nContent-Length: 10\r\n"), out);
        assertTrue(out.endsWith("\r\n\r\n"), "no body after the head: " + out);
    }

    /** HTTP/1.0: closed after each response unless the client asks for keep-alive. */
    @Test
    void curlHttp10KeepAliveHandling() throws Exception {
        assumeTrue(Curl.available(), "curl not installed");
        long before = server.stats().connectionsAccepted();
        List<String[]> plain = http10Twice();
        assertEquals(2, server.stats().connectionsAccepted() - before);
        for (String[] t : plain) {
            assertEquals("1", t[0], "a new connection per request");
            assertTrue(t[1].startsWith("HTTP/1.1 200 OK\r\n"), t[1]);
            assertTrue(t[1].contains("\r\nConnection: close\r\n"), t[1]);
        }
        before = server.stats().connectionsAccepted();
        List<String[]> ka = http10Twice("-H", "Connection: keep-alive");
        assertEquals(1, server.stats().connectionsAccepted() - before);
        assertEquals("1", ka.get(0)[0]);
        assertEquals("0", ka.get(1)[0], "the second request reuses the connection");
        for (String[] t : ka) {
            assertTrue(t[1].contains("\r\nConnection: keep-alive\r\n"), t[1]);
            assertTrue(t[1].contains("\r\nContent-Length: 5\r\n"), t[1]);
        }
    }

    /** Two GETs of /hello in one curl run; per transfer: {num_connects, response head}. */
    private static List<String[]> http10Twice(String... extra) throws Exception {
        List<String> args = new java.util.ArrayList<>(List.of("--http1.0", "-D", "-", "-o", "/dev/null", "-o",
                "/dev/null", "-w", "=%{num_connects}=\n"));
        args.addAll(List.of(extra));
        args.add(url("/hello"));
        args.add(url("/hello"));
        Curl.Result r = Curl.run(args.toArray(String[]::new));
        assertEquals(0, r.exitCode(), r.stderr());
        Matcher m = Pattern.compile("(?s)(.*?)=(\\d+)=\n").matcher(r.text());
        List<String[]> out = new java.util.ArrayList<>();
        while (m.find()) {
            out.add(new String[] {m.group(2), m.group(1)});
        }
        assertEquals(2, out.size(), r.text());
        return out;
    }

    @Test
    void curlChunkedUpload(@TempDir Path dir) throws Exception {
        assumeTrue(Curl.available(), "curl not installed");
        byte[] body = new byte[300_000];
        new Random(3).nextBytes(body);
        Path file = dir.resolve("upload.bin");
        Files.write(file, body);
        CRC32 crc = new CRC32();
        crc.update(body);
        Curl.Result r = Curl.run("-o", "-", "-w", "\n%{http_code}", "-H", "Transfer-Encoding: chunked",
                "--data-binary", "@" + file, url("/upload"));
        assertEquals(0, r.exitCode(), r.stderr());
        assertEquals("te=chunked cl=-1 len=" + body.length + " crc=" + crc.getValue() + "\n200", r.text());
    }
}
