package org.loommpm.cli.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.testsupport.Curl;
import org.loommpm.testsupport.TestCertificates;

/** TLS through the jar: {@code -t} on TLS settings, and http and https served side by side (curl). */
class TlsIT {
    @TempDir
    static Path dir;
    static TestCertificates files;

    @BeforeAll
    static void makeKeys() throws Exception {
        files = TestCertificates.create(dir);
        Path root = Files.createDirectories(dir.resolve("htdocs"));
        Files.writeString(root.resolve("hello.txt"), "Hello, TLS!");
    }

    @Test
    void configCheckAcceptsPemFilesAndReportsABadKeyWithItsLine() throws Exception {
        Files.writeString(dir.resolve("good.conf"), """
                Listen 127.0.0.1:8443 https
                SSLCertificateFile chain.pem
                SSLCertificateKeyFile key-pkcs8.pem
                SSLProtocol -all +TLSv1.3 +TLSv1.2
                """);
        JarProcess.Result ok = JarProcess.run(dir, "-t", "-f", "good.conf");
        assertEquals(0, ok.exit(), ok.err());
        assertEquals("Syntax OK", ok.out().strip());

        Path bad = dir.resolve("bad.conf");
        Files.writeString(bad, "SSLEngine on\nSSLCertificateFile chain.pem\nSSLCertificateKeyFile ec-key.pem\n");
        JarProcess.Result r = JarProcess.run(dir, "-t", "-f", "bad.conf");
        assertEquals(1, r.exit());
        assertTrue(r.err().startsWith("Syntax error on line 3 of " + bad.toRealPath()
                + ": SSLCertificateKeyFile: the private key does not belong to the certificate"), r.err());

        Files.writeString(dir.resolve("missing.conf"), "SSLEngine on\nSSLCertificateFile gone.pem\n");
        JarProcess.Result m = JarProcess.run(dir, "-t", "-f", "missing.conf");
        assertEquals(1, m.exit());
        assertTrue(m.err().contains("line 2 of") && m.err().contains("gone.pem' does not exist or is not readable"),
                m.err());
    }

    @Test
    void servesHttpAndHttpsFromOneServer() throws Exception {
        Files.writeString(dir.resolve("both.conf"), """
                Listen 127.0.0.1:0
                Listen 127.0.0.1:0 https
                DocumentRoot htdocs
                SSLCertificateFile chain.pem
                SSLCertificateKeyFile key-pkcs8.pem
                ErrorLog error.log
                CustomLog access.log common
                """);
        try (JarProcess server = JarProcess.start(dir, "-f", "both.conf")) {
            int plain = server.ports().get(0);
            int tls = server.ports().get(1);
            Curl.Response http = Curl.exchange("http://127.0.0.1:" + plain + "/hello.txt");
            assertEquals(200, http.status());
            assertEquals("Hello, TLS!", http.body());
            Curl.Response https = Curl.exchange("--cacert", files.chainPem.toString(), "https://127.0.0.1:" + tls + "/hello.txt");
            assertEquals(0, https.exit());
            assertEquals(200, https.status());
            assertEquals("Hello, TLS!", https.body());
            Curl.Response plainOnTls = Curl.exchange("http://127.0.0.1:" + tls + "/hello.txt");
            assertEquals(400, plainOnTls.status());
            server.awaitFile(dir.resolve("error.log"), s -> s.contains("LM0602"), Duration.ofSeconds(10));
        }
    }
}
