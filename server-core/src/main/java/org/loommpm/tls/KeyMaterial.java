package org.loommpm.tls;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.loommpm.config.TlsSettings;

/**
 * The server's private key and certificate chain (leaf first), read from the files named by
 * {@link TlsSettings}: a PEM certificate file (with the key in it or in the key file) or a
 * PKCS#12 file, told apart by content. Checks that the key belongs to the leaf certificate.
 *
 * @param key the private key
 * @param chain the certificate chain, leaf first
 */
public record KeyMaterial(PrivateKey key, List<X509Certificate> chain) {
    private static final char[] STORE_PASSWORD = new char[0];

    /** Canonical form: the chain is copied. */
    public KeyMaterial {
        chain = List.copyOf(chain);
    }

    /**
     * Reads the key material {@code tls} names.
     *
     * @throws KeyMaterialException naming the directive and file at fault
     */
    public static KeyMaterial load(TlsSettings tls) throws KeyMaterialException {
        Path certFile = tls.certificateFile();
        if (certFile == null) {
            throw new KeyMaterialException("SSLCertificateFile", "not set");
        }
        byte[] certBytes = read("SSLCertificateFile", certFile);
        if (!PemReader.text(certBytes).contains("-----BEGIN ")) {
            if (tls.keyFile() != null) {
                throw new KeyMaterialException("SSLCertificateKeyFile", "not used with a PKCS#12 "
                        + "SSLCertificateFile (" + certFile + " holds the key)");
            }
            return pkcs12(certFile, certBytes, tls.password());
        }
        KeyMaterial m;
        String certText = PemReader.text(certBytes);
        try {
            List<X509Certificate> chain = PemReader.certificates(certText, certFile.toString());
            PrivateKey key;
            if (tls.keyFile() != null) {
                Path keyFile = tls.keyFile();
                try {
                    key = PemReader.privateKey(PemReader.text(read("SSLCertificateKeyFile", keyFile)), keyFile.toString());
                } catch (IllegalArgumentException e) {
                    throw new KeyMaterialException("SSLCertificateKeyFile", e.getMessage());
                }
                if (key == null) {
                    throw new KeyMaterialException("SSLCertificateKeyFile", keyFile + ": no private key found "
                            + "(expected a PRIVATE KEY, RSA PRIVATE KEY or EC PRIVATE KEY block)");
                }
            } else {
                key = PemReader.privateKey(certText, certFile.toString());
                if (key == null) {
                    throw new KeyMaterialException("SSLCertificateKeyFile", "not set, and " + certFile
                            + " holds no private key");
                }
            }
            m = new KeyMaterial(key, chain);
        } catch (IllegalArgumentException e) {
            throw new KeyMaterialException("SSLCertificateFile", e.getMessage());
        }
        m.checkPair(tls.keyFile() != null ? "SSLCertificateKeyFile" : "SSLCertificateFile");
        return m;
    }

    /** An in-memory key store holding this key and chain, for a {@code KeyManagerFactory}. */
    public KeyStore keyStore() throws GeneralSecurityException {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try {
            ks.load(null, null);
        } catch (IOException e) {
            throw new GeneralSecurityException(e);
        }
        ks.setKeyEntry("server", key, STORE_PASSWORD, chain.toArray(new Certificate[0]));
        return ks;
    }

    /** The password the {@link #keyStore()} entry is protected with. */
    static char[] storePassword() {
        return STORE_PASSWORD.clone();
    }

    private static byte[] read(String directive, Path file) throws KeyMaterialException {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new KeyMaterialException(directive, "cannot read " + file + ": " + e.getClass().getSimpleName()
                    + (e.getMessage() != null && !e.getMessage().equals(file.toString()) ? " " + e.getMessage() : ""));
        }
    }

    private static KeyMaterial pkcs12(Path file, byte[] bytes, String password) throws KeyMaterialException {
        char[] pw = password == null ? new char[0] : password.toCharArray();
        KeyStore ks;
        try {
            ks = KeyStore.getInstance("PKCS12");
            ks.load(new ByteArrayInputStream(bytes), pw);
        } catch (IOException | GeneralSecurityException e) {
            String why = e.getCause() instanceof java.security.UnrecoverableKeyException
                    || String.valueOf(e.getMessage()).contains("password")
                    ? "wrong password (see SSLCertificatePassword)" : e.getMessage();
            throw new KeyMaterialException("SSLCertificateFile", file + " is neither PEM nor a PKCS#12 file "
                    + "it can open: " + why);
        }
        try {
            for (String alias : Collections.list(ks.aliases())) {
                if (ks.isKeyEntry(alias)) {
                    Key k = ks.getKey(alias, pw);
                    Certificate[] certs = ks.getCertificateChain(alias);
                    if (k instanceof PrivateKey pk && certs != null && certs.length > 0) {
                        List<X509Certificate> chain = new ArrayList<>();
                        for (Certificate c : certs) {
                            chain.add((X509Certificate) c);
                        }
                        KeyMaterial m = new KeyMaterial(pk, chain);
                        m.checkPair("SSLCertificateFile");
                        return m;
                    }
                }
            }
        } catch (GeneralSecurityException e) {
            throw new KeyMaterialException("SSLCertificatePassword", "cannot open the key in " + file + ": "
                    + e.getMessage());
        }
        throw new KeyMaterialException("SSLCertificateFile", file + " holds no private key with a certificate chain");
    }

    /** Signs a probe with the key and verifies it with the leaf certificate's public key. */
    private void checkPair(String directive) throws KeyMaterialException {
        String alg = switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            case "Ed25519", "Ed448", "EdDSA" -> key.getAlgorithm();
            default -> null; // RSASSA-PSS needs parameters; the handshake will tell
        };
        if (alg == null) {
            return;
        }
        byte[] probe = {'l', 'o', 'o', 'm'};
        boolean ok;
        try {
            Signature s = Signature.getInstance(alg);
            s.initSign(key);
            s.update(probe);
            byte[] sig = s.sign();
            Signature v = Signature.getInstance(alg);
            v.initVerify(chain.get(0).getPublicKey());
            v.update(probe);
            ok = v.verify(sig);
        } catch (GeneralSecurityException e) {
            ok = false;
        }
        if (!ok) {
            throw new KeyMaterialException(directive, "the private key does not belong to the certificate "
                    + chain.get(0).getSubjectX500Principal().getName());
        }
    }
}
