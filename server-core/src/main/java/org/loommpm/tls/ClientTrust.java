package org.loommpm.tls;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.net.Socket;
import java.security.InvalidAlgorithmParameterException;
import java.security.cert.CertStore;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.CollectionCertStoreParameters;
import java.security.cert.PKIXBuilderParameters;
import java.security.cert.TrustAnchor;
import java.security.cert.X509CRL;
import java.security.cert.X509CertSelector;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.net.ssl.CertPathTrustManagerParameters;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * The trust side of client certificates (mod_ssl's {@code SSLCACertificateFile},
 * {@code SSLCACertificatePath}, {@code SSLVerifyDepth}, {@code SSLCARevocationFile}): the JDK's
 * PKIX trust manager with the CA certificates as trust anchors, the chain's length bounded by the
 * depth ({@link DepthLimit}), and, with a CRL file, revocation checked against those CRLs only (no OCSP, no CRL
 * fetched from the network). Built once per TLS context; the trust managers are thread-safe.
 */
final class ClientTrust {
    private ClientTrust() {
    }

    /**
     * The trust managers.
     *
     * @param cas the trusted certificates (at least one)
     * @param depth {@code SSLVerifyDepth}: CA certificates allowed between a client's and a trusted one
     * @param crlFile {@code SSLCARevocationFile}, or null
     */
    static TrustManager[] managers(List<X509Certificate> cas, int depth, Path crlFile)
            throws KeyMaterialException, GeneralSecurityException {
        Set<TrustAnchor> anchors = new HashSet<>();
        for (X509Certificate c : cas) {
            anchors.add(new TrustAnchor(c, null));
        }
        PKIXBuilderParameters params;
        try {
            params = new PKIXBuilderParameters(anchors, new X509CertSelector());
        } catch (InvalidAlgorithmParameterException e) {
            throw new KeyMaterialException("SSLCACertificateFile", e.getMessage());
        }
        if (crlFile != null) {
            List<X509CRL> crls = crls(crlFile);
            params.addCertStore(CertStore.getInstance("Collection", new CollectionCertStoreParameters(crls)));
            params.setRevocationEnabled(true);
        } else {
            params.setRevocationEnabled(false);
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance("PKIX");
        tmf.init(new CertPathTrustManagerParameters(params));
        TrustManager[] managers = tmf.getTrustManagers();
        for (int i = 0; i < managers.length; i++) {
            if (managers[i] instanceof X509ExtendedTrustManager x) {
                managers[i] = new DepthLimit(x, depth, Set.copyOf(cas));
            }
        }
        return managers;
    }

    /**
     * {@code SSLVerifyDepth} on top of the JDK's check, which validates a complete chain without
     * a length limit (PKIX's maxPathLength only binds its path builder): the CA certificates the
     * client sends between its own and a trusted one must be fewer than the depth; 0 accepts
     * only a client certificate that is itself trusted. Stateless: any thread.
     */
    private static final class DepthLimit extends X509ExtendedTrustManager {
        private final X509ExtendedTrustManager pkix;
        private final int depth;
        private final Set<X509Certificate> trusted;

        DepthLimit(X509ExtendedTrustManager pkix, int depth, Set<X509Certificate> trusted) {
            this.pkix = pkix;
            this.depth = depth;
            this.trusted = trusted;
        }

        private void depth(X509Certificate[] chain) throws CertificateException {
            int between = 0;
            for (int i = 1; i < chain.length && !trusted.contains(chain[i]); i++) {
                between++;
            }
            boolean leafTrusted = chain.length > 0 && trusted.contains(chain[0]);
            if (depth == 0 ? !leafTrusted : !leafTrusted && between > depth - 1) {
                throw new CertificateException("the client's chain has " + between + " CA certificate(s) below a "
                        + "trusted one; SSLVerifyDepth " + depth + " allows " + Math.max(0, depth - 1));
            }
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
            pkix.checkClientTrusted(chain, authType, socket);
            depth(chain);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
            pkix.checkClientTrusted(chain, authType, engine);
            depth(chain);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            pkix.checkClientTrusted(chain, authType);
            depth(chain);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
            pkix.checkServerTrusted(chain, authType, socket);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
            pkix.checkServerTrusted(chain, authType, engine);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            pkix.checkServerTrusted(chain, authType);
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return pkix.getAcceptedIssuers();
        }
    }

    /** The certificates of every file in {@code SSLCACertificatePath}'s directory (files without any are skipped). */
    static List<X509Certificate> directory(Path dir) throws KeyMaterialException {
        List<X509Certificate> out = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
            for (Path f : files) {
                if (!Files.isRegularFile(f)) {
                    continue;
                }
                try {
                    out.addAll(PemReader.certificates(PemReader.text(Files.readAllBytes(f)), f.toString()));
                } catch (IllegalArgumentException e) {
                    throw new KeyMaterialException("SSLCACertificatePath", e.getMessage());
                }
            }
        } catch (IOException e) {
            throw new KeyMaterialException("SSLCACertificatePath", "cannot read " + dir + ": " + e);
        }
        return out;
    }

    private static List<X509CRL> crls(Path file) throws KeyMaterialException {
        List<X509CRL> out = new ArrayList<>();
        try {
            CertificateFactory cf = CertificateFactory.getInstance("X.509");
            for (PemReader.Block b : PemReader.blocks(PemReader.text(Files.readAllBytes(file)), file.toString())) {
                if (b.label().equals("X509 CRL")) {
                    out.add((X509CRL) cf.generateCRL(new ByteArrayInputStream(b.der())));
                }
            }
        } catch (IOException e) {
            throw new KeyMaterialException("SSLCARevocationFile", "cannot read " + file + ": " + e);
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new KeyMaterialException("SSLCARevocationFile", file + ": " + e.getMessage());
        }
        if (out.isEmpty()) {
            throw new KeyMaterialException("SSLCARevocationFile", file + " holds no X509 CRL block");
        }
        return out;
    }
}
