package org.loommpm.cli.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.testsupport.Curl;

/**
 * Compression from the jar, as a newcomer would configure it: {@code AddOutputFilterByType} with
 * both filters, curl {@code --compressed} (gzip and br, HTTP/1.1 and h2c), the JDK client over
 * h2c, precompressed files winning, ranges left alone, the access log counting coded bytes, and
 * compression set per {@code <Location>} (merged over the server level, the inner section winning).
 */
class CompressionIT {
    @TempDir
    static Path dir;
    static JarProcess server;
    static String base;
    static String page;

    @BeforeAll
    static void start() throws Exception {
        Path root = Files.createDirectories(dir.resolve("htdocs"));
        StringBuilder sb = new StringBuilder("<html><body>");
        for (int i = 0; i < 2000; i++) {
            sb.append("<p class=\"row\">row ").append(i).append(" of the table</p>\n");
        }
        page = sb.append("</body></html>").toString();
        Files.writeString(root.resolve("page.html"), page);
        Files.writeString(root.resolve("pre.html"), page);
        Files.writeString(root.resolve("pre.html.gz"), "precompressed gzip bytes");
        Files.writeString(root.resolve("small.html"), "<p>hi</p>");
        String css = ".row { color: red; }\n".repeat(500);
        Files.writeString(root.resolve("a.css"), css);
        Files.createDirectories(root.resolve("css/sub"));
        Files.createDirectories(root.resolve("nocompress"));
        Files.writeString(root.resolve("css/a.css"), css);
        Files.writeString(root.resolve("css/page.html"), page);
        Files.writeString(root.resolve("css/small.html"), "<p>hi</p>");
        Files.writeString(root.resolve("css/sub/a.css"), css);
        Files.writeString(root.resolve("nocompress/page.html"), page);
        Files.writeString(dir.resolve("loom.conf"), """
                Listen 127.0.0.1:0
                DocumentRoot htdocs
                AddOutputFilterByType BROTLI_COMPRESS;DEFLATE text/html text/plain
                DeflateCompressionLevel 6
                BrotliCompressionQuality 5
                CustomLog access.log "%%U %%b"
                ErrorLog error.log
                <Location /css/>
                    AddOutputFilterByType DEFLATE text/css
                    CompressionMinimumSize 5
                </Location>
                <Location /css/sub/>
                    SetOutputFilter none
                </Location>
                <Location /nocompress>
                    SetOutputFilter none
                </Location>
                """.formatted());
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

    @Test
    void curlCompressedGzipAndBrotliOverHttp1AndH2c() throws Exception {
        for (String proto : new String[] {"--http1.1", "--http2-prior-knowledge"}) {
            Curl.Response br = Curl.exchange(proto, "--compressed", base + "/page.html");
            assertEquals(200, br.status());
            assertEquals("br", br.header("content-encoding"), proto);
            assertEquals(page, br.body());
            assertTrue(br.header("etag").startsWith("W/\""), br.header("etag"));
            Curl.Response gz = Curl.exchange(proto, "--compressed", "-H", "Accept-Encoding: gzip", base + "/page.html");
            assertEquals("gzip", gz.header("content-encoding"), proto);
            assertEquals(page, gz.body());
            assertEquals("Accept-Encoding", gz.header("vary"));
        }
        Curl.Response plain = Curl.exchange(base + "/page.html");
        assertNull(plain.header("content-encoding"));
        assertEquals(page, plain.body());
        // The access log's %b is what went on the wire: the coded size.
        server.awaitFile(dir.resolve("access.log"), s -> s.lines().anyMatch(l -> l.startsWith("/page.html ")
                && Long.parseLong(l.substring(l.indexOf(' ') + 1)) < page.length() / 4), Duration.ofSeconds(10));
    }

    @Test
    void jdkClientOverH2cDecodesGzip() throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
        HttpResponse<byte[]> r = client.send(HttpRequest.newBuilder(URI.create(base + "/page.html"))
                .header("Accept-Encoding", "gzip").build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals("gzip", r.headers().firstValue("content-encoding").orElseThrow());
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(r.body()))) {
            assertEquals(page, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    @Test
    void precompressedFilesWinAndRangesAndTinyFilesAreLeftAlone() throws Exception {
        Curl.Result pre = Curl.run("-H", "Accept-Encoding: gzip, br", base + "/pre.html");
        assertEquals("precompressed gzip bytes", pre.text(), "the .gz sibling, not a dynamic br");
        Curl.Response range = Curl.exchange("--compressed", "-H", "Range: bytes=0-9", base + "/page.html");
        assertEquals(206, range.status());
        assertNull(range.header("content-encoding"));
        assertEquals(page.substring(0, 10), range.body());
        Curl.Response small = Curl.exchange("--compressed", base + "/small.html");
        assertNull(small.header("content-encoding"), "below CompressionMinimumSize");
        Curl.Response smallHead = Curl.exchange("--head", "-H", "Accept-Encoding: gzip, br", base + "/small.html");
        assertNull(smallHead.header("content-encoding"), "a HEAD below CompressionMinimumSize");
    }

    @Test
    void aStaticFilesHeadCarriesTheCodedGetsHeaders() throws Exception {
        Curl.Response get = Curl.exchange("-H", "Accept-Encoding: gzip, br", base + "/page.html");
        Curl.Response head = Curl.exchange("--head", "-H", "Accept-Encoding: gzip, br", base + "/page.html");
        assertEquals(200, head.status());
        for (String name : new String[] {"content-encoding", "etag", "vary", "content-type"}) {
            assertEquals(get.header(name), head.header(name), name);
        }
        // The coded length is known only by coding the file: the HEAD leaves it out (RFC 9110 9.3.2).
        assertNull(head.header("content-length"), "no length of the uncoded file for a coded variant");
    }

    @Test
    void compressionSetPerLocationMergesOverTheServerLevel() throws Exception {
        // Server level: text/css is not compressed.
        assertNull(Curl.exchange("--compressed", base + "/a.css").header("content-encoding"));
        // <Location /css/> adds text/css (gzip) to the inherited types; html keeps br and gzip.
        Curl.Response css = Curl.exchange("--compressed", base + "/css/a.css");
        assertEquals("gzip", css.header("content-encoding"));
        assertEquals(".row { color: red; }\n".repeat(500), css.body());
        assertEquals("br", Curl.exchange("--compressed", base + "/css/page.html").header("content-encoding"));
        // Its CompressionMinimumSize (5) applies there only: a 9-byte page is compressed in /css/ alone.
        assertEquals("br", Curl.exchange("--compressed", base + "/css/small.html").header("content-encoding"));
        assertNull(Curl.exchange("--compressed", base + "/small.html").header("content-encoding"));
        // The inner <Location /css/sub/> turns every filter off; so does /nocompress for html.
        assertNull(Curl.exchange("--compressed", base + "/css/sub/a.css").header("content-encoding"));
        Curl.Response none = Curl.exchange("--compressed", base + "/nocompress/page.html");
        assertNull(none.header("content-encoding"));
        assertEquals(page, none.body());
        HttpResponse<byte[]> jdk = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create(base + "/css/a.css")).header("Accept-Encoding", "gzip").build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertEquals("gzip", jdk.headers().firstValue("content-encoding").orElseThrow());
    }
}
