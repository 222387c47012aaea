package org.loommpm.cli.config;

import static org.loommpm.cli.config.DirectiveTable.SERVER;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.loommpm.config.TlsSettings;
import org.loommpm.tls.KeyMaterialException;
import org.loommpm.tls.TlsContextFactory;

/**
 * mod_ssl's directives ({@code SSLEngine}, {@code SSLCertificateFile},
 * {@code SSLCertificateKeyFile}, {@code SSLCertificatePassword}, {@code SSLProtocol},
 * {@code SSLCipherSuite}) and {@code Listen ... https}, written into
 * {@link org.loommpm.config.ServerConfig.Builder#tls}. Files must be readable when their line
 * is read; once the whole configuration is read, the key material is loaded and checked as a
 * start would (so {@code -t} reports a bad key with its file and line).
 */
final class TlsDirectives {
    private static final String KEY = "tls";
    private static final List<String> ALL = List.of("TLSv1.3", "TLSv1.2", "TLSv1.1", "TLSv1");

    private TlsDirectives() {
    }

    /** Where each setting was given, and the values the end check needs. */
    private static final class Seen {
        ConfigLine engineOn;
        ConfigLine httpsListen;
        ConfigLine certificateFile;
        ConfigLine keyFile;
        ConfigLine password;
        ConfigLine protocol;
        ConfigLine cipherSuite;
        ConfigLine caFile;
        ConfigLine caPath;
        ConfigLine crlFile;
        ConfigLine verifyClient;
        /** {@code SSLCARevocationFile}'s path, used once {@code SSLCARevocationCheck} is chain or leaf. */
        Path crlPath;
        boolean revocationCheck;
        boolean engine;
        final TlsSettings.Builder values = TlsSettings.builder();
    }

    /** The directives; one enum rather than a lambda each (see {@link EngineDirectives.D}). */
    enum D implements DirectiveTable.Action {
        SSL_ENGINE("SSLEngine", 1, 1, "on|off"),
        SSL_CERTIFICATE_FILE("SSLCertificateFile", 1, 1, "file (PEM chain, or PKCS#12)"),
        SSL_CERTIFICATE_KEY_FILE("SSLCertificateKeyFile", 1, 1, "file (PEM key)"),
        SSL_CERTIFICATE_PASSWORD("SSLCertificatePassword", 1, 1, "password | env:VARIABLE"),
        SSL_PROTOCOL("SSLProtocol", 1, Integer.MAX_VALUE, "[+|-]protocol ... (all, TLSv1.2, TLSv1.3)"),
        SSL_CIPHER_SUITE("SSLCipherSuite", 1, Integer.MAX_VALUE, "suite[:suite]... (JDK names)"),
        SSL_VERIFY_CLIENT("SSLVerifyClient", 1, 1, "none|optional|require"),
        SSL_VERIFY_DEPTH("SSLVerifyDepth", 1, 1, "number"),
        SSL_CA_CERTIFICATE_FILE("SSLCACertificateFile", 1, 1, "file (PEM)"),
        SSL_CA_CERTIFICATE_PATH("SSLCACertificatePath", 1, 1, "directory"),
        SSL_CA_REVOCATION_FILE("SSLCARevocationFile", 1, 1, "file (PEM CRLs)"),
        SSL_CA_REVOCATION_CHECK("SSLCARevocationCheck", 1, 2, "none|chain|leaf [no_crl_for_cert_ok]");

        @Override
        public void apply(ParseState s, ConfigLine l) throws ConfigException {
            Seen seen = seen(s);
            String a = l.args().get(0);
            switch (this) {
                case SSL_ENGINE -> {
                    boolean on = Args.onOff(l);
                    seen.engine = on;
                    seen.engineOn = on ? l : null;
                    seen.values.engine(on);
                    s.engine.tls(t -> t.engine(on));
                }
                case SSL_CERTIFICATE_FILE -> {
                    Path p = readable(s, l);
                    seen.certificateFile = l;
                    seen.values.certificateFile(p);
                    s.engine.tls(t -> t.certificateFile(p));
                }
                case SSL_CERTIFICATE_KEY_FILE -> {
                    Path p = readable(s, l);
                    seen.keyFile = l;
                    seen.values.keyFile(p);
                    s.engine.tls(t -> t.keyFile(p));
                }
                case SSL_CERTIFICATE_PASSWORD -> {
                    String pw = password(l, a);
                    seen.password = l;
                    seen.values.password(pw);
                    s.engine.tls(t -> t.password(pw));
                }
                case SSL_PROTOCOL -> {
                    List<String> p = protocols(l);
                    seen.protocol = l;
                    seen.values.protocols(p);
                    s.engine.tls(t -> t.protocols(p));
                }
                case SSL_CIPHER_SUITE -> {
                    List<String> suites = suites(l);
                    seen.cipherSuite = l;
                    seen.values.cipherSuites(suites);
                    s.engine.tls(t -> t.cipherSuites(suites));
                }
                case SSL_VERIFY_CLIENT -> {
                    TlsSettings.VerifyClient mode = verifyClient(l, a);
                    seen.verifyClient = l;
                    seen.values.verifyClient(mode);
                    s.engine.tls(t -> t.verifyClient(mode));
                }
                case SSL_VERIFY_DEPTH -> {
                    int depth = (int) Args.integer(l, a, 0, 100);
                    seen.values.verifyDepth(depth);
                    s.engine.tls(t -> t.verifyDepth(depth));
                }
                case SSL_CA_CERTIFICATE_FILE -> {
                    Path p = readable(s, l);
                    seen.caFile = l;
                    seen.values.caCertificateFile(p);
                    s.engine.tls(t -> t.caCertificateFile(p));
                }
                case SSL_CA_CERTIFICATE_PATH -> {
                    Path p = s.resolve(a);
                    if (!Files.isDirectory(p)) {
                        throw l.error("SSLCACertificatePath: '" + p + "' is not a directory");
                    }
                    seen.caPath = l;
                    seen.values.caCertificatePath(p);
                    s.engine.tls(t -> t.caCertificatePath(p));
                }
                case SSL_CA_REVOCATION_FILE -> {
                    Path p = readable(s, l);
                    seen.crlFile = l;
                    seen.crlPath = p;
                    if (seen.revocationCheck) {
                        seen.values.caRevocationFile(p);
                        s.engine.tls(t -> t.caRevocationFile(p));
                    }
                }
                case SSL_CA_REVOCATION_CHECK -> revocationCheck(s, l, seen);
            }
        }

        final DirectiveSpec spec;

        D(String name, int min, int max, String syntax) {
            spec = new DirectiveSpec(name, min, max, SERVER, syntax);
        }
    }

    /** {@code Listen addr https}: a TLS listener (EngineDirectives parses the address). */
    static void httpsListen(ParseState s, ConfigLine l, InetSocketAddress addr) {
        Seen seen = seen(s);
        if (seen.httpsListen == null) {
            seen.httpsListen = l;
        }
        s.engine.tls(t -> t.listen(addr));
    }

    private static Seen seen(ParseState s) {
        return s.extension(KEY, () -> {
            Seen fresh = new Seen();
            s.atEnd(st -> check(st, fresh));
            return fresh;
        });
    }

    /** Once everything is read: TLS in use needs a certificate, and the key material must load. */
    private static void check(ParseState s, Seen seen) throws ConfigException {
        ConfigLine user = seen.engine ? seen.engineOn : seen.httpsListen;
        if (user == null) {
            ConfigLine any = seen.certificateFile != null ? seen.certificateFile : seen.keyFile;
            if (any != null) {
                s.warn(any, "SSL directives are set but no listener speaks TLS (SSLEngine on, or Listen ... https)");
            }
            return;
        }
        if (seen.certificateFile == null) {
            throw user.error(user.name() + (seen.engine ? " on" : " ... https")
                    + " needs SSLCertificateFile (and SSLCertificateKeyFile unless the key is in it)");
        }
        try {
            TlsContextFactory.check(seen.values.build());
        } catch (KeyMaterialException e) {
            ConfigLine at = switch (e.directive()) {
                case "SSLCertificateKeyFile" -> seen.keyFile;
                case "SSLCertificatePassword" -> seen.password;
                case "SSLProtocol" -> seen.protocol;
                case "SSLCipherSuite" -> seen.cipherSuite;
                case "SSLCACertificateFile" -> seen.caFile != null ? seen.caFile : seen.verifyClient;
                case "SSLCACertificatePath" -> seen.caPath;
                case "SSLCARevocationFile" -> seen.crlFile;
                default -> null;
            };
            throw (at != null ? at : seen.certificateFile).error(e.getMessage());
        } catch (IllegalArgumentException e) {
            throw (e.getMessage().startsWith("SSLVerifyClient") && seen.verifyClient != null ? seen.verifyClient : user)
                    .error(e.getMessage());
        }
    }

    private static Path readable(ParseState s, ConfigLine l) throws ConfigException {
        Path p = s.resolve(l.args().get(0));
        if (!Files.isRegularFile(p) || !Files.isReadable(p)) {
            throw l.error(l.name() + ": file '" + p + "' does not exist or is not readable");
        }
        return p;
    }

    /**
     * mod_ssl's {@code SSLCARevocationCheck}: {@code none} (its default) keeps the CRL file unused;
     * {@code chain} and {@code leaf} check it. Both check every certificate of the chain here (the
     * JDK's PKIX checker has no leaf-only mode; a CA certificate the CRLs revoke fails in both);
     * {@code no_crl_for_cert_ok} is refused: a certificate whose issuer has no CRL fails.
     */
    private static void revocationCheck(ParseState s, ConfigLine l, Seen seen) throws ConfigException {
        String mode = l.args().get(0).toLowerCase(Locale.ROOT);
        if (!List.of("none", "chain", "leaf").contains(mode)) {
            throw l.error("SSLCARevocationCheck takes none, chain or leaf, got '" + l.args().get(0) + "'");
        }
        if (l.args().size() == 2) {
            throw l.error("SSLCARevocationCheck: " + l.args().get(1) + " is not available (a certificate whose "
                    + "issuer has no CRL in SSLCARevocationFile is refused)");
        }
        seen.revocationCheck = !mode.equals("none");
        Path crl = seen.revocationCheck ? seen.crlPath : null;
        seen.values.caRevocationFile(crl);
        s.engine.tls(t -> t.caRevocationFile(crl));
    }

    /** mod_ssl's levels; its {@code optional_no_ca} (a chain nobody checks) is refused. */
    private static TlsSettings.VerifyClient verifyClient(ConfigLine l, String a) throws ConfigException {
        return switch (a.toLowerCase(Locale.ROOT)) {
            case "none" -> TlsSettings.VerifyClient.NONE;
            case "optional" -> TlsSettings.VerifyClient.OPTIONAL;
            case "require" -> TlsSettings.VerifyClient.REQUIRE;
            case "optional_no_ca" -> throw l.error("SSLVerifyClient optional_no_ca is not available: it accepts a "
                    + "certificate no CA vouches for; use optional with SSLCACertificateFile");
            default -> throw l.error("SSLVerifyClient takes none, optional or require, got '" + a + "'");
        };
    }

    /** A literal, or {@code env:NAME} to keep the secret out of the file. */
    private static String password(ConfigLine l, String a) throws ConfigException {
        if (a.startsWith("env:")) {
            String v = System.getenv(a.substring(4));
            if (v == null) {
                throw l.error("SSLCertificatePassword: environment variable " + a.substring(4) + " is not set");
            }
            return v;
        }
        return a;
    }

    /**
     * httpd's syntax: {@code all}, {@code +name} adds, {@code -name} removes, a bare name
     * replaces what came before. SSLv2 and SSLv3 are refused (the JDK has neither).
     */
    private static List<String> protocols(ConfigLine l) throws ConfigException {
        Set<String> on = new LinkedHashSet<>();
        for (String arg : l.args()) {
            char sign = arg.isEmpty() ? ' ' : arg.charAt(0); // "" is an unknown protocol below
            String name = sign == '+' || sign == '-' ? arg.substring(1) : arg;
            List<String> named = switch (name.toLowerCase(Locale.ROOT)) {
                case "all" -> ALL;
                case "tlsv1.3" -> List.of("TLSv1.3");
                case "tlsv1.2" -> List.of("TLSv1.2");
                case "tlsv1.1" -> List.of("TLSv1.1");
                case "tlsv1" -> List.of("TLSv1");
                case "sslv2", "sslv3" -> throw l.error("SSLProtocol: " + name + " is not supported");
                default -> throw l.error("SSLProtocol: unknown protocol '" + arg
                        + "' (all, TLSv1, TLSv1.1, TLSv1.2, TLSv1.3, each with an optional + or -)");
            };
            if (sign == '-') {
                named.forEach(on::remove);
            } else {
                if (sign != '+') {
                    on.clear();
                }
                on.addAll(named);
            }
        }
        if (on.isEmpty()) {
            throw l.error("SSLProtocol enables no protocol");
        }
        List<String> ordered = new ArrayList<>();
        for (String p : ALL) {
            if (on.contains(p)) {
                ordered.add(p); // newest first
            }
        }
        return ordered;
    }

    /** Suites separated by colons, commas or spaces; JDK names (checked at the end). */
    private static List<String> suites(ConfigLine l) throws ConfigException {
        List<String> out = new ArrayList<>();
        for (String arg : l.args()) {
            for (String s : arg.split("[:,\\s]+")) {
                if (!s.isEmpty() && !out.contains(s)) {
                    out.add(s);
                }
            }
        }
        if (out.isEmpty()) {
            throw l.error("SSLCipherSuite names no suite");
        }
        return out;
    }

    static void register(DirectiveTable t) {
        for (D d : D.values()) {
            t.register(d.spec, d);
        }
    }
}
