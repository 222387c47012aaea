package org.loommpm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Consumer;
import java.util.logging.Level;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.server.LoomServer;
import org.loommpm.api.Router;
import org.loommpm.config.ServerConfig;
import org.loommpm.testsupport.Curl;
import org.loommpm.testsupport.LogCapture;
import org.loommpm.testsupport.TestCertificates;
import org.loommpm.testsupport.TestServers;

/**
 * PROXY protocol listeners end to end: curl's {@code --haproxy-protocol} (v1), raw sockets for
 * v2, split and malformed headers, the header timeout, TLS behind the header, and a plain
 * listener beside a PROXY one.
 */
class ProxyProtocolTest {
    private static final byte[] SIG = {0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A};
    private static final String GET = "GET /who HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";

    @TempDir
    static Path dir;
    static TestCertificates certs;
    static SSLContext clientTls;

    private LoomServer server;

    @BeforeAll
    static void certificates() throws Exception {
        certs = TestCertificates.create(dir);
        clientTls = TestCertificates.clientContext(certs.chainPem);
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(Duration.ofSeconds(5));
        }
    }

    private static Router router() {
        return new Router().get("/who", (req, res) -> {
            InetSocketAddress a = req.remoteAddress();
            res.send(a.getAddress().getHostAddress() + " " + a.getPort() + " secure=" + req.isSecure());
        });
    }

    private LoomServer start(Consumer<ServerConfig.Builder> more) throws IOException {
        server = LoomServer.builder()
                .listenProxyProtocol("127.0.0.1", 0)
                .configure(c -> c.gracefulShutdownTimeout(Duration.ofSeconds(5)))
                .configure(more)
                .handler(router())
                .start();
        return server;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    private static byte[] v2(int verCmd, int fam, byte[] block) {
        return concat(SIG, new byte[] {(byte) verCmd, (byte) fam, (byte) (block.length >> 8), (byte) block.length}, block);
    }

    /** Sends {@code bytes} in one write and reads until the server closes. */
    private String exchange(byte[] bytes) throws IOException {
        try (Socket s = new Socket("127.0.0.1", server.port())) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write(bytes);
            return new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    private static String body(String response) {
        return response.substring(response.indexOf("\r\n\r\n") + 4);
    }

    @Test
    void curlHaproxyProtocolV1IsAccepted() throws Exception {
        assumeTrue(Curl.available(), "curl is not installed");
        start(c -> { });
        Curl.Response r = Curl.exchange("--haproxy-protocol", "http://127.0.0.1:" + server.port() + "/who");
        assertEquals(200, r.status(), r.toString());
        assertTrue(r.body().startsWith("127.0.0.1 "), r.body());
        // Without the header the same listener refuses the connection.
        Curl.Result plain = Curl.run("--max-time", "10", "http://127.0.0.1:" + server.port() + "/who");
        assertFalse(plain.exitCode() == 0 && plain.text().contains("127.0.0.1"), plain.text());
    }

    @Test
    void v1AddressReplacesThePeerWithTheRequestInTheSameSegment() throws Exception {
        start(c -> { });
        String r = exchange(ascii("PROXY TCP4 203.0.113.7 192.0.2.1 4242 443\r\n" + GET));
        assertTrue(r.startsWith("HTTP/1.1 200"), r);
        assertEquals("203.0.113.7 4242 secure=false", body(r));
        String r6 = exchange(ascii("PROXY TCP6 2001:db8::7 2001:db8::1 5151 443\r\n" + GET));
        assertEquals("2001:db8:0:0:0:0:0:7 5151 secure=false", body(r6));
        String unknown = exchange(ascii("PROXY UNKNOWN\r\n" + GET));
        assertTrue(body(unknown).startsWith("127.0.0.1 "), unknown);
    }

    @Test
    void v2Tcp4Tcp6AndLocal() throws Exception {
        start(c -> { });
        byte[] tcp4 = v2(0x21, 0x11, new byte[] {(byte) 198, 51, 100, 23, 10, 0, 0, 1, 0x1F, (byte) 0x90, 0, 80});
        assertEquals("198.51.100.23 8080 secure=false", body(exchange(concat(tcp4, ascii(GET)))));
        byte[] block6 = new byte[36];
        System.arraycopy(InetAddress.getByName("2001:db8::99").getAddress(), 0, block6, 0, 16);
        block6[33] = 7;
        assertEquals("2001:db8:0:0:0:0:0:99 7 secure=false", body(exchange(concat(v2(0x21, 0x21, block6), ascii(GET)))));
        // LOCAL: a health check from the balancer itself keeps the socket's address.
        assertTrue(body(exchange(concat(v2(0x20, 0x00, new byte[0]), ascii(GET)))).startsWith("127.0.0.1 "));
    }

    @Test
    void aHeaderSplitAcrossSegmentsIsReassembled() throws Exception {
        start(c -> { });
        byte[] header = ascii("PROXY TCP4 203.0.113.9 192.0.2.1 1111 80\r\n");
        try (Socket s = new Socket("127.0.0.1", server.port())) {
            s.setSoTimeout(10_000);
            s.setTcpNoDelay(true);
            OutputStream out = s.getOutputStream();
            for (int i = 0; i < header.length; i += 7) {
                out.write(header, i, Math.min(7, header.length - i));
                out.flush();
                Thread.sleep(20);
            }
            Thread.sleep(50);
            out.write(ascii(GET));
            String r = new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            assertEquals("203.0.113.9 1111 secure=false", body(r));
        }
    }

    @Test
    void malformedOrMissingHeadersAreRefusedWithALogLine() throws Exception {
        start(c -> { });
        try (LogCapture log = new LogCapture()) {
            for (byte[] bad : new byte[][] {
                ascii(GET),
                ascii("PROXY TCP4 203.0.113.7 192.0.2.1 99999 443\r\n" + GET),
                ascii("PROXY TCP4 localhost 192.0.2.1 1 443\r\n" + GET),
                concat(v2(0x21, 0x11, new byte[4]), ascii(GET)),
                concat(SIG, new byte[] {0x21, 0x11, (byte) 0xFF, (byte) 0xFF}),
                ascii("PROXY UNKNOWN " + "x".repeat(120) + "\r\n"),
            }) {
                assertEquals("", exchange(bad), "nothing is answered before a valid header");
            }
            TestServers.waitFor("six LM2201 lines", 5, () -> log.find(Level.INFO, "LM2201").size() == 6);
        }
        // The listener still serves good headers after refusing bad ones.
        assertEquals("203.0.113.1 1 secure=false", body(exchange(ascii("PROXY TCP4 203.0.113.1 192.0.2.1 1 80\r\n" + GET))));
    }

    /** A v1 line is at most 107 bytes with its CRLF (the specification's figure): 108 is refused. */
    @Test
    void aV1LineOf108BytesIsRefused() throws Exception {
        start(c -> { });
        String longest = "PROXY UNKNOWN " + "x".repeat(107 - 16) + "\r\n";
        assertEquals(107, longest.length());
        assertTrue(body(exchange(ascii(longest + GET))).startsWith("127.0.0.1 "), "107 bytes are accepted");
        String tooLong = "PROXY UNKNOWN " + "x".repeat(108 - 16) + "\r\n";
        assertEquals("", exchange(ascii(tooLong + GET)), "108 bytes are refused");
    }

    @Test
    void aHeaderThatDoesNotArriveInTimeEndsTheConnection() throws Exception {
        start(c -> c.proxyProtocol(c.proxyProtocol().withHeaderTimeout(Duration.ofMillis(300))));
        try (LogCapture log = new LogCapture(); Socket s = new Socket("127.0.0.1", server.port())) {
            s.setSoTimeout(10_000);
            s.getOutputStream().write(ascii("PROXY TCP4 203.0"));
            long t0 = System.nanoTime();
            assertEquals(-1, s.getInputStream().read());
            assertTrue(System.nanoTime() - t0 < Duration.ofSeconds(8).toNanos());
            TestServers.waitFor("LM2203", 5, () -> !log.find(Level.INFO, "LM2203").isEmpty());
        }
    }

    @Test
    void refusedAndPendingHeadersLeakNoConnection() throws Exception {
        start(c -> { });
        for (int i = 0; i < 20; i++) {
            assertEquals("", exchange(ascii(i % 2 == 0 ? GET : "PROXY TCP4 1.2.3.4 5.6.7.8 1 2\n")));
        }
        TestServers.waitFor("every refused connection closed", 10, () -> server.stats().connectionsOpen() == 0);
        assertEquals(20, server.stats().connectionsClosed());
        // Connections still waiting for their header when the server stops are closed at once.
        Socket[] pending = new Socket[5];
        for (int i = 0; i < pending.length; i++) {
            pending[i] = new Socket("127.0.0.1", server.port());
            pending[i].setSoTimeout(10_000);
            pending[i].getOutputStream().write(ascii("PROXY TCP4 "));
        }
        TestServers.waitFor("five pending", 10, () -> server.stats().connectionsOpen() == 5);
        long t0 = System.nanoTime();
        server.stop(Duration.ofSeconds(30));
        assertTrue(System.nanoTime() - t0 < Duration.ofSeconds(10).toNanos(), "the stop did not wait for them");
        for (Socket s : pending) {
            assertEquals(-1, s.getInputStream().read());
            s.close();
        }
        assertEquals(0, server.stats().connectionsOpen());
        server = null;
    }

    @Test
    void tlsBehindTheHeader() throws Exception {
        server = LoomServer.builder()
                .https("127.0.0.1", 0)
                .tls(t -> t.certificateFile(certs.chainPem).keyFile(certs.pkcs8Key))
                .configure(c -> c.clearListen().proxyProtocol(c.proxyProtocol().withAll(true))
                        .gracefulShutdownTimeout(Duration.ofSeconds(5)))
                .handler(router())
                .start();
        try (Socket raw = new Socket("127.0.0.1", server.port())) {
            raw.setSoTimeout(10_000);
            raw.getOutputStream().write(ascii("PROXY TCP4 203.0.113.44 192.0.2.1 6000 443\r\n"));
            try (SSLSocket tls = (SSLSocket) clientTls.getSocketFactory().createSocket(raw, "127.0.0.1", server.port(), true)) {
                tls.startHandshake();
                tls.getOutputStream().write(ascii(GET));
                String r = new String(readAll(tls.getInputStream()), StandardCharsets.ISO_8859_1);
                assertEquals("203.0.113.44 6000 secure=true", body(r));
            }
        }
        // A ClientHello where the header belongs is refused like any other bad header.
        try (SSLSocket tls = (SSLSocket) clientTls.getSocketFactory().createSocket("127.0.0.1", server.port())) {
            tls.setSoTimeout(10_000);
            boolean failed;
            try {
                tls.startHandshake();
                failed = false;
            } catch (IOException expected) {
                failed = true;
            }
            assertTrue(failed, "a TLS client without the header is not served");
        }
    }

    private static byte[] readAll(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] b = new byte[4096];
        try {
            for (int n; (n = in.read(b)) > 0; ) {
                out.write(b, 0, n);
            }
        } catch (javax.net.ssl.SSLException e) {
            // The server's close after Connection: close may come without a close_notify the client waits for.
        }
        return out.toByteArray();
    }

    @Test
    void aPlainListenerBesideAProxyOneKeepsTheSocketAddress() throws Exception {
        server = LoomServer.builder()
                .listen("127.0.0.1", 0)
                .listenProxyProtocol("127.0.0.2", 0)
                .configure(c -> c.gracefulShutdownTimeout(Duration.ofSeconds(5)))
                .handler(router())
                .start();
        InetSocketAddress plain = server.addresses().get(0);
        InetSocketAddress proxied = server.addresses().get(1);
        try (Socket s = new Socket(plain.getAddress(), plain.getPort())) {
            s.getOutputStream().write(ascii(GET));
            assertTrue(body(new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1)).startsWith("127.0.0.1 "));
        }
        try (Socket s = new Socket(proxied.getAddress(), proxied.getPort())) {
            s.getOutputStream().write(ascii("PROXY TCP4 203.0.113.5 192.0.2.1 5 80\r\n" + GET));
            assertEquals("203.0.113.5 5 secure=false",
                    body(new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1)));
        }
    }
}
