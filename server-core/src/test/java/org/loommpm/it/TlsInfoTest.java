package org.loommpm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.api.Handler;
import org.loommpm.api.Router;
import org.loommpm.config.TlsSettings;
import org.loommpm.server.LoomServer;
import org.loommpm.testsupport.TestCertificates;
import org.loommpm.tls.KeyMaterialException;
import org.loommpm.tls.TlsContextFactory;

/**
 * {@code Request.tls()} over HTTP/1.1 with the JDK HttpClient: the negotiated protocol and suite,
 * the SNI name the client sent, and the client's certificate chain when the server asks for one
 * ({@code SSLVerifyClient} against {@code SSLCACertificateFile}): verified under {@code require},
 * absent but allowed under {@code optional}, a handshake failure for a client without one under
 * {@code require} or with one the CA never signed. A plaintext request has none.
 */
class TlsInfoTest {
    @TempDir
    static Path dir;
    static TestCertificates server;
    static TestCertificates.ClientCertificates clients;
    static LoomServer required;
    static LoomServer optional;

    /** Answers with what the handler sees of the connection's TLS. */
    static final Handler DESCRIBE = (req, res) -> res.send(req.tls().map(t -> t.protocol() + " "
            + (t.cipherSuite().startsWith("TLS_") ? "suite" : t.cipherSuite()) + " sni=" + t.serverName()
            + " alpn=" + t.applicationProtocol() + " verified=" + t.peerVerified() + " chain="
            + t.peerCertificates().stream().map(c -> c.getSubjectX500Principal().getName()).collect(Collectors.joining("|")))
            .orElse("plaintext secure=" + req.isSecure()));

    @BeforeAll
    static void start() throws Exception {
        server = TestCertificates.create(dir);
        clients = TestCertificates.createClients(dir);
        required = start(TlsSettings.VerifyClient.REQUIRE);
        optional = start(TlsSettings.VerifyClient.OPTIONAL);
    }

    private static LoomServer start(TlsSettings.VerifyClient mode) throws IOException {
        return LoomServer.builder()
                .listen("127.0.0.1", 0)
                .https("127.0.0.1", 0)
                .tls(t -> t.certificateFile(server.p12).password(TestCertificates.PASSWORD)
                        .verifyClient(mode).caCertificateFile(clients.caPem()))
                .handler(new Router().get("/tls", DESCRIBE))
                .start();
    }

    @AfterAll
    static void stop() {
        required.close();
        optional.close();
    }

    private static int httpsPort(LoomServer s) {
        return s.addresses().get(1).getPort();
    }

    private static String get(SSLContext tls, LoomServer s, String sni) throws Exception {
        HttpClient.Builder b = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).sslContext(tls)
                .connectTimeout(Duration.ofSeconds(5));
        if (sni != null) {
            // The URI names an IP address, for which no SNI goes out: the name is set here, and
            // the server's certificate (SAN DNS:localhost) is checked against it.
            SSLParameters p = new SSLParameters();
            p.setServerNames(List.of(new SNIHostName(sni)));
            b.sslParameters(p);
        }
        try (HttpClient client = b.build()) {
            HttpResponse<String> r = client.send(HttpRequest.newBuilder(
                    URI.create("https://127.0.0.1:" + httpsPort(s) + "/tls")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode());
            return r.body();
        }
    }

    @Test
    void aVerifiedClientChainReachesTheHandler() throws Exception {
        SSLContext alice = TestCertificates.clientContext(server.chainPem, clients.clientP12());
        assertEquals("TLSv1.3 suite sni=localhost alpn=null verified=true chain=CN=alice,O=Loom Test|CN=Loom Test Client CA",
                get(alice, required, "localhost"));
        // No SNI name for an IP address (a context of its own: one that resumed the session above
        // would get that session's name).
        assertEquals("TLSv1.3 suite sni=null alpn=null verified=true chain=CN=alice,O=Loom Test|CN=Loom Test Client CA",
                get(TestCertificates.clientContext(server.chainPem, clients.clientP12()), required, null));
    }

    @Test
    void theProtocolAndSuiteAreThoseNegotiated() throws Exception {
        SSLContext alice = TestCertificates.clientContext(server.chainPem, clients.clientP12());
        HttpClient.Builder b = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).sslContext(alice);
        SSLParameters p = new SSLParameters(new String[] {"TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
            "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"}, new String[] {"TLSv1.2"});
        b.sslParameters(p);
        try (HttpClient client = b.build()) {
            String body = client.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + httpsPort(required)
                    + "/tls")).build(), HttpResponse.BodyHandlers.ofString()).body();
            assertTrue(body.startsWith("TLSv1.2 suite "), body);
            assertTrue(body.endsWith("chain=CN=alice,O=Loom Test|CN=Loom Test Client CA"), body);
        }
    }

    @Test
    void requireRefusesAClientWithoutACertificateOrWithAnUnknownOne() throws Exception {
        SSLContext anonymous = TestCertificates.clientContext(server.chainPem);
        assertThrows(IOException.class, () -> get(anonymous, required, null));
        SSLContext mallory = TestCertificates.clientContext(server.chainPem, clients.strangerP12());
        assertThrows(IOException.class, () -> get(mallory, required, null));
        // The server goes on serving.
        assertTrue(get(TestCertificates.clientContext(server.chainPem, clients.clientP12()), required, null)
                .contains("verified=true"));
    }

    @Test
    void optionalLetsAClientWithoutACertificateIn() throws Exception {
        SSLContext anonymous = TestCertificates.clientContext(server.chainPem);
        assertEquals("TLSv1.3 suite sni=null alpn=null verified=false chain=", get(anonymous, optional, null));
        SSLContext alice = TestCertificates.clientContext(server.chainPem, clients.clientP12());
        assertTrue(get(alice, optional, null).endsWith("verified=true chain=CN=alice,O=Loom Test|CN=Loom Test Client CA"));
    }

    @Test
    void aPlaintextRequestHasNoTlsDetails() throws Exception {
        try (HttpClient client = HttpClient.newHttpClient()) {
            HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                    + required.addresses().get(0).getPort() + "/tls")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals("plaintext secure=false", r.body());
        }
    }

    @Test
    void verifyClientNeedsACaFileThatHoldsCertificates() throws Exception {
        var e = assertThrows(IllegalArgumentException.class, () -> TlsSettings.builder()
                .verifyClient(TlsSettings.VerifyClient.REQUIRE).build());
        assertEquals("SSLVerifyClient require needs SSLCACertificateFile or SSLCACertificatePath", e.getMessage());
        TlsSettings noCerts = TlsSettings.builder().certificateFile(server.p12).password(TestCertificates.PASSWORD)
                .verifyClient(TlsSettings.VerifyClient.OPTIONAL).caCertificateFile(server.pkcs8Key).build();
        KeyMaterialException k = assertThrows(KeyMaterialException.class, () -> TlsContextFactory.check(noCerts));
        assertEquals("SSLCACertificateFile", k.directive());
    }
}
