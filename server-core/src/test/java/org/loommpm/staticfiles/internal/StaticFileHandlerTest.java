package org.loommpm.staticfiles.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.http.HttpDate;

/** Static files through a real server and client: the HTTP semantics httpd and RFC 9110 give. */
class StaticFileHandlerTest {
    @TempDir
    Path dir;
    private Path root;
    private SiteServer site;

    private void start(Duration valid) throws Exception {
        site = new SiteServer(dir, true, valid);
        root = site.root;
    }

    @AfterEach
    void stop() {
        if (site != null) {
            site.close();
        }
    }

    private HttpResponse<String> get(String path, String... headers) throws Exception {
        return site.get(path, headers);
    }

    private String raw(String request) throws Exception {
        try (Socket s = new Socket("127.0.0.1", site.port())) {
            s.setSoTimeout(3000);
            OutputStream out = s.getOutputStream();
            out.write(request.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    @Test
    void aFileWithATrailingSlashIsNotFound() throws Exception {
        start(Duration.ofHours(1));
        Files.writeString(root.resolve("a.txt"), "a");
        assertEquals(200, get("/a.txt").statusCode());
        assertEquals(404, get("/a.txt/").statusCode(), "httpd: a file is not a directory");
        assertEquals(404, get("/a.txt/.").statusCode());
        assertEquals(200, get("/a.txt").statusCode());
    }

    /**
     * A name longer than the file system takes (ENAMETOOLONG: a segment over 255 bytes, a path
     * over 4096) is the client's doing: httpd answers 403 ("access to ... failed"), not a 500
     * with a stack trace in the error log for every such request. An alias's tree is served the
     * same way.
     */
    @Test
    void aNameTooLongForTheFileSystemIsForbiddenNotAServerError() throws Exception {
        start(Duration.ofHours(1));
        assertEquals(403, get("/" + "a".repeat(300)).statusCode());
        assertEquals(403, get("/" + "a/".repeat(2500) + "x").statusCode());
        assertEquals(404, get("/" + "a".repeat(200)).statusCode(), "a name of allowed length is just missing");
    }

    @Test
    void lastModifiedInTheFutureIsReplacedByTheDate() throws Exception {
        start(Duration.ZERO);
        Path a = Files.writeString(root.resolve("a.txt"), "a");
        Files.setLastModifiedTime(a, FileTime.from(Instant.now().plus(Duration.ofDays(365))));
        HttpResponse<String> r = get("/a.txt");
        long lm = HttpDate.parse(r.headers().firstValue("Last-Modified").orElseThrow());
        long date = HttpDate.parse(r.headers().firstValue("Date").orElseThrow());
        assertTrue(lm <= date, "RFC 9110 §8.8.2.1: Last-Modified no later than Date");
    }

    @Test
    void headAndNotModifiedHeads() throws Exception {
        start(Duration.ZERO);
        Files.writeString(root.resolve("a.txt"), "hello");
        String head = raw("HEAD /a.txt HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        assertTrue(head.contains("Content-Length: 5\r\n"), head);
        String etag = get("/a.txt").headers().firstValue("ETag").orElseThrow();
        String nm = raw("GET /a.txt HTTP/1.1\r\nHost: x\r\nIf-None-Match: " + etag + "\r\nConnection: close\r\n\r\n");
        assertTrue(nm.startsWith("HTTP/1.1 304"), nm);
        assertTrue(nm.contains("ETag: " + etag), nm);
        assertFalse(nm.contains("Content-Length: 0"), nm);
        String post = raw("POST /a.txt HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
        assertTrue(post.startsWith("HTTP/1.1 405") && post.contains("Allow: GET, HEAD, OPTIONS"), post);
        String h412 = raw("HEAD /a.txt HTTP/1.1\r\nHost: x\r\nIf-Match: \"x\"\r\nConnection: close\r\n\r\n");
        assertTrue(h412.startsWith("HTTP/1.1 412") && h412.endsWith("\r\n\r\n"), h412);
    }

    @Test
    void rangesOnEmptyAndHugeBounds() throws Exception {
        start(Duration.ZERO);
        Files.writeString(root.resolve("a.txt"), "0123456789");
        HttpResponse<String> r = get("/a.txt", "Range", "bytes=2-99999999999999999999");
        assertEquals(206, r.statusCode(), "a last-pos beyond the end is clamped (RFC 9110 §14.1.2)");
        assertEquals("23456789", r.body());
        assertEquals(416, get("/a.txt", "Range", "bytes=99999999999999999999-").statusCode());
    }

    @Test
    void directoryRedirectKeepsTheQuery() throws Exception {
        start(Duration.ZERO);
        Files.createDirectories(root.resolve("d"));
        String r = raw("GET /d?x=1&y=%3C HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        assertTrue(r.startsWith("HTTP/1.1 301") && r.contains("Location: /d/?x=1&y=%3C\r\n"), r);
    }

    @Test
    void listingEscapesHostileNames() throws Exception {
        start(Duration.ZERO);
        Files.createDirectories(root.resolve("d"));
        Files.writeString(root.resolve("d/<img src=x onerror=alert(1)>.txt"), "x");
        Files.writeString(root.resolve("d/\"'><b>.txt"), "x");
        String body = get("/d/").body();
        assertFalse(body.contains("<img") || body.contains("<b>"), body);
    }

    @Test
    void aSuffixRangeOfAnEmptyFileSendsItWhole() throws Exception {
        start(Duration.ZERO);
        Files.writeString(root.resolve("empty.txt"), "");
        assertEquals(200, get("/empty.txt", "Range", "bytes=-5").statusCode(),
                "RFC 9110 §14.1.1: a non-zero suffix range is satisfiable even on an empty file");
        assertEquals(416, get("/empty.txt", "Range", "bytes=0-").statusCode());
    }

    @Test
    void listingHidesSymlinksItWouldRefuse() throws Exception {
        start(Duration.ZERO);
        Files.createDirectories(root.resolve("d"));
        Files.writeString(dir.resolve("secret.txt"), "0123456789012345678901234567");
        Files.createSymbolicLink(root.resolve("d/out.txt"), dir.resolve("secret.txt"));
        assertEquals(403, get("/d/out.txt").statusCode());
        String body = get("/d/").body();
        assertFalse(body.contains("out.txt") || body.contains(">28<"), body);
    }
}
