package org.loommpm.http2.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.loommpm.api.HttpException;
import org.loommpm.api.Router;
import org.loommpm.cors.Cors;
import org.loommpm.staticfiles.StaticFiles;
import org.loommpm.testing.H2c;
import org.loommpm.testing.LoomServerSetup;
import org.loommpm.testing.LoomServerTest;
import org.loommpm.testsupport.Curl;

/**
 * server-core's {@link StaticFiles} and {@link Cors} over HTTP/2 (h2c): the JDK client's
 * upgrade, and curl's prior knowledge for the targets the JDK client would not send as they are.
 * The HTTP/1.1 side is server-core's StaticFilesTest and CorsTest.
 */
@LoomServerTest
class StaticFilesH2cTest {
    private static final Path DIR = files();

    private static Path files() {
        try {
            Path d = Files.createTempDirectory("loom-static-h2c");
            Path assets = Files.createDirectories(d.resolve("assets"));
            Files.writeString(d.resolve("secret.txt"), "secret");
            Files.writeString(assets.resolve("a.txt"), "0123456789");
            Files.writeString(assets.resolve("app.js"), "console.log(1)");
            Files.write(assets.resolve("app.js.gz"), new byte[] {31, -117, 8, 0});
            Files.write(assets.resolve("big.bin"), new byte[300_000]);
            Files.createDirectories(assets.resolve("docs"));
            Files.writeString(assets.resolve("docs/index.html"), "<p>docs</p>");
            return d;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @AfterAll
    static void removeFiles() throws IOException {
        try (Stream<Path> all = Files.walk(DIR)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    @LoomServerSetup
    static Router routes() {
        return new Router()
                .get("/assets/*", StaticFiles.from(DIR.resolve("assets")))
                .get("/fail", (q, s) -> {
                    throw new HttpException(422, "no");
                })
                .filter(Cors.builder().allowOrigins("https://app.test").allowMethods("GET", "PUT")
                        .maxAge(Duration.ofSeconds(30)).build());
    }

    private static HttpResponse<byte[]> get(HttpClient client, URI base, String path, String... headers)
            throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path));
        if (headers.length > 0) {
            b.headers(headers);
        }
        HttpResponse<byte[]> r = client.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(HttpClient.Version.HTTP_2, r.version());
        return r;
    }

    @Test
    void filesConditionalsRangesAndSiblings(@H2c HttpClient client, URI base) throws Exception {
        HttpResponse<byte[]> a = get(client, base, "/assets/a.txt");
        assertEquals("0123456789", new String(a.body()));
        String etag = a.headers().firstValue("etag").orElseThrow();
        assertEquals(304, get(client, base, "/assets/a.txt", "If-None-Match", etag).statusCode());
        HttpResponse<byte[]> range = get(client, base, "/assets/a.txt", "Range", "bytes=-3");
        assertEquals(206, range.statusCode());
        assertEquals("789", new String(range.body()));
        assertEquals(416, get(client, base, "/assets/a.txt", "Range", "bytes=50-").statusCode());
        HttpResponse<byte[]> gz = get(client, base, "/assets/app.js", "Accept-Encoding", "gzip");
        assertEquals("gzip", gz.headers().firstValue("content-encoding").orElseThrow());
        assertArrayEquals(new byte[] {31, -117, 8, 0}, gz.body());
        assertEquals(300_000, get(client, base, "/assets/big.bin").body().length, "sent from the file");
        assertEquals("<p>docs</p>", new String(get(client, base, "/assets/docs/").body()));
        HttpResponse<byte[]> dir = get(client, base, "/assets/docs");
        assertEquals(301, dir.statusCode());
        assertEquals("/assets/docs/", dir.headers().firstValue("location").orElseThrow());
    }

    @Test
    void corsPreflightAndErrorsOverH2(@H2c HttpClient client, URI base) throws Exception {
        HttpResponse<byte[]> pre = client.send(HttpRequest.newBuilder(base.resolve("/assets/a.txt"))
                .method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                .headers("Origin", "https://app.test", "Access-Control-Request-Method", "PUT").build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(204, pre.statusCode());
        assertEquals("GET, PUT", pre.headers().firstValue("access-control-allow-methods").orElseThrow());
        assertEquals("30", pre.headers().firstValue("access-control-max-age").orElseThrow());
        HttpResponse<byte[]> fail = get(client, base, "/fail", "Origin", "https://app.test");
        assertEquals(422, fail.statusCode());
        assertEquals("https://app.test", fail.headers().firstValue("access-control-allow-origin").orElseThrow());
        assertEquals(List.of("Origin"), fail.headers().allValues("vary"));
    }

    @Test
    void traversalIsRefusedOverH2(URI base) throws Exception {
        assumeTrue(Curl.available(), "curl is not installed");
        for (String target : List.of("/assets/../secret.txt", "/assets/%2e%2e/secret.txt", "/assets/..%2fsecret.txt",
                "/assets/..%5csecret.txt", "/assets/docs%2findex.html")) {
            Curl.Response r = Curl.exchange("--http2-prior-knowledge", "--path-as-is", base.resolve("/") + target.substring(1));
            assertEquals(0, r.exit(), target);
            assertTrue(r.status() == 400 || r.status() == 404, target + " -> " + r.status());
            assertFalse(r.body().contains("secret"), target);
        }
        Curl.Response ok = Curl.exchange("--http2-prior-knowledge", base.resolve("/assets/a.txt").toString());
        assertEquals(200, ok.status());
    }
}
