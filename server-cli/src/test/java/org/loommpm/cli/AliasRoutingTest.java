package org.loommpm.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.loommpm.server.LoomServer;

/**
 * mod_alias through a real server started from configuration text, with the JDK's HttpClient
 * (which does not follow redirects): each directive, whole-segment matching, the query,
 * back-references, aliases served like DocumentRoot (and as safely), and the order httpd gives
 * {@code Require}, {@code ProxyPass}, {@code SetHandler}, redirects and aliases.
 */
class AliasRoutingTest {
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final String SECRET = "the secret beside the alias";

    @TempDir
    Path dir;

    private LoomServer backend;
    private SiteServer server;

    @BeforeEach
    void tree() throws Exception {
        backend = LoomServer.builder().listen("127.0.0.1", 0)
                .handler((req, res) -> res.send("backend " + req.rawTarget())).start();
        Files.createDirectories(dir.resolve("htdocs/older"));
        Files.writeString(dir.resolve("htdocs/index.html"), "home");
        Files.writeString(dir.resolve("htdocs/older/page.txt"), "older page");
        Files.createDirectories(dir.resolve("outside"));
        Files.writeString(dir.resolve("outside/secret.txt"), SECRET);
        Files.createDirectories(dir.resolve("assets/sub"));
        Files.writeString(dir.resolve("assets/index.html"), "assets index");
        Files.writeString(dir.resolve("assets/a.txt"), "asset a");
        Files.writeString(dir.resolve("assets/sub/index.html"), "sub index");
        Files.writeString(dir.resolve("assets/style.css"), "body { color: red }");
        try (OutputStream gz = new GZIPOutputStream(Files.newOutputStream(dir.resolve("assets/style.css.gz")))) {
            gz.write("body { color: red }".getBytes(StandardCharsets.UTF_8));
        }
        Files.write(dir.resolve("assets/big.bin"), new byte[100_000]);
        Files.createSymbolicLink(dir.resolve("assets/link-out"), dir.resolve("outside/secret.txt"));
        Files.createDirectories(dir.resolve("assets-private"));
        Files.writeString(dir.resolve("assets-private/x.txt"), "private");
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
        backend.close();
    }

    private void start(String config) throws Exception {
        server = SiteServer.start(dir, "DocumentRoot htdocs\n" + config);
    }

    private HttpResponse<String> get(String target, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + target));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String location(HttpResponse<?> r) {
        return r.headers().firstValue("Location").orElse(null);
    }

    private String origin() {
        return "http://127.0.0.1:" + server.port();
    }

    /** The status line and head of a request sent exactly as written (no client normalizing it). */
    private String raw(String target) throws Exception {
        try (Socket s = new Socket("127.0.0.1", server.port())) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(("GET " + target + " HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = s.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    @Test
    void redirectTakesWholeSegmentsAndAppendsTheRestAndTheQuery() throws Exception {
        start("""
                Redirect /old https://example.com/new
                Redirect permanent /docs/ https://docs.example.com/v2/
                Redirect /q https://example.com/target?fixed=1
                """);
        HttpResponse<String> r = get("/old");
        assertEquals(302, r.statusCode());
        assertEquals("https://example.com/new", location(r));
        assertEquals(Optional.of("text/html; charset=UTF-8"), r.headers().firstValue("Content-Type"));
        assertTrue(r.body().contains("<a href=\"https://example.com/new\">here</a>"), r.body());
        assertTrue(r.body().contains("<title>302 Found</title>"), r.body());
        assertEquals("https://example.com/new/a/b.html?x=1&y=%20", location(get("/old/a/b.html?x=1&y=%20")));
        assertTrue(raw("/old?").contains("\r\nLocation: https://example.com/new?\r\n"),
                "an empty query is carried too");
        HttpResponse<String> older = get("/older/page.txt");
        assertEquals(200, older.statusCode(), "/old does not take /older");
        assertEquals("older page", older.body());
        assertEquals(404, get("/oldx").statusCode());

        // An encoded ';' begins path parameters like a plain one (RequestPath), as httpd forwards it.
        assertEquals("https://example.com/new/a%20b/c;d;e+f%C3%A9", location(get("/old/a%20b/c%3Bd;e+f%C3%A9")),
                "the rest, with the client's path parameters");
        assertTrue(raw("/old/x/../y%20z/.//w").contains("\r\nLocation: https://example.com/new/y%20z/w\r\n"),
                "a path the server normalized: the normalized rest, encoded again");
        assertTrue(raw("/old/%2e%2e/%2e%2e/etc").startsWith("HTTP/1.1 400"),
                "climbing above the root is refused first");

        assertEquals(301, get("/docs/guide").statusCode());
        assertEquals("https://docs.example.com/v2/guide", location(get("/docs/guide")));
        assertEquals(404, get("/docs").statusCode(), "a URL-path ending in / needs the slash");
        assertEquals("https://example.com/target?fixed=1", location(get("/q?dropped=1")),
                "a URL with its own query does not get the request's");
        assertEquals("https://example.com/target/x?fixed=1", location(get("/q/x")),
                "the rest goes into the URL's path, before its query (httpd: after it)");
    }

    /**
     * A URL with a {@code #fragment} gets the request's query before it: after it, the query
     * would be part of the fragment (RFC 3986 §3.5), which no browser sends, so it would be lost.
     */
    @Test
    void theRequestsQueryGoesBeforeTheURLsFragment() throws Exception {
        start("""
                Redirect /frag https://example.com/new#top
                Redirect /fq https://example.com/new#a?b
                RedirectMatch ^/m/([a-z]+)$ https://example.com/page#$1
                <Location /sec>
                    Redirect https://example.com/page#top
                </Location>
                """);
        assertEquals("https://example.com/new/x?q=1#top", location(get("/frag/x?q=1")));
        assertEquals("https://example.com/new/x#top", location(get("/frag/x")));
        assertEquals("https://example.com/new?q=1#a?b", location(get("/fq?q=1")),
                "a ? inside the fragment is no query of the URL's");
        assertEquals("https://example.com/page?q=1#abc", location(get("/m/abc?q=1")));
        assertEquals("https://example.com/page?q=1#top", location(get("/sec/x?q=1")));
    }

    @Test
    void statusesPathsAndTheShorthands() throws Exception {
        start("""
                RedirectPermanent /perm https://example.com/p
                RedirectTemp /tmp /elsewhere
                Redirect seeother /see /other/place
                Redirect 308 /keep https://example.com/kept
                Redirect gone /gone
                Redirect 451 /legal
                Redirect / https://example.com
                """);
        assertEquals(301, get("/perm/x").statusCode());
        assertEquals("https://example.com/p/x", location(get("/perm/x")));
        HttpResponse<String> tmp = get("/tmp/y?z=1");
        assertEquals(302, tmp.statusCode());
        assertEquals(origin() + "/elsewhere/y?z=1", location(tmp), "a path made absolute from the request's Host");
        assertTrue(raw("/see").contains("\r\nLocation: http://h/other/place\r\n"));
        assertEquals(303, get("/see").statusCode());
        assertEquals(308, get("/keep").statusCode());
        HttpResponse<String> gone = get("/gone/page");
        assertEquals(410, gone.statusCode());
        assertEquals(Optional.empty(), gone.headers().firstValue("Location"));
        assertTrue(gone.body().contains("<title>410 Gone</title>") && gone.body().contains("no longer available"),
                gone.body());
        assertEquals(451, get("/legal").statusCode());
        assertEquals("https://example.com/anything/else", location(get("/anything/else")),
                "Redirect / https://example.com: the rest is not glued to the host");
    }

    @Test
    void redirectMatchBackReferencesAndTheHostStaysWritten() throws Exception {
        start("""
                RedirectMatch ^/img/(.*)\\.gif$ https://cdn.example.com/img/$1.png
                RedirectMatch 301 (.*)\\.jpg$ https://other.example.com$1.webp
                RedirectMatch ^/go(.*)$ https://example.com$1
                RedirectMatch ^/s/([^/]+)$ https://example.com/search?q=$1
                RedirectMatch ^/to(/.*)$ $1
                RedirectMatch ^/bad(.*)$ $1
                RedirectMatch gone ^/old-(\\d+)$
                """);
        assertEquals("https://cdn.example.com/img/a/b.png", location(get("/img/a/b.gif")));
        assertEquals("https://cdn.example.com/img/x%20y.png?v=2", location(get("/img/x%20y.gif?v=2")),
                "a group is decoded path text: encoded again, and the query carried");
        HttpResponse<String> jpg = get("/photos/cat.jpg");
        assertEquals(301, jpg.statusCode());
        assertEquals("https://other.example.com/photos/cat.webp", location(jpg));
        assertEquals("https://example.com/x", location(get("/go/x")));
        assertEquals("https://example.com", location(get("/go")));
        for (String sneaky : new String[] {"/go.evil.net/x", "/go@evil.net/", "/go:8443/x"}) {
            HttpResponse<String> r = get(sneaky);
            assertEquals(500, r.statusCode(), sneaky + " must not choose the host: " + location(r));
            assertEquals(null, location(r));
        }
        assertEquals("https://example.com/search?q=a%26b%3Dc", location(get("/s/a&b=c")),
                "a group cannot add query parameters");
        assertEquals(origin() + "/x/y", location(get("/to/x/y")));
        assertEquals(origin() + "/evil.net/x", location(get("/to//evil.net/x")),
                "the path is normalized before it is matched: a group never starts with //");
        assertEquals(500, get("/bad-not-a-path").statusCode(), "a URL that is a group must come out a path");
        assertEquals(410, get("/old-42").statusCode());
        assertEquals(404, get("/old-x").statusCode());
    }

    /**
     * PCRE gives up after its match limit (httpd: no match); Java's regex has no limit, so an
     * expression that backtracks is given up after a bounded number of characters read.
     */
    @Test
    void aBacktrackingExpressionGivesUpAsNoMatch() throws Exception {
        Path errors = dir.resolve("error_log");
        start("ErrorLog %s\nRedirectMatch ^/(.*a){12}$ https://example.com/\n".formatted(errors));
        long started = System.nanoTime();
        // Polynomial backtracking (JDK 9+ memoizes the exponential (a+)+): minutes without the bound.
        HttpResponse<String> r = get("/" + "a".repeat(60) + "b");
        long millis = (System.nanoTime() - started) / 1_000_000;
        assertEquals(404, r.statusCode(), "no match: DocumentRoot's 404");
        assertTrue(millis < 5_000, "given up in " + millis + " ms");
        assertEquals("https://example.com/", location(get("/" + "a".repeat(12))));
        server.close();
        server = null;
        String log = Files.readString(errors);
        // Line 5: after SiteServer's two lines, DocumentRoot and ErrorLog.
        assertTrue(log.contains("LM1107") && log.contains("line 5 of "), log);
    }

    /**
     * Java's regex recurses once per repetition of a group, so a repeated group over a long path
     * overflows the stack long before it reads a million characters: that is given up as no match
     * too (PCRE's recursion limit, for httpd), not a 500 with a thousand-frame stack trace in the
     * error log for every such request.
     */
    @Test
    void anExpressionThatRecursesTooDeeplyGivesUpAsNoMatch() throws Exception {
        Path errors = dir.resolve("error_log");
        // No DocumentRoot: what no rule takes is 404 without a look at the disk.
        server = SiteServer.start(dir, """
                ErrorLog %1$s
                RedirectMatch ^/(a|b)*$ https://example.com/
                AliasMatch ^/(x/|y/)*(c)$ %2$s/assets/a.txt
                """.formatted(errors, dir));
        HttpResponse<String> r = get("/" + "ab".repeat(4000));
        assertEquals(404, r.statusCode(), "RedirectMatch: no match");
        assertEquals(404, get("/" + "x/".repeat(4000) + "c").statusCode(), "AliasMatch: no match either");
        assertEquals("https://example.com/", location(get("/abab")));
        assertEquals("asset a", get("/x/x/c").body());
        server.close();
        server = null;
        String log = Files.readString(errors);
        // Lines 4 and 5: after SiteServer's two lines and ErrorLog.
        assertTrue(log.contains("LM1107") && log.contains("line 4 of ") && log.contains("line 5 of "), log);
        assertFalse(log.contains("StackOverflowError"), "no stack trace: " + log.length() + " characters");
    }

    @Test
    void redirectInsideLocationSendsTheWholeSection() throws Exception {
        start("""
                <Location /moved>
                    Redirect permanent https://example.com/moved-here
                </Location>
                <Location /moved/keep>
                    Redirect /kept
                </Location>
                <Location /retired>
                    Redirect gone
                </Location>
                """);
        HttpResponse<String> r = get("/moved/any/thing?z=1");
        assertEquals(301, r.statusCode());
        assertEquals("https://example.com/moved-here?z=1", location(r), "nothing appended but the query");
        assertEquals("https://example.com/moved-here", location(get("/moved")));
        assertEquals(404, get("/movedx").statusCode());
        HttpResponse<String> inner = get("/moved/keep/x");
        assertEquals(302, inner.statusCode(), "the later section wins");
        assertEquals(origin() + "/kept", location(inner));
        assertEquals(410, get("/retired/x").statusCode());
    }

    @Test
    void requireApliesToTheRequestedPathBeforeAnyRedirect() throws Exception {
        start("""
                <Location /admin>
                    Require ip 192.0.2.1
                </Location>
                <Location /private>
                    Require all denied
                    Redirect https://example.com/private
                </Location>
                Redirect /admin https://example.com/admin
                RedirectMatch ^/adm(in)?/ https://example.com/match
                Alias /admin/files assets
                """);
        HttpResponse<String> admin = get("/admin/x");
        assertEquals(403, admin.statusCode(), "a refused client gets 403, not a redirect: " + location(admin));
        assertEquals(403, get("/admin/files/a.txt").statusCode());
        assertEquals(403, get("/private").statusCode());
        assertEquals("https://example.com/match", location(get("/adm/")), "outside the section the redirect applies");
    }

    @Test
    void proxyPassWinsOverServerRedirectsAndAliasesButNotOverASectionRedirect() throws Exception {
        String backendUrl = "http://127.0.0.1:" + backend.port();
        start("""
                ProxyPass /api/local !
                ProxyPass /api %1$s/api
                Redirect /api https://example.com/never
                Alias /api %2$s/assets
                <Location /api/old>
                    Redirect permanent https://example.com/api-v2
                </Location>
                """.formatted(backendUrl, dir));
        HttpResponse<String> api = get("/api/x?y=1");
        assertEquals(200, api.statusCode(), String.valueOf(location(api)));
        assertEquals("backend /api/x?y=1", api.body(), "mod_proxy translates the name before mod_alias");
        HttpResponse<String> excluded = get("/api/local/z");
        assertEquals(302, excluded.statusCode(), "ProxyPass ! leaves the path to mod_alias");
        assertEquals("https://example.com/never/local/z", location(excluded));
        HttpResponse<String> old = get("/api/old/1");
        assertEquals(301, old.statusCode(), "a <Location>'s redirect runs whoever serves the path");
        assertEquals("https://example.com/api-v2", location(old));
    }

    @Test
    void redirectWinsOverSetHandlerWhichWinsOverAnAlias() throws Exception {
        start("""
                <Location /health>
                    SetHandler health
                </Location>
                Redirect /health/moved https://example.com/health
                Alias /health %1$s/assets
                """.formatted(dir));
        assertEquals("https://example.com/health", location(get("/health/moved")));
        HttpResponse<String> live = get("/health/live");
        assertEquals(200, live.statusCode(), "the handler answers, not the alias's files");
        assertEquals(404, get("/health/a.txt").statusCode(), "the health handler's 404, not the file");
    }

    @Test
    void aliasServesFilesOutsideDocumentRootLikeDocumentRoot() throws Exception {
        start("""
                Alias /assets %1$s/assets
                Alias /one.txt %1$s/assets/a.txt
                Alias /slash/ %1$s/assets/sub/
                """.formatted(dir));
        HttpResponse<String> a = get("/assets/a.txt");
        assertEquals(200, a.statusCode());
        assertEquals("asset a", a.body());
        assertEquals(Optional.of("text/plain"), a.headers().firstValue("Content-Type"), "DocumentRoot's types");
        String etag = a.headers().firstValue("ETag").orElseThrow();
        assertEquals(304, get("/assets/a.txt", "If-None-Match", etag).statusCode());
        HttpResponse<String> range = get("/assets/big.bin", "Range", "bytes=10-19");
        assertEquals(206, range.statusCode());
        assertEquals(Optional.of("bytes 10-19/100000"), range.headers().firstValue("Content-Range"));
        HttpResponse<String> gz = get("/assets/style.css", "Accept-Encoding", "gzip");
        assertEquals(Optional.of("gzip"), gz.headers().firstValue("Content-Encoding"), "the precompressed sibling");
        assertEquals(Optional.of("text/css"), gz.headers().firstValue("Content-Type"));

        HttpResponse<String> bare = get("/assets");
        assertEquals(301, bare.statusCode());
        assertEquals("/assets/", location(bare), "mod_dir's slash redirect names the URL, not the file");
        assertEquals("assets index", get("/assets/").body());
        assertEquals("sub index", get("/assets/sub/").body());
        assertEquals("asset a", get("/one.txt").body(), "an alias of one file");
        assertEquals(404, get("/one.txt/x").statusCode());
        assertEquals("sub index", get("/slash/").body());
        assertEquals(404, get("/slash").statusCode(), "Alias /slash/ needs the slash: DocumentRoot has no /slash");
        assertEquals(404, get("/assets-private/x.txt").statusCode(), "whole segments: not /assets + -private");
        assertEquals(404, get("/assets/missing.txt").statusCode());
        assertEquals("home", get("/").body(), "DocumentRoot still serves the rest");
    }

    /** A symlink out of the alias's target is refused as one out of DocumentRoot is: 403. */
    @Test
    void aSymlinkOutOfTheAliasTargetIsRefused() throws Exception {
        start("Alias /assets %s/assets\n".formatted(dir));
        HttpResponse<String> r = get("/assets/link-out");
        assertEquals(403, r.statusCode());
        assertFalse(r.body().contains(SECRET));
    }

    /**
     * Climbing out of an alias: every spelling is normalized before the alias is matched, so it
     * is DocumentRoot's path (404 or 400) or refused (encoded slash), never the secret beside
     * the target.
     */
    @ParameterizedTest
    @ValueSource(strings = {
        "/assets/../outside/secret.txt",
        "/assets/%2e%2e/outside/secret.txt",
        "/assets/%2E%2E/outside/secret.txt",
        "/assets/.%2e/outside/secret.txt",
        "/assets/../../outside/secret.txt",
        "/assets/%2e%2e/%2e%2e/outside/secret.txt",
        "/assets/..%2foutside/secret.txt",
        "/assets/..%5coutside/secret.txt",
        "/assets/sub/../../outside/secret.txt",
        "/icons/..%2f..%2foutside/secret",
        "/icons/%2e%2e/outside/secret",
    })
    void traversalOutOfAnAliasIsRefused(String target) throws Exception {
        start("""
                Alias /assets %1$s/assets
                AliasMatch ^/icons/(.*)$ %1$s/assets/$1.txt
                """.formatted(dir));
        String r = raw(target);
        assertTrue(r.startsWith("HTTP/1.1 400") || r.startsWith("HTTP/1.1 404"), target + " -> " + r);
        assertFalse(r.contains(SECRET), target + " revealed the secret");
    }

    @Test
    void aliasMatchBackReferencesStayInTheirDirectory() throws Exception {
        start("""
                AliasMatch ^/icons/([a-z]+)\\.txt$ %1$s/assets/$1.txt
                AliasMatch ^/x/(.*)\\.html$ %1$s/assets/sub/$1/index.html
                """.formatted(dir));
        assertEquals("asset a", get("/icons/a.txt").body());
        assertEquals(404, get("/icons/A.txt").statusCode(), "no match: DocumentRoot's 404");
        assertTrue(raw("/x/..html").contains("sub index"), "a group of \".\" stays in assets/sub");
        String dots = raw("/x/...html");
        assertTrue(dots.startsWith("HTTP/1.1 403"), "a group of \"..\" would lead out of assets/sub: " + dots);
        assertFalse(dots.contains("assets index"));
    }

    @Test
    void theAccessLogShowsTheRedirect() throws Exception {
        Path log = dir.resolve("access_log");
        start("""
                CustomLog %s "%%>s %%U %%{Location}o"
                Redirect /old https://example.com/new
                """.formatted(log));
        assertEquals(302, get("/old/x").statusCode());
        server.close();
        server = null;
        assertEquals("302 /old/x https://example.com/new/x\n", Files.readString(log));
    }
}
