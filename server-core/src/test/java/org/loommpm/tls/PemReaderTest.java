package org.loommpm.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PrivateKey;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.config.TlsSettings;
import org.loommpm.testsupport.TestCertificates;

class PemReaderTest {
    @TempDir
    static Path dir;
    static TestCertificates certs;

    @BeforeAll
    static void makeCertificates() throws Exception {
        certs = TestCertificates.create(dir);
    }

    private static String text(Path p) throws Exception {
        return Files.readString(p);
    }

    @Test
    void readsTheChainOfAPemFile() throws Exception {
        var chain = PemReader.certificates(text(certs.chainPem), "chain.pem");
        assertEquals(1, chain.size());
        assertEquals("CN=localhost", chain.get(0).getSubjectX500Principal().getName());
    }

    @Test
    void readsAPkcs8Key() throws Exception {
        String pem = text(certs.pkcs8Key);
        assertTrue(pem.contains("BEGIN PRIVATE KEY"), pem);
        assertEquals("RSA", PemReader.privateKey(pem, "k").getAlgorithm());
    }

    @Test
    void wrapsAPkcs1RsaKeyIntoTheSameKey() throws Exception {
        String pem = text(certs.pkcs1Key);
        assertTrue(pem.contains("BEGIN RSA PRIVATE KEY"), pem);
        PrivateKey one = PemReader.privateKey(pem, "k1");
        PrivateKey eight = PemReader.privateKey(text(certs.pkcs8Key), "k8");
        assertEquals("RSA", one.getAlgorithm());
        assertEquals(((java.security.interfaces.RSAPrivateKey) eight).getPrivateExponent(),
                ((java.security.interfaces.RSAPrivateKey) one).getPrivateExponent());
    }

    @Test
    void wrapsASec1EcKeyAfterItsParameters() throws Exception {
        String pem = text(certs.ecKey);
        assertTrue(pem.contains("BEGIN EC PARAMETERS") && pem.contains("BEGIN EC PRIVATE KEY"), pem);
        assertEquals("EC", PemReader.privateKey(pem, "ec").getAlgorithm());
    }

    @Test
    void keyMaterialPairsEachKeyFormWithItsCertificate() throws Exception {
        for (Path key : new Path[] {certs.pkcs8Key, certs.pkcs1Key}) {
            var m = KeyMaterial.load(TlsSettings.builder().certificateFile(certs.chainPem).keyFile(key).build());
            assertEquals("RSA", m.key().getAlgorithm());
        }
        var ec = KeyMaterial.load(TlsSettings.builder().certificateFile(certs.ecCert).keyFile(certs.ecKey).build());
        assertEquals("EC", ec.key().getAlgorithm());
        var p12 = KeyMaterial.load(TlsSettings.builder().certificateFile(certs.p12)
                .password(TestCertificates.PASSWORD).build());
        assertEquals(1, p12.chain().size());
    }

    @Test
    void aKeyOfAnotherCertificateIsRefused() {
        var e = assertThrows(KeyMaterialException.class, () -> KeyMaterial.load(TlsSettings.builder()
                .certificateFile(certs.chainPem).keyFile(certs.ecKey).build()));
        assertEquals("SSLCertificateKeyFile", e.directive());
        assertTrue(e.getMessage().contains("does not belong to the certificate"), e.getMessage());
    }

    @Test
    void aWrongPkcs12PasswordIsNamed() {
        var e = assertThrows(KeyMaterialException.class, () -> KeyMaterial.load(TlsSettings.builder()
                .certificateFile(certs.p12).password("wrong").build()));
        assertTrue(e.getMessage().contains("wrong password"), e.getMessage());
    }

    @Test
    void aMissingFileIsNamed() {
        Path missing = dir.resolve("nope.pem");
        var e = assertThrows(KeyMaterialException.class, () -> KeyMaterial.load(TlsSettings.builder()
                .certificateFile(certs.chainPem).keyFile(missing).build()));
        assertEquals("SSLCertificateKeyFile: cannot read " + missing + ": NoSuchFileException", e.getMessage());
    }

    @Test
    void garbageGetsAPreciseError() {
        var noCert = assertThrows(IllegalArgumentException.class, () -> PemReader.certificates("hello", "g.pem"));
        assertEquals("g.pem: no certificate found (expected a '-----BEGIN CERTIFICATE-----' block)", noCert.getMessage());

        var unterminated = assertThrows(IllegalArgumentException.class,
                () -> PemReader.blocks("-----BEGIN CERTIFICATE-----\nMIIB\n", "u.pem"));
        assertEquals("u.pem: PEM block 'CERTIFICATE' has no '-----END CERTIFICATE-----' line", unterminated.getMessage());

        var badBase64 = assertThrows(IllegalArgumentException.class, () -> PemReader.privateKey(
                "-----BEGIN PRIVATE KEY-----\n%%%%\n-----END PRIVATE KEY-----\n", "b.pem"));
        assertTrue(badBase64.getMessage().startsWith("b.pem: PEM block 'PRIVATE KEY' is not valid base64"),
                badBase64.getMessage());

        var notAKey = assertThrows(IllegalArgumentException.class, () -> PemReader.privateKey(
                "-----BEGIN RSA PRIVATE KEY-----\nAAECAwQ=\n-----END RSA PRIVATE KEY-----\n", "r.pem"));
        assertEquals("r.pem: the PKCS#1 RSA private key does not parse as an RSA, EC or EdDSA key", notAKey.getMessage());

        var badSec1 = assertThrows(IllegalArgumentException.class, () -> PemReader.privateKey(
                "-----BEGIN EC PRIVATE KEY-----\nAAECAwQ=\n-----END EC PRIVATE KEY-----\n", "e.pem"));
        assertTrue(badSec1.getMessage().startsWith("e.pem: the SEC1 EC private key is not valid DER"),
                badSec1.getMessage());

        var encrypted = assertThrows(IllegalArgumentException.class, () -> PemReader.privateKey(
                "-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAECAwQ=\n-----END ENCRYPTED PRIVATE KEY-----\n", "x.pem"));
        assertTrue(encrypted.getMessage().contains("is encrypted, which is not supported"), encrypted.getMessage());

        assertNull(PemReader.privateKey("no key here", "n.pem"));
    }
}
