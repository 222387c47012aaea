package org.loommpm.http2.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.metrics.MetricsFeature;
import org.loommpm.server.LoomServer;
import org.loommpm.api.Router;
import org.loommpm.testsupport.TestCertificates;

/**
 * The TLS and HTTP/2 meters, driven by known traffic on one server with a plain and a TLS
 * listener: exact handshake outcomes (completed, failed, plaintext), HTTP/2 connections,
 * streams and GOAWAYs in both directions.
 */
class ProtocolMetricsTest {
    @TempDir
    Path dir;

    @Test
    void tlsAndHttp2CountsReachTheRegistry() throws Exception {
        TestCertificates keys = TestCertificates.create(dir);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        LoomServer server = LoomServer.builder()
                .listen("127.0.0.1", 0)
                .https("127.0.0.1", 0)
                .tls(t -> t.certificateFile(keys.p12).password(TestCertificates.PASSWORD))
                .configure(c -> c.keepAliveTimeout(Duration.ofSeconds(30)))
                .feature(new MetricsFeature(registry))
                .handler(new Router().get("/hello", (req, res) -> res.send("hi")))
                .start();
        int plain = server.addresses().get(0).getPort();
        int tls = server.addresses().get(1).getPort();
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2)
                .sslContext(TestCertificates.clientContext(keys.chainPem)).build();
        try {
            // One TLS connection, h2 by ALPN, three streams.
            for (int i = 0; i < 3; i++) {
                HttpResponse<String> r = client.send(HttpRequest.newBuilder(
                        URI.create("https://127.0.0.1:" + tls + "/hello")).build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(HttpClient.Version.HTTP_2, r.version());
            }
            ProtocolTraffic.h2cStreamThenGoaway(plain);
            ProtocolTraffic.plaintextAndGarbageHelloOnTls(tls);
            // A graceful stop sends GOAWAY on the client's idle TLS connection.
            server.stop(Duration.ofSeconds(10));
        } finally {
            client.close();
            server.close();
        }
        assertEquals(1, count(registry, "loom.tls.handshakes", "outcome", "completed"));
        assertEquals(1, count(registry, "loom.tls.handshakes", "outcome", "failed"));
        assertEquals(1, count(registry, "loom.tls.handshakes", "outcome", "plaintext"));
        assertEquals(2, count(registry, "loom.http2.connections", null, null));
        assertEquals(4, count(registry, "loom.http2.streams.started", null, null));
        assertEquals(4, count(registry, "loom.http2.streams.completed", null, null));
        assertEquals(0, count(registry, "loom.http2.streams.refused", null, null));
        assertEquals(1, count(registry, "loom.http2.goaway", "direction", "received"));
        assertEquals(1, count(registry, "loom.http2.goaway", "direction", "sent"));
    }

    private static long count(SimpleMeterRegistry registry, String name, String tag, String value) {
        var search = registry.find(name);
        if (tag != null) {
            search = search.tag(tag, value);
        }
        FunctionCounter c = search.functionCounter();
        org.junit.jupiter.api.Assertions.assertNotNull(c, name + " registered");
        return (long) c.count();
    }
}
