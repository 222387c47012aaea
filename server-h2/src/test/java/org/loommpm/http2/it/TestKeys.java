package org.loommpm.http2.it;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A throw-away server key for TLS tests, made with the running JVM's keytool: an EC P-256 key in
 * a PKCS#12 file (SAN 127.0.0.1 and localhost) and its certificate in PEM, for curl's
 * {@code --cacert}; and a client context trusting exactly that certificate.
 */
record TestKeys(Path p12, Path certPem) {
    static final String PASSWORD = "changeit";

    /** Makes both files in {@code dir}. */
    static TestKeys create(Path dir) throws Exception {
        TestKeys k = new TestKeys(dir.resolve("server.p12"), dir.resolve("cert.pem"));
        String keytool = Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        exec(keytool, "-genkeypair", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1",
                "-validity", "2", "-dname", "CN=localhost", "-ext", "SAN=IP:127.0.0.1,DNS:localhost",
                "-keystore", k.p12.toString(), "-storetype", "PKCS12", "-storepass", PASSWORD, "-keypass", PASSWORD);
        exec(keytool, "-exportcert", "-rfc", "-alias", "server", "-keystore", k.p12.toString(),
                "-storepass", PASSWORD, "-file", k.certPem.toString());
        return k;
    }

    /** A client context that trusts this key's certificate only. */
    SSLContext clientContext() throws Exception {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(p12)) {
            ks.load(in, PASSWORD.toCharArray());
        }
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("server", ks.getCertificate("server"));
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(null, tmf.getTrustManagers(), null);
        return ctx;
    }

    private static void exec(String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", cmd) + " failed: " + out);
        }
    }
}
