package org.loommpm.cli.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.loommpm.testsupport.Curl;
import org.loommpm.testsupport.RawHttp;

/**
 * Serving a tree with curl against the jar: types, validators and conditional requests, ranges,
 * HEAD, index files, precompressed variants, symlinks, access control, the access log, and path
 * traversal in many spellings with a canary file outside DocumentRoot.
 */
class StaticFilesIT {
    static final String CANARY = "CANARY-5e1f outside DocumentRoot";

    @TempDir
    static Path dir;
    static JarProcess server;
    static String base;
    static byte[] big;

    @BeforeAll
    static void start() throws Exception {
        Path root = Files.createDirectories(dir.resolve("htdocs"));
        Files.writeString(dir.resolve("canary.txt"), CANARY);
        Files.writeString(root.resolve("hello.txt"), "Hello, World!");
        Files.writeString(root.resolve("index.html"), "<h1>index</h1>");
        Files.writeString(root.resolve("style.css"), "body{}");
        Files.writeString(root.resolve("app.js"), "1;");
        Files.writeString(root.resolve("data.json"), "{}");
        Files.writeString(root.resolve("custom.foo"), "foo");
        Files.writeString(root.resolve("unknown.xyz"), "?");
        Files.writeString(root.resolve("page.html"), "identity page");
        Files.writeString(root.resolve("page.html.gz"), "gzip bytes");
        Files.writeString(root.resolve("page.html.br"), "brotli bytes");
        big = new byte[300_000];
        for (int i = 0; i < big.length; i++) {
            big[i] = (byte) ('a' + (i * 7 + i / 13) % 26);
        }
        Files.write(root.resolve("big.bin"), big);
        Files.createDirectories(root.resolve("sub"));
        Files.writeString(root.resolve("sub/a.txt"), "a");
        Files.createSymbolicLink(root.resolve("link-out.txt"), dir.resolve("canary.txt"));
        Files.createSymbolicLink(root.resolve("link-in.txt"), root.resolve("hello.txt"));
        Files.createSymbolicLink(root.resolve("dir-out"), dir);
        Files.writeString(dir.resolve("loom.conf"), """
                Listen 127.0.0.1:0
                DocumentRoot htdocs
                AddType application/x-foo foo
                CustomLog access.log combined
                ErrorLog error.log
                <Location /server-status>
                    SetHandler server-status
                    Require ip 127.0.0.1 ::1
                </Location>
                <Location /sub>
                    Require ip 10.0.0.0/8
                </Location>
                """);
        server = JarProcess.start(dir, "-f", "loom.conf");
        base = "http://127.0.0.1:" + server.port();
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.signal("TERM");
            assertEquals(0, server.waitExit(Duration.ofSeconds(30)));
            server.close();
        }
    }

    private static Curl.Response get(String path, String... extra) throws Exception {
        String[] args = new String[extra.length + 1];
        System.arraycopy(extra, 0, args, 0, extra.length);
        args[extra.length] = base + path;
        return Curl.exchange(args);
    }

    /** The jar carries server-h2 (its service registration survives the shading): h2c works. */
    @Test
    void servesHttp2WithPriorKnowledge() throws Exception {
        Curl.Response r = Curl.exchange("--http2-prior-knowledge", base + "/hello.txt");
        assertEquals(200, r.status());
        assertTrue(r.headers().isEmpty() || r.header("content-type").equals("text/plain"));
        assertEquals("Hello, World!", r.body());
        Curl.Response b = Curl.exchange("--http2-prior-knowledge", base + "/big.bin");
        assertEquals(new String(big, StandardCharsets.ISO_8859_1), b.body());
        Curl.Response range = Curl.exchange("--http2-prior-knowledge", "-H", "Range: bytes=10-19", base + "/big.bin");
        assertEquals(206, range.status());
        assertEquals(new String(big, 10, 10, StandardCharsets.ISO_8859_1), range.body());
    }

    @Test
    void mediaTypes() throws Exception {
        assertEquals("text/plain", get("/hello.txt").header("Content-Type"));
        assertEquals("text/css", get("/style.css").header("Content-Type"));
        assertEquals("text/javascript", get("/app.js").header("Content-Type"));
        assertEquals("application/json", get("/data.json").header("Content-Type"));
        assertEquals("application/x-foo", get("/custom.foo").header("Content-Type"), "AddType");
        assertEquals("application/octet-stream", get("/unknown.xyz").header("Content-Type"));
        assertEquals("text/html", get("/").header("Content-Type"));
    }

    @Test
    void etagAndLastModifiedGive304() throws Exception {
        Curl.Response r = get("/hello.txt");
        assertEquals(200, r.status());
        assertEquals("Hello, World!", r.body());
        String etag = r.header("ETag");
        String lm = r.header("Last-Modified");
        assertTrue(etag.matches("\"[0-9a-f]+-[0-9a-f]+\""), etag);
        Curl.Response inm = get("/hello.txt", "-H", "If-None-Match: " + etag);
        assertEquals(304, inm.status());
        assertEquals("", inm.body());
        assertEquals(etag, inm.header("ETag"));
        assertEquals(304, get("/hello.txt", "-H", "If-None-Match: \"x\", W/" + etag).status(), "weak comparison");
        assertEquals(200, get("/hello.txt", "-H", "If-None-Match: \"other\"").status());
        assertEquals(304, get("/hello.txt", "-H", "If-Modified-Since: " + lm).status());
        assertEquals(200, get("/hello.txt", "-H", "If-Modified-Since: Sat, 01 Jan 2000 00:00:00 GMT").status());
    }

    @Test
    void ifMatchAndIfUnmodifiedSinceGive412() throws Exception {
        String etag = get("/hello.txt").header("ETag");
        assertEquals(412, get("/hello.txt", "-H", "If-Match: \"nope\"").status());
        assertEquals(200, get("/hello.txt", "-H", "If-Match: " + etag).status());
        assertEquals(200, get("/hello.txt", "-H", "If-Match: *").status());
        assertEquals(412, get("/hello.txt", "-H", "If-Unmodified-Since: Sat, 01 Jan 2000 00:00:00 GMT").status());
    }

    @Test
    void singleRange() throws Exception {
        Curl.Response r = get("/hello.txt", "-H", "Range: bytes=0-4");
        assertEquals(206, r.status());
        assertEquals("Hello", r.body());
        assertEquals("bytes 0-4/13", r.header("Content-Range"));
        assertEquals("5", r.header("Content-Length"));
        Curl.Response suffix = get("/hello.txt", "-H", "Range: bytes=-6");
        assertEquals("World!", suffix.body());
        Curl.Response large = get("/big.bin", "-H", "Range: bytes=100000-199999");
        assertEquals(206, large.status());
        assertEquals(new String(big, 100000, 100000, StandardCharsets.ISO_8859_1), large.body(), "sendfile range");
    }

    @Test
    void unsatisfiableRangeGives416() throws Exception {
        Curl.Response r = get("/hello.txt", "-H", "Range: bytes=13-");
        assertEquals(416, r.status());
        assertEquals("bytes */13", r.header("Content-Range"));
        assertEquals(200, get("/hello.txt", "-H", "Range: bytes=5-1").status(), "an invalid range is ignored");
    }

    @Test
    void ifRangeMismatchSendsTheWholeFile() throws Exception {
        Curl.Response r = get("/hello.txt", "-H", "Range: bytes=0-4", "-H", "If-Range: \"stale\"");
        assertEquals(200, r.status());
        assertEquals("Hello, World!", r.body());
        String etag = get("/hello.txt").header("ETag");
        assertEquals(206, get("/hello.txt", "-H", "Range: bytes=0-4", "-H", "If-Range: " + etag).status());
    }

    @Test
    void multipleRangesAreMultipart() throws Exception {
        Curl.Response r = get("/big.bin", "-H", "Range: bytes=0-9,1000-1009");
        assertEquals(206, r.status());
        String ct = r.header("Content-Type");
        assertTrue(ct.startsWith("multipart/byteranges; boundary="), ct);
        String boundary = ct.substring(ct.indexOf('=') + 1);
        String body = r.body();
        assertEquals(Integer.parseInt(r.header("Content-Length")), body.length());
        assertTrue(body.contains("--" + boundary + "\r\nContent-Type: application/octet-stream\r\n"
                + "Content-Range: bytes 0-9/300000\r\n\r\n" + new String(big, 0, 10, StandardCharsets.ISO_8859_1)), body);
        assertTrue(body.contains("Content-Range: bytes 1000-1009/300000\r\n\r\n"
                + new String(big, 1000, 10, StandardCharsets.ISO_8859_1) + "\r\n--" + boundary + "--\r\n"), body);
    }

    @Test
    void headHasTheLengthButNoBody() throws Exception {
        Curl.Response r = get("/hello.txt", "--head");
        assertEquals(200, r.status());
        assertEquals("13", r.header("Content-Length"));
        assertEquals("", r.body());
        assertEquals("300000", get("/big.bin", "--head").header("Content-Length"));
    }

    @Test
    void wholeLargeFileThroughSendfile() throws Exception {
        Curl.Response r = get("/big.bin");
        assertEquals(200, r.status());
        assertEquals(new String(big, StandardCharsets.ISO_8859_1), r.body());
    }

    @Test
    void directoryIndexAndRedirectAndNoListingWithoutIndexes() throws Exception {
        assertEquals("<h1>index</h1>", get("/").body());
        Curl.Response redirect = get("/sub");
        assertEquals(403, redirect.status(), "/sub is behind Require ip 10.0.0.0/8");
        Files.createDirectories(dir.resolve("htdocs/open"));
        Curl.Response open = get("/open");
        assertEquals(301, open.status());
        assertEquals("/open/", open.header("Location"));
        Curl.Response noListing = get("/open/");
        assertEquals(403, noListing.status());
    }

    @Test
    void precompressedSiblings() throws Exception {
        Curl.Response br = get("/page.html", "-H", "Accept-Encoding: gzip, br");
        assertEquals("brotli bytes", br.body());
        assertEquals("br", br.header("Content-Encoding"));
        assertEquals("Accept-Encoding", br.header("Vary"));
        assertEquals("text/html", br.header("Content-Type"));
        Curl.Response gz = get("/page.html", "-H", "Accept-Encoding: gzip");
        assertEquals("gzip bytes", gz.body());
        assertEquals("gzip", gz.header("Content-Encoding"));
        assertFalse(gz.header("ETag").equals(br.header("ETag")));
        Curl.Response none = get("/page.html");
        assertEquals("identity page", none.body());
        assertNull(none.header("Content-Encoding"));
        assertEquals("identity page", get("/page.html", "-H", "Accept-Encoding: br;q=0, gzip;q=0").body());
    }

    @Test
    void symlinksLeavingTheRootAreRefused() throws Exception {
        Curl.Response out = get("/link-out.txt");
        assertEquals(403, out.status());
        assertFalse(out.body().contains(CANARY));
        assertEquals(403, get("/dir-out/canary.txt").status());
        assertEquals("Hello, World!", get("/link-in.txt").body(), "a symlink inside the root is fine");
    }

    @Test
    void methodsOtherThanGetAndHead() throws Exception {
        Curl.Response post = get("/hello.txt", "-X", "POST", "-d", "x");
        assertEquals(405, post.status());
        assertEquals("GET, HEAD, OPTIONS", post.header("Allow"));
        assertEquals(204, get("/hello.txt", "-X", "OPTIONS").status());
    }

    /** A malformed chunked body the 405 never read is a 400 and a close (it was no answer at all). */
    @Test
    void postWithAMalformedChunkSizeIsA400() throws Exception {
        try (RawHttp c = new RawHttp(Integer.parseInt(base.substring(base.lastIndexOf(':') + 1)), 5000)) {
            c.send("POST /index.html HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n");
            RawHttp.Response r = c.read();
            assertEquals(400, r.status());
            assertEquals("close", r.header("Connection"));
            assertTrue(c.closedByServer());
        }
    }

    @Test
    void statusPageForLocalhost() throws Exception {
        Curl.Response r = get("/server-status?auto");
        assertEquals(200, r.status());
        assertTrue(r.body().contains("ParentServerConfigGeneration: 1\n"), r.body());
        assertTrue(Pattern.compile("LoomChild: id=\\d+ generation=1 state=\\S+ accepting=1").matcher(r.body()).find(), r.body());
        assertTrue(r.body().contains("Scoreboard: "), r.body());
        assertEquals(200, get("/server-status/").status());
        assertEquals(200, get("//server-status").status(), "normalized before matching");
        assertEquals(404, get("/server-statusx").status(), "whole segments only");
    }

    @Test
    void accessLogInCombinedFormat() throws Exception {
        get("/hello.txt?q=1", "-A", "TestAgent/1.0 (it)", "-e", "http://referer.example/page");
        get("/missing.txt", "-A", "TestAgent/2.0");
        Path log = dir.resolve("access.log");
        server.awaitFile(log, s -> s.contains("TestAgent/2.0"), Duration.ofSeconds(10));
        List<String> lines = Files.readAllLines(log);
        String date = "\\[\\d{2}/\\w{3}/\\d{4}:\\d{2}:\\d{2}:\\d{2} [+-]\\d{4}\\]";
        assertTrue(lines.stream().anyMatch(l -> l.matches("127\\.0\\.0\\.1 - - " + date
                + " \"GET /hello\\.txt\\?q=1 HTTP/1\\.1\" 200 13 \"http://referer\\.example/page\" \"TestAgent/1\\.0 \\(it\\)\"")),
                String.join("\n", lines));
        assertTrue(lines.stream().anyMatch(l -> l.matches("127\\.0\\.0\\.1 - - " + date
                + " \"GET /missing\\.txt HTTP/1\\.1\" 404 10 \"-\" \"TestAgent/2\\.0\"")), String.join("\n", lines));
    }

    /**
     * Under concurrent load (32 clients on keep-alive connections, 2,048 requests) the access log
     * has exactly one whole line per request, written without a flush: end to end through the
     * writer's shared buffers (their races are stressed in {@code LogStripesTest}).
     */
    @Test
    void accessLogHasOneWholeLinePerRequestUnderConcurrency() throws Exception {
        int clients = 32;
        int each = 64;
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<Integer>> sent = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                int client = c;
                sent.add(pool.submit(() -> {
                    int ok = 0;
                    for (int i = 0; i < each; i++) {
                        HttpRequest rq = HttpRequest.newBuilder(URI.create(base + "/hello.txt?n=" + (client * each + i)))
                                .header("User-Agent", "LoadAgent").build();
                        ok += http.send(rq, HttpResponse.BodyHandlers.ofString()).statusCode() == 200 ? 1 : 0;
                    }
                    return ok;
                }));
            }
            for (Future<Integer> f : sent) {
                assertEquals(each, f.get());
            }
        }
        Path log = dir.resolve("access.log");
        Pattern load = Pattern.compile("127\\.0\\.0\\.1 - - \\[\\d{2}/\\w{3}/\\d{4}:\\d{2}:\\d{2}:\\d{2} [+-]\\d{4}\\]"
                + " \"GET /hello\\.txt\\?n=(\\d+) HTTP/1\\.1\" 200 13 \"-\" \"LoadAgent\"");
        server.awaitFile(log, t -> t.split("LoadAgent", -1).length - 1 >= clients * each, Duration.ofSeconds(20));
        boolean[] seen = new boolean[clients * each];
        for (String line : Files.readAllLines(log)) {
            if (line.contains("LoadAgent")) {
                Matcher m = load.matcher(line);
                assertTrue(m.matches(), "torn or wrong line: " + line);
                int n = Integer.parseInt(m.group(1));
                assertFalse(seen[n], "logged twice: " + line);
                seen[n] = true;
            }
        }
        for (int n = 0; n < seen.length; n++) {
            assertTrue(seen[n], "request " + n + " was not logged");
        }
    }

    /**
     * Path traversal: every spelling must get 400 or 404 and never the canary's content (it lies
     * one level above DocumentRoot). curl sends the paths as written ({@code --path-as-is}).
     */
    @ParameterizedTest
    @ValueSource(strings = {
        "/../canary.txt",
        "/../../canary.txt",
        "/./../canary.txt",
        "//../canary.txt",
        "/sub/../../canary.txt",
        "/sub/./../.././canary.txt",
        "/%2e%2e/canary.txt",
        "/%2E%2E/canary.txt",
        "/.%2e/canary.txt",
        "/%2e./canary.txt",
        "/..%2fcanary.txt",
        "/..%2Fcanary.txt",
        "/%2e%2e%2fcanary.txt",
        "/sub/..%2f..%2fcanary.txt",
        "/..%5ccanary.txt",
        "/..%5Ccanary.txt",
        "/%2e%2e%5ccanary.txt",
        "/..\\canary.txt",
        "/sub\\..\\..\\canary.txt",
        "/%252e%252e/canary.txt",
        "/..%252fcanary.txt",
        "/%c0%ae%c0%ae/canary.txt",
        "/..%c0%afcanary.txt",
        "/%e0%80%ae%e0%80%ae/canary.txt",
        "/%c0%2e%c0%2e/canary.txt",
        "/canary.txt%00.html",
        "/..%00/canary.txt",
        "/..;/canary.txt",
        "/....//canary.txt",
        "/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
        "/sub/%2e%2e/%2e%2e/canary.txt",
    })
    void traversalIsRefused(String target) throws Exception {
        Curl.Response r = get(target, "--path-as-is");
        assertNotNull(r);
        assertTrue(r.status() == 400 || r.status() == 404, target + " -> " + r.status() + " " + r.body());
        assertFalse(r.body().contains(CANARY), target + " revealed the canary");
        assertFalse(r.body().contains("root:"), target + " revealed /etc/passwd");
    }
}
