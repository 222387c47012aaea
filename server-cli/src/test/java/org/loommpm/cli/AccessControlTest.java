package org.loommpm.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * httpd 2.4 authorization through the real request path: {@code Require} lines, the
 * {@code <RequireAll>}, {@code <RequireAny>} and {@code <RequireNone>} containers,
 * {@code Require not}, {@code local} and {@code method}, the 403 they answer, how sections
 * merge, and the client address mod_remoteip and the PROXY protocol give them. Clients connect
 * from several loopback addresses (127.0.0.1, .2, .4), which Linux routes over {@code lo}.
 */
class AccessControlTest {
    @TempDir
    Path dir;

    private static final String SITE = """
            DocumentRoot htdocs
            <Location /except>
                <RequireAll>
                    Require all granted
                    Require not ip 127.0.0.2
                </RequireAll>
            </Location>
            <Location /local>
                Require local
            </Location>
            <Location /method>
                Require method GET POST
            </Location>
            <Location /nested>
                <RequireAny>
                    Require ip 192.0.2.0/24
                    <RequireAll>
                        Require local
                        Require method GET POST
                        <RequireNone>
                            Require ip 127.0.0.2
                            Require ip 127.0.0.3
                        </RequireNone>
                    </RequireAll>
                </RequireAny>
            </Location>
            <Location /merge>
                Require all denied
            </Location>
            <Location /merge/open>
                <RequireAll>
                    Require local
                    Require not ip 127.0.0.2
                </RequireAll>
            </Location>
            <Location /merge/open/inherit>
                SetHandler none
            </Location>
            """;

    private void files(String... dirs) throws IOException {
        for (String d : dirs) {
            Path p = Files.createDirectories(dir.resolve("htdocs").resolve(d));
            Files.writeString(p.resolve("a.txt"), "file in " + d);
        }
    }

    /** One request from {@code from} (a loopback address), the whole response as text. */
    private static String send(int port, String from, String request) throws IOException {
        try (Socket s = new Socket()) {
            s.bind(new InetSocketAddress(from, 0));
            s.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
            s.setSoTimeout(10_000);
            s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            return new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    private static String request(String method, String path) {
        return method + " " + path + " HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
    }

    /** The status code of {@code method path} sent from {@code from}; a 403 must be the plain Forbidden page. */
    private static int status(SiteServer s, String from, String method, String path) throws IOException {
        String r = send(s.port(), from, request(method, path));
        int code = Integer.parseInt(r.substring(9, 12));
        if (code == 403) {
            assertTrue(r.endsWith("\r\n\r\nForbidden\n"), r);
        }
        return code;
    }

    @Test
    void containersNegationsLocalAndMethods() throws Exception {
        files("except", "local", "method", "nested", "merge", "merge/open", "merge/open/inherit");
        try (SiteServer s = SiteServer.start(dir, SITE)) {
            // Everyone except one address.
            assertEquals(200, status(s, "127.0.0.1", "GET", "/except/a.txt"));
            assertEquals(403, status(s, "127.0.0.2", "GET", "/except/a.txt"));
            // The whole of 127.0.0.0/8 is local, not only the server's own 127.0.0.1.
            assertEquals(200, status(s, "127.0.0.1", "GET", "/local/a.txt"));
            assertEquals(200, status(s, "127.0.0.4", "GET", "/local/a.txt"));
            // Require decides before the handler: POST passes it, then the files answer 405.
            assertEquals(200, status(s, "127.0.0.1", "GET", "/method/a.txt"));
            assertEquals(200, status(s, "127.0.0.1", "HEAD", "/method/a.txt"), "HEAD is GET for Require method");
            assertEquals(405, status(s, "127.0.0.1", "POST", "/method/a.txt"));
            assertEquals(403, status(s, "127.0.0.1", "PUT", "/method/a.txt"));
            assertEquals(403, status(s, "127.0.0.1", "DELETE", "/method/a.txt"));
            // Nested: local, GET or POST, and not .2 or .3.
            assertEquals(200, status(s, "127.0.0.1", "GET", "/nested/a.txt"));
            assertEquals(200, status(s, "127.0.0.4", "GET", "/nested/a.txt"));
            assertEquals(403, status(s, "127.0.0.1", "OPTIONS", "/nested/a.txt"));
            assertEquals(403, status(s, "127.0.0.2", "GET", "/nested/a.txt"));
            assertEquals(403, status(s, "127.0.0.3", "GET", "/nested/a.txt"));
            // Later sections win; one with its own Require replaces the earlier (AuthMerging Off),
            // one without inherits it.
            assertEquals(403, status(s, "127.0.0.1", "GET", "/merge/a.txt"));
            assertEquals(200, status(s, "127.0.0.1", "GET", "/merge/open/a.txt"));
            assertEquals(403, status(s, "127.0.0.2", "GET", "/merge/open/a.txt"));
            assertEquals(200, status(s, "127.0.0.1", "GET", "/merge/open/inherit/a.txt"));
            assertEquals(403, status(s, "127.0.0.2", "GET", "/merge/open/inherit/a.txt"));
            assertEquals(403, status(s, "127.0.0.1", "GET", "/merge/../merge/a.txt"), "the normalized path decides");
            assertEquals("file in except", s.get("/except/a.txt").body());
        }
    }

    /** mod_remoteip: the client an internal proxy vouches for is the one Require sees, for local too. */
    @Test
    void theClientARemoteIpHeaderNames() throws Exception {
        files("except", "local");
        try (SiteServer s = SiteServer.start(dir, """
                RemoteIPHeader X-Forwarded-For
                RemoteIPInternalProxy 127.0.0.1
                """ + SITE)) {
            String forwarded = "GET %s HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: %s\r\nConnection: close\r\n\r\n";
            assertTrue(send(s.port(), "127.0.0.1", forwarded.formatted("/local/a.txt", "203.0.113.9"))
                    .startsWith("HTTP/1.1 403"), "the peer is loopback, the client is not");
            assertTrue(send(s.port(), "127.0.0.1", forwarded.formatted("/except/a.txt", "127.0.0.2"))
                    .startsWith("HTTP/1.1 403"));
            assertTrue(send(s.port(), "127.0.0.1", forwarded.formatted("/except/a.txt", "203.0.113.9"))
                    .startsWith("HTTP/1.1 200"));
            assertEquals(200, status(s, "127.0.0.1", "GET", "/local/a.txt"), "no header: the peer");
        }
    }

    /**
     * A PROXY protocol header's client is the one Require sees; {@code Require local} compares
     * it with the connection's own local address, which the header does not change (as httpd).
     */
    @Test
    void theClientAProxyProtocolHeaderNames() throws Exception {
        files("local", "except");
        try (SiteServer s = SiteServer.start(dir, "RemoteIPProxyProtocol On\n" + SITE)) {
            String local = "PROXY TCP4 127.0.0.9 127.0.0.1 5555 80\r\n" + request("GET", "/local/a.txt");
            assertTrue(send(s.port(), "127.0.0.1", local).startsWith("HTTP/1.1 200"));
            String remote = "PROXY TCP4 198.51.100.1 127.0.0.1 5555 80\r\n" + request("GET", "/local/a.txt");
            assertTrue(send(s.port(), "127.0.0.1", remote).startsWith("HTTP/1.1 403"), "the socket's peer is loopback");
            String excepted = "PROXY TCP4 127.0.0.2 127.0.0.1 5555 80\r\n" + request("GET", "/except/a.txt");
            assertTrue(send(s.port(), "127.0.0.1", excepted).startsWith("HTTP/1.1 403"));
        }
    }
}
