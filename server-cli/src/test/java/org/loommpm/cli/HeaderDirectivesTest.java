package org.loommpm.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.server.LoomServer;
import org.loommpm.cli.config.ConfigException;
import org.loommpm.cli.config.ConfigParser;
import org.loommpm.cli.config.DirectiveTable;

/**
 * mod_headers' {@code Header} and {@code RequestHeader} through real requests to a server started
 * from configuration text: each action, {@code always} on the server's own errors (a missing
 * file's 404, a proxy's 502 on the poller and on a worker), the request fields a backend sees,
 * {@code <Location>} merging, HTTP/2, and the refused forms.
 */
class HeaderDirectivesTest {
    private static final HttpClient H1 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @TempDir
    Path dir;

    private LoomServer backend;

    @BeforeEach
    void backend() throws Exception {
        // Echoes what it was sent in response fields (so a HEAD shows them too), and sets a few of its own.
        backend = LoomServer.builder().listen("127.0.0.1", 0).handler((req, res) -> {
            res.header("X-Seen-Proto", String.valueOf(req.headers().first("X-Forwarded-Proto")));
            res.header("X-Seen-Auth", String.valueOf(req.headers().first("Authorization")));
            res.headers().add("Cache-Control", "private");
            res.headers().add("Vary", "Accept");
            res.status(req.path().endsWith("/missing") ? 404 : 200).send("backend\n");
        }).start();
    }

    @AfterEach
    void stopBackend() {
        backend.close();
    }

    private static HttpResponse<String> send(SiteServer s, String method, String path, String... headers)
            throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + s.port() + path))
                .method(method, HttpRequest.BodyPublishers.noBody());
        if (headers.length > 0) {
            b.headers(headers);
        }
        return H1.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static List<String> all(HttpResponse<?> r, String name) {
        return r.headers().allValues(name);
    }

    @Test
    void eachActionOnAStaticFile() throws Exception {
        Files.writeString(dir.resolve("a.txt"), "a\n");
        try (SiteServer s = SiteServer.start(dir, """
                DocumentRoot %s
                Header set X-Set one
                Header set X-Set two
                Header append Cache-Control no-transform
                Header append X-Appended first
                Header merge X-Merged a
                Header merge X-Merged a
                Header merge X-Merged b
                Header merge X-Merged '"b"'
                Header set X-Quoted '"a, b, c", d'
                Header merge X-Quoted b
                Header merge X-Quoted d
                Header add X-Added 1
                Header add X-Added 2
                Header unset Accept-Ranges
                Header setifempty Content-Type text/x-never
                Header setifempty X-Default fallback
                Header set X-Percent "100%%%%"
                """.formatted(dir))) {
            HttpResponse<String> r = s.get("/a.txt");
            assertEquals(200, r.statusCode());
            assertEquals(List.of("two"), all(r, "X-Set"));
            assertEquals(List.of("first"), all(r, "X-Appended"), "append to an absent field adds it");
            assertEquals(List.of("a, b, \"b\""), all(r, "X-Merged"), "merge skips a value listed; quotes count");
            assertEquals(List.of("\"a, b, c\", d, b"), all(r, "X-Quoted"),
                    "a comma inside a quoted string separates no elements");
            assertEquals(List.of("1", "2"), all(r, "X-Added"));
            assertEquals(List.of(), all(r, "Accept-Ranges"), "unset removes the file handler's field");
            assertTrue(r.headers().firstValue("Content-Type").orElseThrow().startsWith("text/plain"),
                    "setifempty leaves a present field alone");
            assertEquals(List.of("fallback"), all(r, "X-Default"));
            assertEquals(List.of("100%"), all(r, "X-Percent"));
        }
    }

    @Test
    void appendAndMergeJoinTheBackendsFieldsAndRequestHeaderReachesTheBackend() throws Exception {
        try (SiteServer s = SiteServer.start(dir, """
                ProxyPass /api/ http://127.0.0.1:%d/
                RequestHeader set X-Forwarded-Proto https
                RequestHeader unset Authorization
                Header append Cache-Control no-store
                Header merge Vary Accept
                Header merge Vary Origin
                """.formatted(backend.port()))) {
            for (String method : List.of("GET", "HEAD")) { // GET on the poller, HEAD on a worker
                HttpResponse<String> r = send(s, method, "/api/x", "Authorization", "Basic c2VjcmV0",
                        "X-Forwarded-Proto", "http");
                assertEquals(200, r.statusCode(), method);
                assertEquals("https", r.headers().firstValue("X-Seen-Proto").orElseThrow(), method);
                assertEquals("null", r.headers().firstValue("X-Seen-Auth").orElseThrow(), method);
                assertEquals(List.of("private, no-store"), all(r, "Cache-Control"), method);
                assertEquals(List.of("Accept, Origin"), all(r, "Vary"), method);
            }
        }
    }

    /**
     * The proxy's own errors: a backend down (503 once its member is in error) and one that
     * hangs up without answering (502), each on the poller (GET) and on a worker (HEAD).
     */
    @Test
    void alwaysReachesTheServersOwnErrorsAndTheDefaultOnlyBelow400() throws Exception {
        int down;
        try (ServerSocket ss = new ServerSocket(0)) {
            down = ss.getLocalPort();
        }
        Files.writeString(dir.resolve("a.txt"), "a\n");
        try (ServerSocket hangsUp = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
             SiteServer s = SiteServer.start(dir, """
                DocumentRoot %s
                ProxyPass /down/ http://127.0.0.1:%d/
                ProxyPass /hangup/ http://127.0.0.1:%d/
                ProxyPass /api/ http://127.0.0.1:%d/
                Header always set Strict-Transport-Security "max-age=63072000"
                Header set X-Success yes
                """.formatted(dir, down, hangsUp.getLocalPort(), backend.port()))) {
            Thread.ofVirtual().start(() -> {
                while (!hangsUp.isClosed()) {
                    try (Socket c = hangsUp.accept()) {
                        c.getInputStream().read(new byte[4096]);
                    } catch (IOException e) {
                        // closed at the end of the test
                    }
                }
            });
            HttpResponse<String> ok = s.get("/a.txt");
            assertEquals("max-age=63072000", ok.headers().firstValue("Strict-Transport-Security").orElseThrow());
            assertEquals(List.of("yes"), all(ok, "X-Success"));
            for (String[] c : new String[][] {{"GET", "/nothing-here", "404"}, {"GET", "/hangup/x", "502"},
                    {"HEAD", "/hangup/x", "502"}, {"GET", "/down/x", "503"}, {"HEAD", "/down/x", "503"},
                    {"GET", "/api/missing", "404"}}) {
                HttpResponse<String> r = send(s, c[0], c[1]);
                String what = c[0] + " " + c[1];
                assertEquals(Integer.parseInt(c[2]), r.statusCode(), what);
                assertEquals(List.of("max-age=63072000"), all(r, "Strict-Transport-Security"), what);
                assertEquals(List.of(), all(r, "X-Success"), what + ": without always, below 400 only");
            }
        }
    }

    @Test
    void locationRulesRunAfterTheServerLevelInFileOrder() throws Exception {
        Files.createDirectories(dir.resolve("app/inner"));
        Files.writeString(dir.resolve("app/inner/f.txt"), "f\n");
        Files.writeString(dir.resolve("top.txt"), "t\n");
        Files.writeString(dir.resolve("apple.txt"), "a\n");
        try (SiteServer s = SiteServer.start(dir, """
                DocumentRoot %s
                Header set X-Scope server
                Header add X-Trail server
                <Location /app>
                    Header set X-Scope app
                    Header add X-Trail app
                </Location>
                <Location /app/inner>
                    Header add X-Trail inner
                    Header unset X-Scope
                </Location>
                <Location /app>
                    Header add X-Trail app-again
                </Location>
                """.formatted(dir))) {
            HttpResponse<String> top = s.get("/top.txt");
            assertEquals(List.of("server"), all(top, "X-Scope"));
            assertEquals(List.of("server"), all(top, "X-Trail"));
            HttpResponse<String> inner = s.get("/app/inner/f.txt");
            assertEquals(List.of(), all(inner, "X-Scope"));
            assertEquals(List.of("server", "app", "inner", "app-again"), all(inner, "X-Trail"));
            HttpResponse<String> sibling = s.get("/apple.txt");
            assertEquals(List.of("server"), all(sibling, "X-Trail"), "whole segments, as <Location>");
        }
    }

    @Test
    void h2cGetsTheFieldsAndTheWelcomePageToo() throws Exception {
        try (SiteServer s = SiteServer.start(dir, """
                ProxyPass /api/ http://127.0.0.1:%d/
                Header always set X-Frame-Options DENY
                RequestHeader set X-Forwarded-Proto https
                """.formatted(backend.port()))) {
            HttpClient h2 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
            for (String path : List.of("/api/x", "/api/x", "/nothing")) {
                HttpResponse<String> r = h2.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + s.port()
                        + path)).build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(HttpClient.Version.HTTP_2, r.version(), path);
                assertEquals(List.of("DENY"), all(r, "x-frame-options"), path);
                if (path.startsWith("/api/")) {
                    assertEquals("https", r.headers().firstValue("x-seen-proto").orElseThrow());
                }
            }
        }
    }

    @Test
    void theWelcomePageGetsThem() throws Exception {
        ConfigParser.Source src = new ConfigParser.Source(null, "Listen 127.0.0.1:0\nCustomLog /dev/null common\n",
                List.of(), List.of("Header set X-Welcome yes"));
        ServerProcess p = new ServerProcess(() -> new ConfigParser(DirectiveTable.standard()).parse(src));
        try {
            assertTrue(p.start(new ConfigParser(DirectiveTable.standard()).parse(src), false));
            HttpResponse<String> r = H1.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                    + p.server().port() + "/")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode());
            assertEquals(List.of("yes"), all(r, "X-Welcome"));
        } finally {
            p.close();
        }
    }

    @Test
    void unsupportedFormsAreLocatedErrors() throws Exception {
        String[][] cases = {
            {"Header edit X-A foo bar", "the action 'edit' is not supported"},
            {"Header edit* X-A foo bar", "the action 'edit*' is not supported"},
            {"Header echo X-A", "the action 'echo' is not supported"},
            {"Header note X-A n", "the action 'note' is not supported"},
            {"Header frobnicate X-A v", "unknown action 'frobnicate'"},
            {"Header set X-A v early", "'early'"},
            {"Header set X-A v env=HTTPS", "env= conditions are not supported"},
            {"Header always set X-A v \"expr=%{REQUEST_STATUS} == 404\"", "expr= conditions are not supported"},
            {"Header set X-A expr=%{REQUEST_URI}", "expr= values are not supported"},
            {"Header set X-A \"%t\"", "the format specifier '%t' is not supported"},
            {"Header set X-A \"%{HOME}e\"", "the format specifier '%{HOME}e' is not supported"},
            {"Header set X-A \"50%\"", "the format specifier '%' is not supported"},
            {"Header set X-A v extra", "too many arguments from 'extra'"},
            {"Header unset X-A v", "unset takes no value"},
            {"Header set X-A", "set needs a value"},
            {"Header always set", "missing the header name"},
            {"Header set Content-Length 5", "the field Content-Length cannot be changed"},
            {"Header unset transfer-encoding", "cannot be changed"},
            {"Header set Connection close", "cannot be changed"},
            {"Header set Date x", "the field Date cannot be changed"},
            {"Header set \"X A\" v", "'X A' is not a header field name"},
            {"RequestHeader always set X-A v", "is for Header only"},
            {"RequestHeader set Host example.org", "see ProxyPreserveHost"},
            {"RequestHeader unset Content-Length", "cannot be changed"},
            {"RequestHeader set X-A v env=!FOO", "env= conditions are not supported"},
        };
        for (String[] c : cases) {
            Path f = dir.resolve("bad.conf");
            Files.writeString(f, "Listen 127.0.0.1:0\n" + c[0] + "\n");
            ConfigException e = assertThrows(ConfigException.class, () -> new ConfigParser(DirectiveTable.standard())
                    .parse(new ConfigParser.Source(f, null, List.of(), List.of())), c[0]);
            assertEquals(2, e.line(), c[0]);
            assertEquals(f.toAbsolutePath().normalize().toString(), e.source(), c[0]);
            assertTrue(e.getMessage().contains(c[1]), c[0] + " -> " + e.getMessage());
            assertTrue(e.getMessage().startsWith(c[0].substring(0, c[0].indexOf(' ')) + ": "), e.getMessage());
        }
    }

    @Test
    void noDirectiveNoFilter() throws Exception {
        Path f = dir.resolve("plain.conf");
        Files.writeString(f, "Listen 127.0.0.1:0\n");
        assertEquals(null, new ConfigParser(DirectiveTable.standard()).parse(new ConfigParser.Source(f, null,
                List.of(), List.of())).extensions().get(org.loommpm.cli.headers.HeaderScopes.KEY));
    }
}
