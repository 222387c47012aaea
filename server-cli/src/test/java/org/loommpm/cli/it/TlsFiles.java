package org.loommpm.cli.it;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Key material for TLS tests, made in the test's directory: keytool (of the running JVM) makes an
 * RSA PKCS#12 (SAN IP:127.0.0.1, DNS:localhost); openssl derives the PEM chain and PKCS#8 key, and
 * makes an unrelated EC key (for a key-does-not-match error).
 */
public final class TlsFiles {
    /** The PKCS#12 password. */
    public static final String PASSWORD = "changeit";

    public final Path p12;
    public final Path chain;
    public final Path key;
    public final Path otherKey;

    private TlsFiles(Path dir) {
        p12 = dir.resolve("server.p12");
        chain = dir.resolve("chain.pem");
        key = dir.resolve("key.pem");
        otherKey = dir.resolve("other-ec-key.pem");
    }

    /** Makes the files in {@code dir}. */
    public static TlsFiles create(Path dir) throws IOException, InterruptedException {
        TlsFiles f = new TlsFiles(dir);
        run(dir, Path.of(System.getProperty("java.home"), "bin", "keytool").toString(), "-genkeypair",
                "-alias", "server", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2", "-dname", "CN=localhost",
                "-ext", "SAN=IP:127.0.0.1,DNS:localhost", "-keystore", f.p12.toString(), "-storetype", "PKCS12",
                "-storepass", PASSWORD, "-keypass", PASSWORD);
        run(dir, "openssl", "pkcs12", "-in", f.p12.toString(), "-nokeys", "-out", f.chain.toString(),
                "-passin", "pass:" + PASSWORD);
        run(dir, "openssl", "pkcs12", "-in", f.p12.toString(), "-nocerts", "-nodes", "-out", f.key.toString(),
                "-passin", "pass:" + PASSWORD);
        run(dir, "openssl", "ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", f.otherKey.toString());
        return f;
    }

    private static void run(Path dir, String... cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException(String.join(" ", cmd) + " failed: " + new String(out, StandardCharsets.UTF_8));
        }
    }
}
