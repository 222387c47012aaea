package org.loommpm.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.logging.Level;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.server.LoomServer;
import org.loommpm.api.Router;
import org.loommpm.config.ServerConfig;
import org.loommpm.config.TlsSettings;
import org.loommpm.engine.ChildStats;
import org.loommpm.spi.CloseReason;
import org.loommpm.testsupport.Curl;
import org.loommpm.testsupport.LogCapture;
import org.loommpm.testsupport.RawHttp;
import org.loommpm.testsupport.TestCertificates;
import org.loommpm.engine.EngineStats;
import org.loommpm.testsupport.TestServers;

/** HTTPS end to end: JDK HttpClient, raw TLS sockets, curl; failures and stalls on a TLS port. */
class TlsTest {
    private static final int FIVE_MB = 5 * 1024 * 1024;

    @TempDir
    static Path dir;
    static TestCertificates certs;
    static SSLContext clientTls;
    static SSLContext clientTlsEc;
    static byte[] big;
    static Path file;

    private LoomServer server;

    @BeforeAll
    static void setUp() throws Exception {
        certs = TestCertificates.create(dir);
        clientTls = TestCertificates.clientContext(certs.chainPem);
        clientTlsEc = TestCertificates.clientContext(certs.ecCert);
        big = new byte[FIVE_MB];
        new Random(7).nextBytes(big);
        file = dir.resolve("file.bin");
        Files.write(file, Arrays.copyOf(big, 300_000));
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(Duration.ofSeconds(5));
        }
    }

    private static Router router() {
        return new Router()
                .get("/hello", (req, res) -> res.send("hello secure=" + req.isSecure()))
                .get("/big", (req, res) -> res.send(big))
                .post("/echo", (req, res) -> res.send(req.bodyBytes()))
                .get("/file", (req, res) -> res.sendFile(file))
                .get("/part", (req, res) -> res.sendFile(file, 1000, 70_000));
    }

    /** A server whose only listener speaks TLS (SSLEngine on), with the PEM chain and PKCS#8 key. */
    private LoomServer startTls(Consumer<ServerConfig.Builder> more) throws IOException {
        server = TestServers.start(router(), c -> {
            c.tls(t -> t.engine(true).certificateFile(certs.chainPem).keyFile(certs.pkcs8Key));
            more.accept(c);
        });
        return server;
    }

    private static HttpClient client(SSLContext tls) {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).sslContext(tls)
                .connectTimeout(Duration.ofSeconds(5)).build();
    }

    private SSLSocket tlsSocket(int port, String... alpn) throws IOException {
        return tlsSocket(port, null, alpn);
    }

    /** A TLS socket after its handshake, limited to {@code protocol} unless it is null. */
    private SSLSocket tlsSocket(int port, String protocol, String[] alpn) throws IOException {
        SSLSocket s = (SSLSocket) clientTls.getSocketFactory().createSocket();
        s.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        s.setSoTimeout(10_000);
        if (protocol != null) {
            s.setEnabledProtocols(new String[] {protocol});
        }
        if (alpn.length > 0) {
            SSLParameters p = s.getSSLParameters();
            p.setApplicationProtocols(alpn);
            s.setSSLParameters(p);
        }
        s.startHandshake();
        return s;
    }

    @Test
    void getAndPostFiveMegabytesBothWaysOverHttps() throws Exception {
        startTls(c -> { });
        HttpClient client = client(clientTls);
        String base = "https://127.0.0.1:" + server.port();
        var hello = client.send(HttpRequest.newBuilder(URI.create(base + "/hello")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals("hello secure=true", hello.body());
        var get = client.send(HttpRequest.newBuilder(URI.create(base + "/big")).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, get.statusCode());
        assertArrayEquals(big, get.body());
        var post = client.send(HttpRequest.newBuilder(URI.create(base + "/echo"))
                .POST(HttpRequest.BodyPublishers.ofByteArray(big)).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertArrayEquals(big, post.body());
        assertEquals(1, server.stats().connectionsAccepted(), "keep-alive reused the one TLS connection");
        ChildStats child = EngineStats.of(server.stats()).children().get(0);
        assertTrue(child.scoreboard().totalBytesSent() >= 2L * FIVE_MB, "application bytes are counted");
    }

    @Test
    void keepAliveReusesTheConnectionAcrossIdlePeriods() throws Exception {
        startTls(c -> { });
        HttpClient client = client(clientTls);
        for (int i = 0; i < 5; i++) {
            var r = client.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + server.port() + "/hello"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertEquals("hello secure=true", r.body());
            Thread.sleep(30); // the connection goes back to its poller, idle, between requests
        }
        assertEquals(1, server.stats().connectionsAccepted());
    }

    @Test
    void pipelinedRequestsBufferedInsideTlsAreAllServed() throws Exception {
        startTls(c -> { });
        try (SSLSocket s = tlsSocket(server.port()); RawHttp raw = new RawHttp(s, 10_000)) {
            // 40 requests in one write: more than one dispatch serves (16), all decrypted at once.
            StringBuilder batch = new StringBuilder();
            for (int i = 0; i < 40; i++) {
                batch.append("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
            }
            raw.send(batch.toString());
            for (int i = 0; i < 40; i++) {
                RawHttp.Response r = raw.read();
                assertEquals(200, r.status(), "response " + i);
                assertEquals("hello secure=true", r.text());
            }
        }
    }

    @Test
    void sendFileAndRangesOverTls() throws Exception {
        startTls(c -> { });
        HttpClient client = client(clientTls);
        String base = "https://127.0.0.1:" + server.port();
        var whole = client.send(HttpRequest.newBuilder(URI.create(base + "/file")).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertArrayEquals(Files.readAllBytes(file), whole.body());
        var part = client.send(HttpRequest.newBuilder(URI.create(base + "/part")).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertArrayEquals(Arrays.copyOfRange(Files.readAllBytes(file), 1000, 71_000), part.body());
    }

    @Test
    void alpnChoosesHttp11WhenNoHttp2IsPresent() throws Exception {
        startTls(c -> { });
        try (SSLSocket s = tlsSocket(server.port(), "h2", "http/1.1")) {
            assertEquals("http/1.1", s.getApplicationProtocol());
            RawHttp raw = new RawHttp(s, 10_000);
            raw.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
            assertEquals("hello secure=true", raw.read().text());
        }
    }

    @Test
    void curlOverTls13AndTls12() throws Exception {
        assumeTrue(Curl.available(), "curl is not installed");
        startTls(c -> { });
        String url = "https://127.0.0.1:" + server.port() + "/hello";
        Curl.Result r13 = Curl.run("-v", "--cacert", certs.chainPem.toString(), url);
        assertEquals(0, r13.exitCode(), r13.stderr());
        assertEquals("hello secure=true", r13.text());
        assertTrue(r13.stderr().contains("TLSv1.3"), r13.stderr());
        Curl.Result r12 = Curl.run("-v", "--tlsv1.2", "--tls-max", "1.2", "--cacert", certs.chainPem.toString(), url);
        assertEquals(0, r12.exitCode(), r12.stderr());
        assertEquals("hello secure=true", r12.text());
        assertTrue(r12.stderr().contains("TLSv1.2"), r12.stderr());
    }

    @Test
    void ecKeysPkcs1KeysAndPkcs12FilesServe() throws Exception {
        for (Consumer<TlsSettings.Builder> keys : java.util.List.<Consumer<TlsSettings.Builder>>of(
                t -> t.certificateFile(certs.chainPem).keyFile(certs.pkcs1Key),
                t -> t.certificateFile(certs.p12).keyFile(null).password(TestCertificates.PASSWORD))) {
            startTls(c -> c.tls(keys));
            var r = client(clientTls).send(HttpRequest.newBuilder(
                    URI.create("https://127.0.0.1:" + server.port() + "/hello")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals("hello secure=true", r.body());
            server.stop(Duration.ofSeconds(5));
        }
        startTls(c -> c.tls(t -> t.certificateFile(certs.ecCert).keyFile(certs.ecKey)));
        var r = client(clientTlsEc).send(HttpRequest.newBuilder(
                URI.create("https://127.0.0.1:" + server.port() + "/hello")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals("hello secure=true", r.body());
    }

    @Test
    void plainHttpOnATlsPortIsAnswered400AndLoggedAtInfo() throws Exception {
        startTls(c -> { });
        try (LogCapture logs = new LogCapture(); RawHttp raw = new RawHttp(server.port())) {
            raw.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
            RawHttp.Response r = raw.read();
            assertEquals(400, r.status());
            assertTrue(r.text().contains("speaking plain HTTP to an SSL-enabled server port"), r.text());
            assertEquals("close", r.header("Connection"));
            TestServers.waitFor("the connection closed", 5,
                    () -> EngineStats.of(server.stats()).connectionsClosed(CloseReason.ERROR) == 1);
            assertEquals(1, logs.find(Level.INFO, "LM0602").size());
            assertEquals(java.util.List.of(), logs.errors());
        }
    }

    @Test
    void aGarbageHandshakeIsClosedCountedAndLoggedAtInfo() throws Exception {
        startTls(c -> { });
        try (LogCapture logs = new LogCapture(); Socket s = new Socket("127.0.0.1", server.port())) {
            s.setSoTimeout(5_000);
            OutputStream out = s.getOutputStream();
            byte[] garbage = new byte[64];
            new Random(3).nextBytes(garbage);
            garbage[0] = 0x16; // a handshake record header with nonsense after it
            garbage[1] = 0x03;
            garbage[2] = 0x01;
            garbage[3] = 0x00;
            garbage[4] = 0x3b;
            out.write(garbage);
            out.flush();
            assertEndOfStream(s.getInputStream());
            TestServers.waitFor("the connection counted", 5,
                    () -> EngineStats.of(server.stats()).connectionsClosed(CloseReason.ERROR) == 1);
            assertEquals(1, logs.find(Level.INFO, "LM0601").size());
            assertEquals(java.util.List.of(), logs.errors());
        }
    }

    @Test
    void anAbortedHandshakeIsClosedAndCounted() throws Exception {
        startTls(c -> { });
        try (LogCapture logs = new LogCapture()) {
            // Half a ClientHello, then the client goes away.
            try (Socket s = new Socket("127.0.0.1", server.port())) {
                s.getOutputStream().write(new byte[] {0x16, 0x03, 0x01, 0x01, 0x00, 0x01, 0x00, 0x00, (byte) 0xfc, 0x03});
                s.getOutputStream().flush();
                Thread.sleep(100);
            }
            TestServers.waitFor("the connection counted", 5,
                    () -> EngineStats.of(server.stats()).connectionsClosed(CloseReason.ERROR) == 1);
            assertEquals(1, logs.find(Level.INFO, "LM0601").size());
            assertEquals(java.util.List.of(), logs.errors());
        }
    }

    @Test
    void aHandshakeCutByAResetIsCountedAndLoggedAtInfo() throws Exception {
        startTls(c -> { });
        try (LogCapture logs = new LogCapture()) {
            Socket s = new Socket("127.0.0.1", server.port());
            s.getOutputStream().write(new byte[] {0x16, 0x03, 0x01, 0x01, 0x00, 0x01, 0x00, 0x00, (byte) 0xfc, 0x03});
            s.getOutputStream().flush();
            Thread.sleep(200); // the server reads the half ClientHello and waits for the rest
            s.setSoLinger(true, 0);
            s.close(); // a TCP reset
            TestServers.waitFor("the connection counted", 5,
                    () -> EngineStats.of(server.stats()).connectionsClosed(CloseReason.ERROR) == 1);
            assertEquals(0, EngineStats.of(server.stats()).connectionsClosed(CloseReason.NORMAL));
            assertEquals(1, logs.find(Level.INFO, "LM0601").size());
            assertEquals(java.util.List.of(), logs.errors());
        }
    }

    @Test
    void aStalledHandshakeHoldsNoWorkerAndEndsAtTheHeaderDeadline() throws Exception {
        startTls(c -> c.requestHeaderTimeout(Duration.ofSeconds(1)));
        try (Socket silent = new Socket("127.0.0.1", server.port());
             Socket half = new Socket("127.0.0.1", server.port())) {
            silent.setSoTimeout(5_000);
            half.setSoTimeout(5_000);
            half.getOutputStream().write(new byte[] {0x16, 0x03, 0x01, 0x01, 0x00, 0x01, 0x00});
            half.getOutputStream().flush();
            long start = System.nanoTime();
            TestServers.waitFor("both accepted", 5, () -> server.stats().connectionsAccepted() == 2);
            Thread.sleep(300);
            ChildStats child = EngineStats.of(server.stats()).children().get(0);
            assertEquals(0, child.activeWorkers(), "no worker waits for a handshake");
            assertEndOfStream(silent.getInputStream());
            assertEndOfStream(half.getInputStream());
            assertTrue(System.nanoTime() - start < Duration.ofSeconds(4).toNanos());
            TestServers.waitFor("both counted", 5, () -> EngineStats.of(server.stats()).connectionsClosed(CloseReason.TIMEOUT) == 2);
        }
    }

    @Test
    void clientInitiatedRenegotiationOnTls12IsRefused() throws Exception {
        startTls(c -> { });
        try (LogCapture logs = new LogCapture(); SSLSocket s = tlsSocket(server.port(), "TLSv1.2", new String[0])) {
            assertEquals("TLSv1.2", s.getSession().getProtocol());
            RawHttp raw = new RawHttp(s, 10_000);
            raw.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
            assertEquals("hello secure=true", raw.read().text());
            AtomicInteger handshakes = new AtomicInteger();
            s.addHandshakeCompletedListener(e -> handshakes.incrementAndGet());
            // On an established TLS 1.2 socket this sends a ClientHello and returns; the server's
            // answer is read with the next response.
            s.startHandshake();
            raw.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
            IOException refused = assertThrows(IOException.class, raw::read,
                    "the request after a renegotiation attempt was answered");
            assertFalse(refused instanceof SocketTimeoutException, "the server must close, not stall: " + refused);
            assertEquals(0, handshakes.get(), "no second handshake completed");
            TestServers.waitFor("the connection counted", 5,
                    () -> EngineStats.of(server.stats()).connectionsClosed(CloseReason.ERROR) == 1);
            assertEquals(1, logs.find(Level.FINE, "LM0606").size());
            assertEquals(java.util.List.of(), logs.errors());
        }
    }

    @Test
    void tls13KeyUpdateKeepsTheConnection() throws Exception {
        startTls(c -> { });
        try (SSLSocket s = tlsSocket(server.port(), "TLSv1.3", new String[0])) {
            assertEquals("TLSv1.3", s.getSession().getProtocol());
            RawHttp raw = new RawHttp(s, 10_000);
            for (int i = 0; i < 3; i++) {
                raw.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
                assertEquals("hello secure=true", raw.read().text(), "request " + i);
                s.startHandshake(); // on an established TLS 1.3 socket: a KeyUpdate (update_requested)
            }
            raw.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
            assertEquals("hello secure=true", raw.read().text());
            assertEquals(1, server.stats().connectionsAccepted());
        }
    }

    @Test
    void httpAndHttpsListenersInOneServer() throws Exception {
        server = LoomServer.builder()
                .listen("127.0.0.1", 0)
                .https("127.0.0.1", 0)
                .tls(t -> t.certificateFile(certs.chainPem).keyFile(certs.pkcs8Key))
                .configure(c -> c.gracefulShutdownTimeout(Duration.ofSeconds(5)))
                .handler(router())
                .start();
        assertEquals(2, server.addresses().size());
        int plain = server.addresses().get(0).getPort();
        int tls = server.addresses().get(1).getPort();
        var http = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + plain + "/hello")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals("hello secure=false", http.body());
        var https = client(clientTls).send(HttpRequest.newBuilder(
                URI.create("https://127.0.0.1:" + tls + "/hello")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals("hello secure=true", https.body());
    }

    /** Reads until the server closes: EOF, or a reset of a connection it closed with data unread. */
    private static void assertEndOfStream(InputStream in) throws IOException {
        try {
            while (in.read() >= 0) {
                // discard what the server sent (an alert) before it closed
            }
        } catch (java.net.SocketException e) {
            assertTrue(String.valueOf(e.getMessage()).contains("reset"), e.toString());
        }
    }

}
