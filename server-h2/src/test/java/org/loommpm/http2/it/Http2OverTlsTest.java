package org.loommpm.http2.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.api.LoomServer;
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
