package org.loommpm.http2.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.api.Router;
import org.loommpm.config.TlsSettings;
import org.loommpm.server.LoomServer;
import org.loommpm.testsupport.TestCertificates;

/**
 * {@code Request.tls()} over HTTP/2 (h2 by ALPN) with the JDK HttpClient presenting a client
 * certificate ({@code SSLVerifyClient optional}): the same details as HTTP/1.1 on the same
 * listener, ALPN {@code h2}, the SNI name, the verified chain; every stream of the connection
 * sees them; a client without a certificate gets an empty chain.
 */
class TlsInfoH2Test {
    @TempDir
    static Path dir;
    static TestCertificates keys;
    static TestCertificates.ClientCertificates clients;
    static LoomServer server;

    @BeforeAll
    static void start() throws Exception {
        keys = TestCertificates.create(dir);
        clients = TestCertificates.createClients(dir);
        Router router = new Router().get("/tls", (req, res) -> res.send(req.protocol() + " " + req.tls()
                .map(t -> t.protocol() + " sni=" + t.serverName() + " alpn=" + t.applicationProtocol() + " verified="
                        + t.peerVerified() + " chain=" + t.peerCertificates().stream()
                        .map(c -> c.getSubjectX500Principal().getName()).collect(Collectors.joining("|")))
                .orElse("none")));
        server = LoomServer.builder()
                .https("127.0.0.1", 0)
                .tls(t -> t.certificateFile(keys.p12).password(TestCertificates.PASSWORD)
                        .verifyClient(TlsSettings.VerifyClient.OPTIONAL).caCertificateFile(clients.caPem()))
                .handler(router)
                .start();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static String get(HttpClient client) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + server.port() + "/tls")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    private static HttpClient client(SSLContext tls, HttpClient.Version version) {
        // The context's defaults: the JDK client offers h2 only when the parameters name TLS 1.2 or 1.3.
        SSLParameters p = tls.getDefaultSSLParameters();
        p.setServerNames(List.of(new SNIHostName("localhost")));
        return HttpClient.newBuilder().version(version).sslContext(tls).sslParameters(p).build();
    }

    @Test
    void h2StreamsSeeTheVerifiedClientChain() throws Exception {
        SSLContext alice = TestCertificates.clientContext(keys.chainPem, clients.clientP12());
        try (HttpClient h2 = client(alice, HttpClient.Version.HTTP_2)) {
            String expected = "HTTP/2.0 TLSv1.3 sni=localhost alpn=h2 verified=true"
                    + " chain=CN=alice,O=Loom Test|CN=Loom Test Client CA";
            assertEquals(expected, get(h2));
            assertEquals(expected, get(h2)); // another stream of the same connection
        }
    }

    @Test
    void http11OnTheSameListenerSeesTheSame() throws Exception {
        SSLContext alice = TestCertificates.clientContext(keys.chainPem, clients.clientP12());
        try (HttpClient h1 = client(alice, HttpClient.Version.HTTP_1_1)) {
            // The JDK client offers no ALPN for HTTP/1.1.
            assertEquals("HTTP/1.1 TLSv1.3 sni=localhost alpn=null verified=true"
                    + " chain=CN=alice,O=Loom Test|CN=Loom Test Client CA", get(h1));
        }
    }

    @Test
    void aClientWithoutACertificateHasAnEmptyChain() throws Exception {
        try (HttpClient h2 = client(TestCertificates.clientContext(keys.chainPem), HttpClient.Version.HTTP_2)) {
            assertEquals("HTTP/2.0 TLSv1.3 sni=localhost alpn=h2 verified=false chain=", get(h2));
        }
    }
}
