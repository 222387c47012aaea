package org.loommpm.cli.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.testsupport.TestCertificates;

class TlsDirectivesTest {
    @TempDir
    static Path dir;
    static TestCertificates files;

    @BeforeAll
    static void makeKeys() throws Exception {
        files = TestCertificates.create(dir);
    }

    private static LoomConfig parse(String text) throws Exception {
        return ConfigFiles.parse(dir, text);
    }

    private static ConfigException error(String text) {
        return assertThrows(ConfigException.class, () -> parse(text));
    }

    @Test
    void sslEngineWithPemFilesRelativeToTheConfiguration() throws Exception {
        LoomConfig c = parse("""
                Listen 127.0.0.1:8443
                SSLEngine on
                SSLCertificateFile chain.pem
                SSLCertificateKeyFile key-pkcs8.pem
                SSLProtocol -all +TLSv1.3
                SSLCipherSuite TLS_AES_256_GCM_SHA384:TLS_AES_128_GCM_SHA256
                """);
        var tls = c.engine().tls();
        assertTrue(tls.engine() && tls.active());
        assertEquals(files.chainPem, tls.certificateFile());
        assertEquals(files.pkcs8Key, tls.keyFile());
        assertEquals(List.of("TLSv1.3"), tls.protocols());
        assertEquals(List.of("TLS_AES_256_GCM_SHA384", "TLS_AES_128_GCM_SHA256"), tls.cipherSuites());
    }

    @Test
    void listenHttpsAddsATlsListenerBesideThePlainOne() throws Exception {
        LoomConfig c = parse("""
                Listen 127.0.0.1:8080
                Listen 127.0.0.1:8443 https
                SSLCertificateFile server.p12
                SSLCertificatePassword changeit
                """);
        assertEquals(List.of(new InetSocketAddress("127.0.0.1", 8080)), c.engine().listen());
        assertEquals(List.of(new InetSocketAddress("127.0.0.1", 8443)), c.engine().tls().listen());
        assertFalse(c.engine().tls().engine());
        assertEquals(List.of("TLSv1.3", "TLSv1.2"), c.engine().tls().protocols());
    }

    @Test
    void sslProtocolFollowsHttpdSyntax() throws Exception {
        String base = "SSLEngine on\nSSLCertificateFile chain.pem\nSSLCertificateKeyFile key-pkcs8.pem\n";
        assertEquals(List.of("TLSv1.3", "TLSv1.2"), parse(base + "SSLProtocol all -TLSv1 -TLSv1.1\n").engine().tls().protocols());
        assertEquals(List.of("TLSv1.2"), parse(base + "SSLProtocol TLSv1.3 TLSv1.2 -TLSv1.3\n").engine().tls().protocols());
        assertEquals("SSLProtocol: SSLv3 is not supported", error(base + "SSLProtocol +SSLv3\n").getMessage());
        assertEquals(4, error(base + "SSLProtocol -all\n").line());
    }

    @Test
    void errorsNameTheLineAtFault() throws Exception {
        ConfigException missing = error("SSLEngine on\nSSLCertificateFile nope.pem\n");
        assertEquals(2, missing.line());
        assertEquals("SSLCertificateFile: file '" + dir.resolve("nope.pem") + "' does not exist or is not readable",
                missing.getMessage());

        ConfigException noCert = error("Listen 8080\nSSLEngine on\n");
        assertEquals(2, noCert.line());
        assertTrue(noCert.getMessage().startsWith("SSLEngine on needs SSLCertificateFile"), noCert.getMessage());

        ConfigException wrongKey = error("SSLEngine on\nSSLCertificateFile chain.pem\nSSLCertificateKeyFile ec-key.pem\n");
        assertEquals(3, wrongKey.line());
        assertTrue(wrongKey.getMessage().contains("does not belong to the certificate"), wrongKey.getMessage());

        ConfigException notPem = error("Listen 8443 https\nSSLCertificateFile loom.conf\n");
        assertEquals(2, notPem.line());

        ConfigException openssl = error("SSLEngine on\nSSLCertificateFile chain.pem\nSSLCertificateKeyFile key-pkcs8.pem\n"
                + "SSLCipherSuite HIGH:!aNULL\n");
        assertEquals(4, openssl.line());
        assertTrue(openssl.getMessage().contains("OpenSSL names and keywords such as HIGH are not translated"),
                openssl.getMessage());

        ConfigException password = error("SSLEngine on\nSSLCertificateFile server.p12\nSSLCertificatePassword nope\n");
        assertEquals(2, password.line());
        assertTrue(password.getMessage().contains("wrong password"), password.getMessage());

        ConfigException protocol = error("Listen 8443 ftp\n");
        assertEquals("Listen: protocol 'ftp' is not supported (http or https)", protocol.getMessage());
    }

    @Test
    void sslDirectivesWithoutATlsListenerOnlyWarn() throws Exception {
        LoomConfig c = parse("SSLCertificateFile chain.pem\n");
        assertFalse(c.engine().tls().active());
        assertEquals(1, c.warnings().size());
        assertTrue(c.warnings().get(0).contains("no listener speaks TLS"), c.warnings().get(0));
    }
}
