package org.loommpm.http2.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.server.LoomServer;
import org.loommpm.api.Router;
import org.loommpm.testsupport.TestCertificates;

/**
 * HTTP/2 over TLS as a user gets it: the public builder with an https listener and a self-signed
 * certificate made here with keytool, server-h2 found on the class path, ALPN choosing {@code h2}
 * for clients that offer it and {@code http/1.1} for those that do not; real clients (curl, the
 * JDK HttpClient, h2load). {@code request.isSecure()} is true on both protocols.
 */
class Http2OverTlsTest {
    private static final byte[] BIG = new byte[1 << 20];
    @TempDir
    static Path dir;
    private static LoomServer server;
    private static TestCertificates keys;

    @BeforeAll
    static void start() throws Exception {
        new Random(7).nextBytes(BIG);
        keys = TestCertificates.create(dir);
        Router router = new Router()
                .get("/hello", (req, res) -> res.send(req.protocol() + " secure=" + req.isSecure()))
                .get("/big", (req, res) -> res.send(BIG))
                .post("/sha", (req, res) -> res.send(
                        HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(req.bodyBytes()))));
        server = LoomServer.builder()
                .https("127.0.0.1", 0)
                .tls(t -> t.certificateFile(keys.p12).password(TestCertificates.PASSWORD))
                .handler(router)
                .start();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static String base() {
        return "https://127.0.0.1:" + server.port();
    }

    @Test
    void curlNegotiatesH2ByAlpnAndFallsBackToHttp11() throws Exception {
        Tools.assumeInstalled("curl");
        Tools.Result h2 = Tools.run("curl", "-s", "--http2", "--cacert", keys.chainPem.toString(),
                "-w", "\n%{http_version}", base() + "/hello");
        assertEquals(0, h2.exitCode(), h2.stderr());
        assertEquals("HTTP/2.0 secure=true\n2", h2.stdout());
        Tools.Result h1 = Tools.run("curl", "-s", "--http1.1", "--cacert", keys.chainPem.toString(),
                "-w", "\n%{http_version}", base() + "/hello");
        assertEquals("HTTP/1.1 secure=true\n1.1", h1.stdout());
        Tools.Result big = Tools.run("curl", "-s", "--http2", "--cacert", keys.chainPem.toString(), base() + "/big",
                "-o", "/dev/null", "-w", "%{size_download} %{http_version}");
        assertEquals(BIG.length + " 2", big.stdout());
    }

    @Test
    void jdkClientSpeaksH2OverTls() throws Exception {
        try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2)
                .sslContext(TestCertificates.clientContext(keys.chainPem)).build()) {
            HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create(base() + "/hello")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(HttpClient.Version.HTTP_2, r.version());
            assertEquals("HTTP/2.0 secure=true", r.body());
            HttpResponse<String> sha = client.send(HttpRequest.newBuilder(URI.create(base() + "/sha"))
                    .POST(HttpRequest.BodyPublishers.ofByteArray(BIG)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(BIG)), sha.body());
            HttpResponse<byte[]> big = client.send(HttpRequest.newBuilder(URI.create(base() + "/big")).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            assertTrue(java.util.Arrays.equals(BIG, big.body()), "every byte of 1 MB over h2/TLS");
        }
    }

    /**
     * RFC 9113 §9.2.2: HTTP/2 over TLS 1.2 must not use a prohibited (non-AEAD, non-ephemeral)
     * suite, so a client that lands on one is given http/1.1, or refused when it offers only h2
     * (RFC 7301 §3.2: no_application_protocol).
     */
    @Test
    void h2IsNotNegotiatedOverTls12WithAProhibitedSuite() throws Exception {
        try (SSLSocket s = tls12Socket("TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256", "h2", "http/1.1")) {
            s.startHandshake();
            assertEquals("TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256", s.getSession().getCipherSuite());
            assertEquals("http/1.1", s.getApplicationProtocol());
            s.getOutputStream().write("GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            String response = new String(s.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            assertTrue(response.startsWith("HTTP/1.1 200") && response.endsWith("HTTP/1.1 secure=true"), response);
        }
        try (SSLSocket s = tls12Socket("TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256", "h2")) {
            assertThrows(SSLHandshakeException.class, s::startHandshake);
        }
        try (SSLSocket s = tls12Socket("TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", "h2", "http/1.1")) {
            s.startHandshake();
            assertEquals("h2", s.getApplicationProtocol(), "an AEAD suite with ECDHE is fine for h2");
        }
        try (SSLSocket s = tls12Socket("TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256")) {
            s.startHandshake();
            assertEquals("", s.getApplicationProtocol(), "no ALPN offered, none chosen");
        }
    }

    private static SSLSocket tls12Socket(String suite, String... alpn) throws Exception {
        SSLSocket s = (SSLSocket) TestCertificates.clientContext(keys.chainPem).getSocketFactory()
                .createSocket("127.0.0.1", server.port());
        s.setSoTimeout(10_000);
        s.setEnabledProtocols(new String[] {"TLSv1.2"});
        s.setEnabledCipherSuites(new String[] {suite});
        SSLParameters p = s.getSSLParameters();
        p.setApplicationProtocols(alpn);
        s.setSSLParameters(p);
        return s;
    }

    /** Many multiplexed streams and connection churn over TLS: no response lost. */
    @Test
    void h2loadOverTlsLosesNothing() throws Exception {
        Tools.assumeInstalled("h2load");
        for (List<String> args : List.of(List.of("-n", "5000", "-c", "8", "-m", "20"),
                List.of("-n", "3000", "-c", "30", "-m", "1"))) {
            var cmd = new java.util.ArrayList<>(List.of("h2load"));
            cmd.addAll(args);
            cmd.add(base() + "/hello");
            Tools.Result r = Tools.run(cmd.toArray(String[]::new));
            assertEquals(0, r.exitCode(), r.stderr());
            assertTrue(r.stdout().contains("Application protocol: h2"), r.stdout());
            Matcher m = Pattern.compile("requests: (\\d+) total, (\\d+) started, (\\d+) done, (\\d+) succeeded")
                    .matcher(r.stdout());
            assertTrue(m.find(), r.stdout());
            assertEquals(m.group(1), m.group(4), "every request succeeded: " + r.stdout());
            assertEquals(m.group(2), m.group(4), "started - succeeded == 0");
        }
    }
}
