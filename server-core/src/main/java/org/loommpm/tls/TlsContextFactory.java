package org.loommpm.tls;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManager;
import org.loommpm.config.ServerConfig;
import org.loommpm.config.TlsSettings;

/**
 * Builds a generation's {@link TlsContext}: key material ({@link KeyMaterial}), an
 * {@link SSLContext}, and the {@link SSLParameters} every engine gets: the {@code SSLProtocol}
 * versions, the {@code SSLCipherSuite} suites (JDK names; the server's order wins) and the ALPN
 * names. Everything is checked here, so a bad setting fails the start (or {@code -t}), never a
 * handshake.
 */
public final class TlsContextFactory {
    private TlsContextFactory() {
    }

    /**
     * @param config the generation's settings ({@link ServerConfig#tls()} active)
     * @param alpn the ALPN names the connections' protocols serve, in preference order
     * @param counters the server's registry, where the handshakes are counted
     * @throws KeyMaterialException naming the directive at fault
     */
    public static TlsContext create(ServerConfig config, List<String> alpn,
                                    org.loommpm.spi.ProtocolCounters counters) throws KeyMaterialException {
        TlsSettings tls = config.tls();
        RenegotiationGuard.rejectInJdk();
        SSLContext ssl = sslContext(tls);
        return new TlsContext(ssl, parameters(ssl, tls, alpn), config.tlsHandshakeTimeout().toNanos(),
                TlsCounters.of(counters));
    }

    /**
     * Checks {@code tls} the way a start would (files, key pair, protocols, suites) without
     * starting anything: the configuration check ({@code -t}).
     *
     * @throws KeyMaterialException naming the directive at fault
     */
    public static void check(TlsSettings tls) throws KeyMaterialException {
        parameters(sslContext(tls), tls, List.of("http/1.1"));
    }

    private static SSLContext sslContext(TlsSettings tls) throws KeyMaterialException {
        KeyMaterial keys = KeyMaterial.load(tls);
        try {
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(keys.keyStore(), KeyMaterial.storePassword());
            SSLContext ssl = SSLContext.getInstance("TLS");
            ssl.init(kmf.getKeyManagers(), clientTrust(tls), null);
            return ssl;
        } catch (GeneralSecurityException e) {
            throw new KeyMaterialException("SSLCertificateFile", "the JDK cannot use the key material: " + e.getMessage());
        }
    }

    /**
     * What checks client certificates ({@code SSLVerifyClient}): the JDK's PKIX trust manager over
     * the certificates of {@code SSLCACertificateFile} and {@code SSLCACertificatePath}, with
     * {@code SSLVerifyDepth} as the longest path and the CRLs of {@code SSLCARevocationFile}
     * checked when there is one; {@code null} (the JDK's default, never asked) when no client
     * certificate is asked for.
     */
    private static TrustManager[] clientTrust(TlsSettings tls) throws KeyMaterialException, GeneralSecurityException {
        if (tls.verifyClient() == TlsSettings.VerifyClient.NONE) {
            return null;
        }
        List<X509Certificate> cas = new java.util.ArrayList<>();
        if (tls.caCertificateFile() != null) {
            cas.addAll(certificates("SSLCACertificateFile", tls.caCertificateFile()));
        }
        if (tls.caCertificatePath() != null) {
            cas.addAll(ClientTrust.directory(tls.caCertificatePath()));
        }
        if (cas.isEmpty()) {
            throw new KeyMaterialException("SSLCACertificateFile", "no CA certificate found (SSLCACertificateFile, "
                    + "SSLCACertificatePath)");
        }
        return ClientTrust.managers(cas, tls.verifyDepth(), tls.caRevocationFile());
    }

    static List<X509Certificate> certificates(String directive, Path file) throws KeyMaterialException {
        List<X509Certificate> certs;
        try {
            certs = PemReader.certificates(PemReader.text(Files.readAllBytes(file)), file.toString());
        } catch (IOException e) {
            throw new KeyMaterialException(directive, "cannot read " + file + ": " + e);
        } catch (IllegalArgumentException e) {
            throw new KeyMaterialException(directive, e.getMessage());
        }
        if (certs.isEmpty()) {
            throw new KeyMaterialException(directive, file + " holds no CERTIFICATE block");
        }
        return certs;
    }

    private static SSLParameters parameters(SSLContext ssl, TlsSettings tls, List<String> alpn)
            throws KeyMaterialException {
        SSLParameters supported = ssl.getSupportedSSLParameters();
        List<String> protocols = Arrays.asList(supported.getProtocols());
        for (String p : tls.protocols()) {
            if (!protocols.contains(p)) {
                throw new KeyMaterialException("SSLProtocol", p + " is not supported by this JDK (supported: "
                        + String.join(", ", protocols) + ")");
            }
        }
        SSLParameters params = ssl.getDefaultSSLParameters();
        params.setProtocols(tls.protocols().toArray(new String[0]));
        if (!tls.cipherSuites().isEmpty()) {
            List<String> suites = Arrays.asList(supported.getCipherSuites());
            for (String s : tls.cipherSuites()) {
                if (!suites.contains(s)) {
                    throw new KeyMaterialException("SSLCipherSuite", "unknown cipher suite '" + s + "': use the "
                            + "JDK's names (e.g. TLS_AES_128_GCM_SHA256, TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256); "
                            + "OpenSSL names and keywords such as HIGH are not translated");
                }
            }
            params.setCipherSuites(tls.cipherSuites().toArray(new String[0]));
        }
        params.setUseCipherSuitesOrder(true);
        params.setApplicationProtocols(alpn.toArray(new String[0]));
        // setNeedClientAuth and setWantClientAuth each clear the other: the last call decides.
        switch (tls.verifyClient()) {
            case NONE -> params.setNeedClientAuth(false);
            case OPTIONAL -> params.setWantClientAuth(true);
            case REQUIRE -> params.setNeedClientAuth(true);
        }
        return params;
    }
}
