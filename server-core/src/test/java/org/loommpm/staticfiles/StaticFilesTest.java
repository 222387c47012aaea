package org.loommpm.staticfiles;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.api.Handler;
import org.loommpm.api.Router;
import org.loommpm.cors.Cors;
import org.loommpm.server.LoomServer;
import org.loommpm.testsupport.RawHttp;
import org.loommpm.testsupport.TestServers;

/**
 * {@link StaticFiles} embedded, through a real server and clients: mounted under a router's
 * {@code /assets/*}, or as the whole server's handler. The HTTP semantics themselves are the
 * jar's (StaticFileHandlerTest, FileCacheTest, the jar's StaticFilesIT); this shows them through
 * the public entry point, and what mounting adds: the rest of the path, redirects and listings
 * naming the mount, traversal refused.
 */
class StaticFilesTest {
    @TempDir
    Path tmp;
    private Path assets;
    private byte[] big;
    private final HttpClient client = HttpClient.newHttpClient();
    private LoomServer server;

    @BeforeEach
    void files() throws Exception {
        assets = Files.createDirectories(tmp.resolve("assets"));
        Files.writeString(tmp.resolve("secret.txt"), "secret");
        Files.writeString(assets.resolve("a.txt"), "0123456789");
        Files.writeString(assets.resolve("site.css"), "body{}");
        Files.writeString(assets.resolve("data.json"), "{}");
        Files.writeString(assets.resolve("logo.PNG"), "png");
        Files.writeString(assets.resolve("blob.unknownext"), "?");
        Files.writeString(assets.resolve("notes.md"), "# hi");
        Files.writeString(assets.resolve("app.js"), "console.log(1)");
        Files.write(assets.resolve("app.js.gz"), new byte[] {31, -117, 8, 0});
        Files.write(assets.resolve("app.js.br"), new byte[] {11, 2, -128});
        Files.createDirectories(assets.resolve("docs"));
        Files.writeString(assets.resolve("docs/index.html"), "<p>docs</p>");
        Files.createDirectories(assets.resolve("empty"));
        Files.writeString(assets.resolve("empty/<b>.txt"), "x");
        big = new byte[200_000];
        new Random(54).nextBytes(big);
        Files.write(assets.resolve("big.bin"), big);
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private void mount(StaticFiles files) throws Exception {
        server = TestServers.start(new Router().get("/assets/*", files).get("/api", (q, s) -> s.send("api")));
    }

    private void serve(Handler handler) throws Exception {
        server = TestServers.start(handler);
    }

    private HttpResponse<byte[]> get(String path, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private static String text(HttpResponse<byte[]> r) {
        return new String(r.body(), StandardCharsets.UTF_8);
    }

    private static String field(HttpResponse<?> r, String name) {
        List<String> all = r.headers().allValues(name);
        return all.isEmpty() ? null : String.join(", ", all);
    }

    private RawHttp.Response raw(String target) throws Exception {
        try (RawHttp raw = new RawHttp(server.port())) {
            return raw.send("GET " + target + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").read();
        }
    }

    @Test
    void aFileUnderTheMountWithItsValidators() throws Exception {
        mount(StaticFiles.from(assets));
        HttpResponse<byte[]> r = get("/assets/a.txt");
        assertEquals(200, r.statusCode());
        assertEquals("0123456789", text(r));
        assertEquals("text/plain", field(r, "Content-Type"));
        assertTrue(field(r, "ETag").startsWith("\""), field(r, "ETag"));
        assertTrue(field(r, "Last-Modified").endsWith(" GMT"));
        assertEquals("bytes", field(r, "Accept-Ranges"));
        assertNull(field(r, "Cache-Control"));
        assertEquals("api", text(get("/api")), "the router's other routes are untouched");
        assertEquals(404, get("/assets/missing.txt").statusCode());
        assertEquals(404, get("/assets").statusCode(), "/assets/* does not match /assets");
    }

    @Test
    void etagAndDateConditionalsAnswer304() throws Exception {
        mount(StaticFiles.from(assets));
        HttpResponse<byte[]> first = get("/assets/a.txt");
        String etag = field(first, "ETag");
        HttpResponse<byte[]> nm = get("/assets/a.txt", "If-None-Match", "\"other\", " + etag);
        assertEquals(304, nm.statusCode());
        assertEquals(etag, field(nm, "ETag"));
        assertEquals(0, nm.body().length);
        assertEquals(304, get("/assets/a.txt", "If-Modified-Since", field(first, "Last-Modified")).statusCode());
        assertEquals(200, get("/assets/a.txt", "If-None-Match", "\"other\"").statusCode());
        assertEquals(412, get("/assets/a.txt", "If-Match", "\"other\"").statusCode());
    }

    @Test
    void rangesGive206MultipartAnd416() throws Exception {
        mount(StaticFiles.from(assets));
        HttpResponse<byte[]> one = get("/assets/a.txt", "Range", "bytes=2-4");
        assertEquals(206, one.statusCode());
        assertEquals("234", text(one));
        assertEquals("bytes 2-4/10", field(one, "Content-Range"));
        HttpResponse<byte[]> two = get("/assets/a.txt", "Range", "bytes=0-0,-2");
        assertEquals(206, two.statusCode());
        assertTrue(field(two, "Content-Type").startsWith("multipart/byteranges; boundary="));
        assertTrue(text(two).contains("Content-Range: bytes 8-9/10\r\n\r\n89"), text(two));
        HttpResponse<byte[]> none = get("/assets/a.txt", "Range", "bytes=10-");
        assertEquals(416, none.statusCode());
        assertEquals("bytes */10", field(none, "Content-Range"));
        HttpResponse<byte[]> stale = get("/assets/a.txt", "Range", "bytes=2-4", "If-Range", "\"old\"");
        assertEquals(200, stale.statusCode(), "If-Range with another tag: the whole file");
        HttpResponse<byte[]> far = get("/assets/big.bin", "Range", "bytes=100000-100009");
        assertEquals(206, far.statusCode(), "a large file's range, sent from the file");
        byte[] expected = new byte[10];
        System.arraycopy(big, 100_000, expected, 0, 10);
        assertArrayEquals(expected, far.body());
        assertArrayEquals(big, get("/assets/big.bin").body());
    }

    @Test
    void precompressedSiblingsByAcceptEncoding() throws Exception {
        mount(StaticFiles.from(assets));
        HttpResponse<byte[]> gz = get("/assets/app.js", "Accept-Encoding", "gzip");
        assertEquals("gzip", field(gz, "Content-Encoding"));
        assertArrayEquals(new byte[] {31, -117, 8, 0}, gz.body());
        assertEquals("text/javascript", field(gz, "Content-Type"), "the file's type, not the sibling's");
        assertEquals("Accept-Encoding", field(gz, "Vary"));
        HttpResponse<byte[]> br = get("/assets/app.js", "Accept-Encoding", "gzip, deflate, br");
        assertEquals("br", field(br, "Content-Encoding"));
        assertNotEquals(field(gz, "ETag"), field(br, "ETag"), "each representation its own tag");
        HttpResponse<byte[]> refused = get("/assets/app.js", "Accept-Encoding", "br;q=0, gzip;q=0, identity");
        assertNull(field(refused, "Content-Encoding"));
        assertEquals("console.log(1)", text(refused));
        assertEquals("gzip", field(get("/assets/app.js", "Accept-Encoding", "br;q=0, *"), "Content-Encoding"));
        assertNull(field(get("/assets/app.js"), "Content-Encoding"));
    }

    @Test
    void precompressedSiblingsCanBeTurnedOff() throws Exception {
        mount(StaticFiles.builder(assets).precompressed(false).build());
        HttpResponse<byte[]> r = get("/assets/app.js", "Accept-Encoding", "gzip, br");
        assertNull(field(r, "Content-Encoding"));
        assertNull(field(r, "Vary"), "nothing varies by Accept-Encoding then");
        assertEquals("console.log(1)", text(r));
    }

    @Test
    void directoriesRedirectToTheMountedPathThenIndexOrListing() throws Exception {
        mount(StaticFiles.from(assets));
        RawHttp.Response redirect = raw("/assets/docs?x=1");
        assertEquals(301, redirect.status());
        assertEquals("/assets/docs/?x=1", redirect.header("Location"), "the request's path, mount included");
        assertEquals("<p>docs</p>", text(get("/assets/docs/")));
        assertEquals(403, get("/assets/empty/").statusCode(), "no index, no listing");
        assertEquals(403, get("/assets/").statusCode());
        server.close();
        mount(StaticFiles.builder(assets).directoryListing(true).indexFiles().build());
        HttpResponse<byte[]> listing = get("/assets/empty/");
        assertEquals(200, listing.statusCode());
        assertTrue(text(listing).contains("<title>Index of /assets/empty/</title>"), text(listing));
        assertTrue(text(listing).contains("&lt;b&gt;.txt") && !text(listing).contains("<b>"), text(listing));
        assertTrue(text(get("/assets/docs/")).contains("index.html"), "no index files: listed");
    }

    @Test
    void traversalIsRefused() throws Exception {
        mount(StaticFiles.from(assets));
        for (String target : List.of("/assets/../secret.txt", "/assets/%2e%2e/secret.txt", "/assets/%2E%2E/secret.txt",
                "/assets/..%2fsecret.txt", "/assets/..%2Fsecret.txt", "/assets/%2e%2e%2fsecret.txt",
                "/assets/..%5csecret.txt", "/assets/..\\secret.txt", "/assets/%252e%252e/secret.txt",
                "/assets/docs/../../secret.txt", "/../secret.txt", "/assets/%2e%2e%5csecret.txt",
                "/assets/a.txt%00", "/assets/%c0%ae%c0%ae/secret.txt")) {
            RawHttp.Response r = raw(target);
            assertTrue(r.status() == 400 || r.status() == 404, target + " -> " + r.status());
            assertFalse(r.text().contains("secret"), target);
        }
        assertEquals(404, raw("/assets/docs%2findex.html").status(), "an encoded slash: 404, as httpd's default");
        assertEquals(200, raw("/assets/docs/./index.html").status(), "a harmless dot segment is resolved");
    }

    @Test
    void symlinksStayInsideUnlessFollowed() throws Exception {
        Files.createSymbolicLink(assets.resolve("out.txt"), tmp.resolve("secret.txt"));
        Files.createSymbolicLink(assets.resolve("in.txt"), assets.resolve("a.txt"));
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        Files.writeString(outside.resolve("f.txt"), "outside");
        Files.createSymbolicLink(assets.resolve("linked"), outside);
        mount(StaticFiles.builder(assets).directoryListing(true).build());
        assertEquals(403, get("/assets/out.txt").statusCode());
        assertEquals(403, get("/assets/linked/f.txt").statusCode());
        assertEquals("0123456789", text(get("/assets/in.txt")), "a link inside the directory is fine");
        assertFalse(text(get("/assets/")).contains("out.txt"), "a refused link is not listed");
        server.close();
        mount(StaticFiles.builder(assets).followSymlinks(true).build());
        assertEquals("secret", text(get("/assets/out.txt")));
        assertEquals("outside", text(get("/assets/linked/f.txt")));
    }

    @Test
    void mediaTypesBuiltInAndConfigured() throws Exception {
        mount(StaticFiles.builder(assets).mimeType("MD", "text/markdown; charset=UTF-8").build());
        assertEquals("text/css", field(get("/assets/site.css"), "Content-Type"));
        assertEquals("application/json", field(get("/assets/data.json"), "Content-Type"));
        assertEquals("image/png", field(get("/assets/logo.PNG"), "Content-Type"), "extensions without regard to case");
        assertEquals("application/octet-stream", field(get("/assets/blob.unknownext"), "Content-Type"));
        assertEquals("text/markdown; charset=UTF-8", field(get("/assets/notes.md"), "Content-Type"));
    }

    @Test
    void cacheControlOnFileAnswersOnly() throws Exception {
        mount(StaticFiles.builder(assets).cacheControl("max-age=60").fileCacheValid(Duration.ZERO).build());
        HttpResponse<byte[]> r = get("/assets/a.txt");
        assertEquals("max-age=60", field(r, "Cache-Control"));
        assertEquals("max-age=60", field(get("/assets/a.txt", "If-None-Match", field(r, "ETag")), "Cache-Control"));
        assertEquals("max-age=60", field(get("/assets/a.txt", "Range", "bytes=0-1"), "Cache-Control"));
        assertNull(field(get("/assets/missing"), "Cache-Control"));
        assertNull(field(get("/assets/a.txt", "Range", "bytes=99-"), "Cache-Control"));
    }

    @Test
    void headSendsTheLengthOnly() throws Exception {
        mount(StaticFiles.from(assets));
        try (RawHttp raw = new RawHttp(server.port())) {
            RawHttp.Response r = raw.send("HEAD /assets/big.bin HTTP/1.1\r\nHost: x\r\n\r\n").readHead();
            assertEquals(200, r.status());
            assertEquals("200000", r.header("Content-Length"));
            assertEquals(200, raw.send("GET /assets/a.txt HTTP/1.1\r\nHost: x\r\n\r\n").read().status(),
                    "no body was sent: the connection goes on");
        }
    }

    @Test
    void theWholeServersHandler() throws Exception {
        serve(StaticFiles.from(assets));
        assertEquals("0123456789", text(get("/a.txt")));
        assertEquals("<p>docs</p>", text(get("/docs/")));
        assertEquals("/docs/", raw("/docs").header("Location"));
        assertEquals(405, client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/a.txt"))
                .POST(HttpRequest.BodyPublishers.ofString("x")).build(), HttpResponse.BodyHandlers.ofString())
                .statusCode());
        assertEquals(400, raw("/../secret.txt").status());
    }

    @Test
    void underACorsFilterBothVaryTokensStay() throws Exception {
        server = TestServers.start(new Router().get("/assets/*", StaticFiles.from(assets))
                .filter(Cors.builder().allowOrigins("https://app.test").build()));
        HttpResponse<byte[]> r = get("/assets/app.js", "Origin", "https://app.test", "Accept-Encoding", "gzip");
        assertEquals("Origin, Accept-Encoding", field(r, "Vary"));
        assertEquals("https://app.test", field(r, "Access-Control-Allow-Origin"));
        assertEquals("gzip", field(r, "Content-Encoding"));
    }

    @Test
    void aMissingDirectoryFailsAtBuild() {
        assertThrows(IllegalArgumentException.class, () -> StaticFiles.from(tmp.resolve("nope")));
        assertThrows(IllegalArgumentException.class, () -> StaticFiles.from(tmp.resolve("secret.txt")));
        assertThrows(IllegalArgumentException.class, () -> StaticFiles.builder(assets).indexFiles("../x"));
        assertThrows(IllegalArgumentException.class, () -> StaticFiles.builder(assets).mimeType(".md", "text/x"));
        assertThrows(IllegalArgumentException.class, () -> StaticFiles.builder(assets).mimeType("md", "text"));
    }
}
