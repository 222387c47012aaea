package org.loommpm.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.Collections;

/**
 * The key and certificate chain every server uses when the harness asks for TLS: the environment
 * variable {@code BENCH_TLS=/path/keystore.p12:password} names a PKCS#12 file with one key entry
 * ({@code h2.sh} makes one with {@code keytool}). All servers use the JDK's {@code SSLEngine}.
 *
 * @param file the PKCS#12 file (loom-mpm reads it itself)
 * @param password its password
 */
record BenchTls(Path file, String password, PrivateKey key, X509Certificate[] chain) {
    /** The TLS material named by {@code BENCH_TLS}, or {@code null} for plaintext. */
    static BenchTls fromEnv() throws IOException {
        String spec = System.getenv("BENCH_TLS");
        if (spec == null || spec.isBlank()) {
            return null;
        }
        int colon = spec.lastIndexOf(':');
        Path file = Path.of(spec.substring(0, colon));
        String password = spec.substring(colon + 1);
        try (InputStream in = Files.newInputStream(file)) {
            KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(in, password.toCharArray());
            for (String alias : Collections.list(ks.aliases())) {
                if (ks.isKeyEntry(alias)) {
                    PrivateKey key = (PrivateKey) ks.getKey(alias, password.toCharArray());
                    Certificate[] certs = ks.getCertificateChain(alias);
                    X509Certificate[] chain = Arrays.copyOf(certs, certs.length, X509Certificate[].class);
                    return new BenchTls(file, password, key, chain);
                }
            }
            throw new IOException(file + " holds no key entry");
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }
}
