package org.loommpm.testsupport;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Key material made for a test in its own directory: keytool (of the running JVM) makes an RSA
 * PKCS#12 with SAN IP:127.0.0.1 and DNS:localhost; openssl derives the PEM chain, a PKCS#8 key
 * and a PKCS#1 key from it, and makes a self-signed EC (P-256) certificate with a SEC1 key (also
 * a key that does not match the RSA chain). Shared by every module's tests through server-core's
 * test-jar.
 */
public final class TestCertificates {
    /** The PKCS#12 password. */
    public static final String PASSWORD = "changeit";

    public final Path p12;
    public final Path chainPem;
    public final Path pkcs8Key;
    public final Path pkcs1Key;
    public final Path ecCert;
    public final Path ecKey;

    private TestCertificates(Path dir) {
        p12 = dir.resolve("server.p12");
        chainPem = dir.resolve("chain.pem");
        pkcs8Key = dir.resolve("key-pkcs8.pem");
        pkcs1Key = dir.resolve("key-pkcs1.pem");
        ecCert = dir.resolve("ec-cert.pem");
        ecKey = dir.resolve("ec-key.pem");
    }

    /** Makes every file in {@code dir} (about a second, mostly RSA key generation). */
    public static TestCertificates create(Path dir) throws IOException, InterruptedException {
        TestCertificates c = new TestCertificates(dir);
        String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        run(dir, keytool, "-genkeypair", "-alias", "server", "-keyalg", "RSA", "-keysize", "2048",
                "-validity", "2", "-dname", "CN=localhost", "-ext", "SAN=IP:127.0.0.1,DNS:localhost",
                "-keystore", c.p12.toString(), "-storetype", "PKCS12", "-storepass", PASSWORD, "-keypass", PASSWORD);
        run(dir, "openssl", "pkcs12", "-in", c.p12.toString(), "-nokeys", "-out", c.chainPem.toString(),
                "-passin", "pass:" + PASSWORD);
        run(dir, "openssl", "pkcs12", "-in", c.p12.toString(), "-nocerts", "-nodes", "-out", c.pkcs8Key.toString(),
                "-passin", "pass:" + PASSWORD);
        run(dir, "openssl", "rsa", "-in", c.pkcs8Key.toString(), "-traditional", "-out", c.pkcs1Key.toString());
        run(dir, "openssl", "ecparam", "-name", "prime256v1", "-genkey", "-out", c.ecKey.toString());
        run(dir, "openssl", "req", "-x509", "-new", "-key", c.ecKey.toString(), "-out", c.ecCert.toString(),
                "-days", "2", "-subj", "/CN=localhost", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost");
        return c;
    }

    /**
     * Client certificates for {@code SSLVerifyClient} tests: a CA ({@code caPem}, what the server
     * trusts), a client key and chain it signed ({@code clientP12}: CN=alice, the chain [alice,
     * CA]), and a self-signed client the CA never saw ({@code strangerP12}). EC keys, made by
     * openssl (quick: no JVM per step as keytool would start).
     */
    public record ClientCertificates(Path caPem, Path clientP12, Path strangerP12) {
    }

    /** Makes the files of {@link ClientCertificates} in {@code dir} (openssl: a few milliseconds each). */
    public static ClientCertificates createClients(Path dir) throws IOException, InterruptedException {
        Path caKey = dir.resolve("client-ca.key");
        Path caPem = dir.resolve("client-ca.pem");
        Path key = dir.resolve("client.key");
        Path csr = dir.resolve("client.csr");
        Path signed = dir.resolve("client.pem");
        Path ext = dir.resolve("client.ext");
        Path client = dir.resolve("client.p12");
        Path strangerKey = dir.resolve("stranger.key");
        Path strangerPem = dir.resolve("stranger.pem");
        Path stranger = dir.resolve("stranger.p12");
        String[] ec = {"-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"};
        run(dir, concat(new String[] {"openssl", "req", "-x509"}, concat(ec, new String[] {"-keyout", caKey.toString(),
                "-out", caPem.toString(), "-days", "2", "-subj", "/CN=Loom Test Client CA",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign"})));
        run(dir, concat(new String[] {"openssl", "req"}, concat(ec, new String[] {"-keyout", key.toString(),
                "-out", csr.toString(), "-subj", "/O=Loom Test/CN=alice"})));
        Files.writeString(ext, "keyUsage=critical,digitalSignature\nextendedKeyUsage=clientAuth\n");
        run(dir, "openssl", "x509", "-req", "-in", csr.toString(), "-CA", caPem.toString(), "-CAkey", caKey.toString(),
                "-CAcreateserial", "-out", signed.toString(), "-days", "2", "-extfile", ext.toString());
        run(dir, "openssl", "pkcs12", "-export", "-inkey", key.toString(), "-in", signed.toString(), "-certfile",
                caPem.toString(), "-name", "client", "-out", client.toString(), "-passout", "pass:" + PASSWORD);
        run(dir, concat(new String[] {"openssl", "req", "-x509"}, concat(ec, new String[] {"-keyout",
                strangerKey.toString(), "-out", strangerPem.toString(), "-days", "2", "-subj", "/CN=mallory"})));
        run(dir, "openssl", "pkcs12", "-export", "-inkey", strangerKey.toString(), "-in", strangerPem.toString(),
                "-name", "stranger", "-out", stranger.toString(), "-passout", "pass:" + PASSWORD);
        return new ClientCertificates(caPem, client, stranger);
    }

    /** A client context trusting exactly the certificates in {@code pem} and presenting the key in {@code p12}. */
    public static SSLContext clientContext(Path pem, Path p12) throws Exception {
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (var in = Files.newInputStream(p12)) {
            keys.load(in, PASSWORD.toCharArray());
        }
        javax.net.ssl.KeyManagerFactory kmf =
                javax.net.ssl.KeyManagerFactory.getInstance(javax.net.ssl.KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(keys, PASSWORD.toCharArray());
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(kmf.getKeyManagers(), trustManagers(pem), null);
        return ctx;
    }

    private static String[] concat(String[] a, String[] b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /** A client context trusting exactly the certificates in {@code pem}. */
    public static SSLContext clientContext(Path pem) throws Exception {
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(null, trustManagers(pem), null);
        return ctx;
    }

    private static javax.net.ssl.TrustManager[] trustManagers(Path pem) throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        CertificateFactory cf = CertificateFactory.getInstance("X.509");
        int i = 0;
        for (var cert : cf.generateCertificates(new ByteArrayInputStream(Files.readAllBytes(pem)))) {
            trust.setCertificateEntry("c" + i++, (X509Certificate) cert);
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        return tmf.getTrustManagers();
    }

    private static void run(Path dir, String... cmd) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(cmd));
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException(String.join(" ", cmd) + " failed: " + new String(out, StandardCharsets.UTF_8));
        }
    }
}
