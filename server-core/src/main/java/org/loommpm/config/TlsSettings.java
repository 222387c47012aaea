package org.loommpm.config;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * TLS settings, with their defaults, in one typed place (mod_ssl's directives; see
 * {@code docs/tls.md} and {@code docs/configuration.md}). Immutable: build one with
 * {@link #builder()}.
 *
 * <p>Which listeners speak TLS: every one when {@link #engine()} is on ({@code SSLEngine on}),
 * otherwise only the addresses in {@link #listen()} ({@code Listen 8443 https}), which are bound
 * in addition to {@link ServerConfig#listen()}'s plain ones.
 *
 * <p>Client certificates: {@link #verifyClient()} asks clients for one ({@code SSLVerifyClient
 * optional}) or requires one ({@code require}), checked against the CA certificates of
 * {@link #caCertificateFile()} ({@code SSLCACertificateFile}); a handler reads the verified
 * chain from {@code Request.tls()}. Off by default.
 *
 * <p>Key material: {@link #certificateFile()} is a PEM file (the certificate chain, leaf first,
 * and optionally the key) or a PKCS#12 file (then {@link #password()} opens it); the key is in
 * {@link #keyFile()} when it is not in the certificate file (PKCS#8, PKCS#1 RSA or SEC1 EC PEM).
 */
public final class TlsSettings {
    /** {@code SSLEngine}: whether every listener speaks TLS. */
    public static final boolean DEFAULT_ENGINE = false;
    /** {@code SSLProtocol}: TLS 1.3 and 1.2 ({@code -all +TLSv1.3 +TLSv1.2}). */
    public static final List<String> DEFAULT_PROTOCOLS = List.of("TLSv1.3", "TLSv1.2");
    /** {@code SSLCipherSuite}: empty = the JDK's default suites, in the JDK's order. */
    public static final List<String> DEFAULT_CIPHER_SUITES = List.of();
    /** Protocol versions {@code SSLProtocol} may name (the JDK refuses the older ones by default). */
    public static final Set<String> KNOWN_PROTOCOLS = Set.of("TLSv1", "TLSv1.1", "TLSv1.2", "TLSv1.3");

    /**
     * {@code SSLVerifyClient}: whether the server asks the client for a certificate during the
     * handshake (mod_ssl's {@code none}, {@code optional}, {@code require}; its
     * {@code optional_no_ca}, which accepts a chain nobody checked, is left out).
     */
    public enum VerifyClient {
        /** No certificate is asked for (the default). */
        NONE,
        /** One is asked for; a client may send none, but one it sends must verify. */
        OPTIONAL,
        /** One is required: a client without a certificate that verifies fails the handshake. */
        REQUIRE
    }

    /** {@code SSLVerifyDepth}: a client certificate signed directly by a CA of the file (mod_ssl's default, 1). */
    public static final int DEFAULT_VERIFY_DEPTH = 1;

    /** TLS off everywhere: the default. */
    public static final TlsSettings DISABLED = builder().build();

    private final boolean engine;
    private final List<InetSocketAddress> listen;
    private final Path certificateFile;
    private final Path keyFile;
    private final String password;
    private final List<String> protocols;
    private final List<String> cipherSuites;
    private final VerifyClient verifyClient;
    private final Path caCertificateFile;
    private final Path caCertificatePath;
    private final Path caRevocationFile;
    private final int verifyDepth;

    private TlsSettings(Builder b) {
        this.engine = b.engine;
        this.listen = List.copyOf(b.listen);
        this.certificateFile = b.certificateFile;
        this.keyFile = b.keyFile;
        this.password = b.password;
        this.protocols = List.copyOf(b.protocols);
        this.cipherSuites = List.copyOf(b.cipherSuites);
        this.verifyClient = b.verifyClient;
        this.caCertificateFile = b.caCertificateFile;
        this.caCertificatePath = b.caCertificatePath;
        this.caRevocationFile = b.caRevocationFile;
        this.verifyDepth = b.verifyDepth;
    }

    /** {@return A builder holding every default} */
    public static Builder builder() {
        return new Builder();
    }

    /** {@return A builder starting from these settings} */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.engine = engine;
        b.listen.addAll(listen);
        b.certificateFile = certificateFile;
        b.keyFile = keyFile;
        b.password = password;
        b.protocols = protocols;
        b.cipherSuites = cipherSuites;
        b.verifyClient = verifyClient;
        b.caCertificateFile = caCertificateFile;
        b.caCertificatePath = caCertificatePath;
        b.caRevocationFile = caRevocationFile;
        b.verifyDepth = verifyDepth;
        return b;
    }

    /** {@return {@code SSLEngine on}: every listener speaks TLS} */
    public boolean engine() { return engine; }
    /** {@return {@code Listen addr https}: listeners that speak TLS whatever {@link #engine()} says} */
    public List<InetSocketAddress> listen() { return listen; }
    /** {@return {@code SSLCertificateFile}: PEM chain (perhaps with the key) or PKCS#12; {@code null} if unset} */
    public Path certificateFile() { return certificateFile; }
    /** {@return {@code SSLCertificateKeyFile}: the PEM key, or {@code null} when it is in the certificate file} */
    public Path keyFile() { return keyFile; }
    /** {@return {@code SSLCertificatePassword}: opens a PKCS#12 file; {@code null} for none} */
    public String password() { return password; }
    /** {@return {@code SSLProtocol}: JDK protocol names ({@code TLSv1.3}, {@code TLSv1.2})} */
    public List<String> protocols() { return protocols; }
    /** {@return {@code SSLCipherSuite}: JDK suite names, in preference order; empty = the JDK's defaults} */
    public List<String> cipherSuites() { return cipherSuites; }

    /** {@return {@code SSLVerifyClient}: whether clients are asked for a certificate} */
    public VerifyClient verifyClient() { return verifyClient; }
    /** {@return {@code SSLCACertificateFile}: the PEM certificates client chains are checked against; {@code null} if unset} */
    public Path caCertificateFile() { return caCertificateFile; }

    /** {@return {@code SSLCACertificatePath}: a directory whose PEM files hold more CA certificates, or null} */
    public Path caCertificatePath() { return caCertificatePath; }

    /** {@return {@code SSLCARevocationFile}: a PEM file of CRLs checked against client chains, or null} */
    public Path caRevocationFile() { return caRevocationFile; }

    /** {@return {@code SSLVerifyDepth}: how many CA certificates may stand between a client's and one of ours} */
    public int verifyDepth() { return verifyDepth; }

    /** {@return whether any listener speaks TLS} */
    public boolean active() {
        return engine || !listen.isEmpty();
    }

    /** Collects settings; {@link #build()} validates them. */
    public static final class Builder {
        private boolean engine = DEFAULT_ENGINE;
        private final List<InetSocketAddress> listen = new ArrayList<>();
        private Path certificateFile;
        private Path keyFile;
        private String password;
        private List<String> protocols = DEFAULT_PROTOCOLS;
        private List<String> cipherSuites = DEFAULT_CIPHER_SUITES;
        private VerifyClient verifyClient = VerifyClient.NONE;
        private Path caCertificateFile;
        private Path caCertificatePath;
        private Path caRevocationFile;
        private int verifyDepth = DEFAULT_VERIFY_DEPTH;

        private Builder() {
        }

        /**
         * {@code SSLEngine on|off}.
         *
         * @param on whether it is on
         * @return this builder
         */
        public Builder engine(boolean on) { engine = on; return this; }
        /**
         * Adds a TLS listener ({@code Listen addr https}); port 0 picks a free port.
         *
         * @param address the address to bind; port 0 picks a free one
         * @return this builder
         */
        public Builder listen(InetSocketAddress address) { listen.add(Objects.requireNonNull(address)); return this; }
        /**
         * {@code SSLCertificateFile}.
         *
         * @param file the value
         * @return this builder
         */
        public Builder certificateFile(Path file) { certificateFile = file; return this; }
        /**
         * {@code SSLCertificateKeyFile}.
         *
         * @param file the value
         * @return this builder
         */
        public Builder keyFile(Path file) { keyFile = file; return this; }
        /**
         * {@code SSLCertificatePassword}.
         *
         * @param secret the value
         * @return this builder
         */
        public Builder password(String secret) { password = secret; return this; }
        /**
         * {@code SSLProtocol}, as JDK names.
         *
         * @param names the value
         * @return this builder
         */
        public Builder protocols(List<String> names) { protocols = List.copyOf(names); return this; }
        /**
         * {@code SSLCipherSuite}, as JDK names.
         *
         * @param names the value
         * @return this builder
         */
        public Builder cipherSuites(List<String> names) { cipherSuites = List.copyOf(names); return this; }

        /**
         * {@code SSLVerifyClient}: asks clients for a certificate ({@link VerifyClient#OPTIONAL})
         * or requires one ({@link VerifyClient#REQUIRE}); needs {@link #caCertificateFile(Path)}.
         *
         * @param mode whether a client certificate is asked for
         * @return this builder
         */
        public Builder verifyClient(VerifyClient mode) { verifyClient = Objects.requireNonNull(mode); return this; }
        /**
         * {@code SSLCACertificateFile}: a PEM file of the CA certificates (or self-signed client
         * certificates) a client's chain must lead to; the JDK's PKIX validation checks it
         * (signatures, validity dates, extensions).
         *
         * @param file the PEM file
         * @return this builder
         */
        public Builder caCertificateFile(Path file) { caCertificateFile = file; return this; }

        /**
         * {@code SSLCACertificatePath}: a directory whose files ({@code *.pem}, {@code *.crt},
         * httpd's hash links) hold CA certificates, in addition to {@link #caCertificateFile}.
         *
         * @param dir the directory
         * @return this builder
         */
        public Builder caCertificatePath(Path dir) { caCertificatePath = dir; return this; }

        /**
         * {@code SSLCARevocationFile}: a PEM file of certificate revocation lists; a client
         * certificate a CRL of its issuer lists is refused (the handshake fails).
         *
         * @param file the PEM file of X509 CRL blocks
         * @return this builder
         */
        public Builder caRevocationFile(Path file) { caRevocationFile = file; return this; }

        /**
         * {@code SSLVerifyDepth}: how many CA certificates may stand between a client certificate
         * and one of the trusted ones: 1 (the default) wants it signed by a trusted CA, 2 allows
         * one intermediate CA the client sends, 0 only a self-signed certificate of the CA file.
         *
         * @param depth 0 or more
         * @return this builder
         */
        public Builder verifyDepth(int depth) { verifyDepth = depth; return this; }

        /**
         * Validates and freezes the settings. Whether the files hold usable keys is checked when
         * the server starts (and by the CLI's {@code -t}), not here.
         *
         * @throws IllegalArgumentException naming the first setting that is wrong
         * @return the settings
         */
        public TlsSettings build() {
            if (protocols.isEmpty()) {
                throw new IllegalArgumentException("SSLProtocol enables no protocol");
            }
            for (String p : protocols) {
                if (!KNOWN_PROTOCOLS.contains(p)) {
                    throw new IllegalArgumentException("SSLProtocol: unknown protocol " + p
                            + " (known: TLSv1, TLSv1.1, TLSv1.2, TLSv1.3)");
                }
            }
            if ((engine || !listen.isEmpty()) && certificateFile == null) {
                throw new IllegalArgumentException((engine ? "SSLEngine on" : "Listen ... https")
                        + " needs SSLCertificateFile");
            }
            if (verifyDepth < 0) {
                throw new IllegalArgumentException("SSLVerifyDepth must be 0 or more, got " + verifyDepth);
            }
            if (verifyClient != VerifyClient.NONE && caCertificateFile == null && caCertificatePath == null) {
                throw new IllegalArgumentException("SSLVerifyClient " + verifyClient.name().toLowerCase(java.util.Locale.ROOT)
                        + " needs SSLCACertificateFile or SSLCACertificatePath");
            }
            return new TlsSettings(this);
        }
    }
}
