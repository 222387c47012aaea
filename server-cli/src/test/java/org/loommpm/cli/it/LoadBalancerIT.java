package org.loommpm.cli.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.testsupport.Curl;

/**
 * Behind a load balancer, from the jar: a {@code Listen ... proxy-protocol} listener with curl's
 * {@code --haproxy-protocol} (HTTP/1.1 and h2c) and raw headers, {@code Require ip} against the
 * client the header names, {@code RemoteIPHeader} with an internal proxy, and the access log's
 * {@code %h}, {@code %a}, {@code %{c}a} and {@code %{c}h}.
 */
class LoadBalancerIT {
    @TempDir
    static Path dir;
    static JarProcess server;
    /**
     * The proxy-protocol listener's address. Both listeners bind port 0, and proxy-protocol goes
     * with the configured address, so they need different ones; the client still connects from
     * 127.0.0.1 (loopback's whole 127.0.0.0/8 is local on Linux).
     */
    static final String PROXIED_HOST = "127.0.0.2";
    static int proxied;
    static int plain;

    @BeforeAll
    static void start() throws Exception {
        Path root = Files.createDirectories(dir.resolve("htdocs/private"));
        Files.writeString(root.getParent().resolve("hello.txt"), "hello");
        Files.writeString(root.resolve("x.txt"), "secret");
        Files.writeString(dir.resolve("loom.conf"), """
                Listen 127.0.0.2:0 proxy-protocol
                Listen 127.0.0.1:0
                DocumentRoot htdocs
                RemoteIPHeader X-Forwarded-For
                RemoteIPInternalProxy 127.0.0.1
                RemoteIPProxiesHeader X-Forwarded-By
                CustomLog access.log "%%h|%%a|%%{c}a|%%{c}h|%%U|%%>s"
                ErrorLog error.log
                <Location /private>
                    Require ip 203.0.113.0/24
                </Location>
                """.formatted());
        server = JarProcess.start(dir, "-f", "loom.conf");
        proxied = server.port(PROXIED_HOST);
        plain = server.port("127.0.0.1");
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.signal("TERM");
            assertEquals(0, server.waitExit(Duration.ofSeconds(30)));
            server.close();
        }
    }

    private static String raw(String host, int port, String bytes) throws IOException {
        try (Socket s = new Socket(host, port)) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write(bytes.getBytes(StandardCharsets.ISO_8859_1));
            return new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    private static String get(String path) {
        return "GET " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
    }

    @Test
    void curlWithTheHeaderOverHttp1AndH2c() throws Exception {
        String url = "http://" + PROXIED_HOST + ":" + proxied + "/hello.txt";
        Curl.Response r = Curl.exchange("--haproxy-protocol", url);
        assertEquals(200, r.status());
        assertEquals("hello", r.body());
        Curl.Result h2 = Curl.run("--haproxy-protocol", "--http2-prior-knowledge", "-o", "/dev/null",
                "-w", "%{http_version} %{http_code}", url);
        assertEquals("2 200", h2.text());
        Curl.Result without = Curl.run("--max-time", "10", url);
        assertNotEquals(0, without.exitCode(), "no header: the connection is refused");
        server.awaitFile(dir.resolve("error.log"), s -> s.contains("LM2201"), Duration.ofSeconds(10));
    }

    @Test
    void requireIpSeesTheClientTheHeaderNames() throws Exception {
        String in = raw(PROXIED_HOST, proxied, "PROXY TCP4 203.0.113.7 192.0.2.1 5555 443\r\n" + get("/private/x.txt"));
        assertTrue(in.startsWith("HTTP/1.1 200"), in);
        assertTrue(in.endsWith("secret"), in);
        String out = raw(PROXIED_HOST, proxied, "PROXY TCP4 198.51.100.1 192.0.2.1 5555 443\r\n" + get("/private/x.txt"));
        assertTrue(out.startsWith("HTTP/1.1 403"), out);
        server.awaitFile(dir.resolve("access.log"),
                s -> s.contains("203.0.113.7|203.0.113.7|203.0.113.7|203.0.113.7|/private/x.txt|200"), Duration.ofSeconds(10));
    }

    @Test
    void remoteIpHeaderFromAnInternalProxy() throws Exception {
        String in = raw("127.0.0.1", plain, "GET /private/x.txt HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 198.51.100.77, 203.0.113.9\r\n"
                + "Connection: close\r\n\r\n");
        assertTrue(in.startsWith("HTTP/1.1 200"), in);
        assertTrue(raw("127.0.0.1", plain, get("/private/x.txt")).startsWith("HTTP/1.1 403"), "no header: the socket's peer");
        // %h and %a are the client the internal proxy vouched for (httpd 2.4.19+); %{c}a and %{c}h
        // the connection's peer.
        server.awaitFile(dir.resolve("access.log"),
                s -> s.contains("203.0.113.9|203.0.113.9|127.0.0.1|127.0.0.1|/private/x.txt|200"), Duration.ofSeconds(10));
    }

    @Test
    void aPeerThatIsNotAListedProxyCannotSetTheClient() throws Exception {
        // The PROXY header names 198.51.100.3: not a listed proxy, so its X-Forwarded-For is ignored.
        String r = raw(PROXIED_HOST, proxied, "PROXY TCP4 198.51.100.3 192.0.2.1 1 443\r\nGET /private/x.txt HTTP/1.1\r\nHost: x\r\n"
                + "X-Forwarded-For: 203.0.113.9\r\nConnection: close\r\n\r\n");
        assertTrue(r.startsWith("HTTP/1.1 403"), r);
    }
}
