package org.loommpm.tls;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * Reads PEM text: certificates ({@code CERTIFICATE}) and private keys in the three forms OpenSSL
 * writes, {@code PRIVATE KEY} (PKCS#8), {@code RSA PRIVATE KEY} (PKCS#1) and
 * {@code EC PRIVATE KEY} (SEC1). The last two are wrapped into PKCS#8 DER by hand ({@link Der})
 * so the JDK's key factories read them; no third-party library. Encrypted keys are refused with
 * a hint (use an unencrypted key or PKCS#12). Every error says what was expected and found.
 */
public final class PemReader {
    private static final String BEGIN = "-----BEGIN ";
    private static final String END = "-----END ";
    private static final String[] KEY_ALGORITHMS = {"RSA", "EC", "Ed25519", "Ed448", "RSASSA-PSS"};

    private PemReader() {
    }

    /** One PEM block: its label ({@code CERTIFICATE}) and decoded bytes. */
    public record Block(String label, byte[] der, boolean encryptedHeader) {
    }

    /**
     * Every block of {@code text}, in order; text between blocks is ignored (OpenSSL writes
     * "Bag Attributes" and similar there).
     *
     * @param source names the input in errors
     * @throws IllegalArgumentException for an unterminated block or invalid base64
     */
    public static List<Block> blocks(String text, String source) {
        List<Block> out = new ArrayList<>();
        int at = 0;
        while ((at = text.indexOf(BEGIN, at)) >= 0) {
            int labelEnd = text.indexOf("-----", at + BEGIN.length());
            if (labelEnd < 0) {
                throw new IllegalArgumentException(source + ": malformed PEM header at offset " + at);
            }
            String label = text.substring(at + BEGIN.length(), labelEnd);
            String endLine = END + label + "-----";
            int bodyStart = labelEnd + 5;
            int end = text.indexOf(endLine, bodyStart);
            if (end < 0) {
                throw new IllegalArgumentException(source + ": PEM block '" + label + "' has no '" + endLine + "' line");
            }
            StringBuilder b64 = new StringBuilder();
            boolean encrypted = false;
            for (String line : text.substring(bodyStart, end).split("\r?\n")) {
                String l = line.strip();
                if (l.indexOf(':') >= 0) {
                    // RFC 1421 headers of a traditional key, e.g. "Proc-Type: 4,ENCRYPTED".
                    encrypted |= l.startsWith("Proc-Type:") && l.contains("ENCRYPTED");
                    continue;
                }
                b64.append(l);
            }
            byte[] der;
            try {
                der = Base64.getDecoder().decode(b64.toString());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(source + ": PEM block '" + label + "' is not valid base64: "
                        + e.getMessage());
            }
            out.add(new Block(label, der, encrypted));
            at = end + endLine.length();
        }
        return out;
    }

    /**
     * The certificates of {@code text}, in file order (the leaf first, then its issuers).
     *
     * @throws IllegalArgumentException if there is none, or one does not parse
     */
    public static List<X509Certificate> certificates(String text, String source) {
        List<X509Certificate> out = new ArrayList<>();
        CertificateFactory cf;
        try {
            cf = CertificateFactory.getInstance("X.509");
        } catch (CertificateException e) {
            throw new IllegalStateException("the JDK has no X.509 certificate factory", e);
        }
        for (Block b : blocks(text, source)) {
            if (b.label().equals("CERTIFICATE") || b.label().equals("TRUSTED CERTIFICATE")) {
                try {
                    out.add((X509Certificate) cf.generateCertificate(new ByteArrayInputStream(b.der())));
                } catch (CertificateException e) {
                    throw new IllegalArgumentException(source + ": certificate " + (out.size() + 1)
                            + " does not parse: " + e.getMessage());
                }
            }
        }
        if (out.isEmpty()) {
            throw new IllegalArgumentException(source + ": no certificate found (expected a "
                    + "'-----BEGIN CERTIFICATE-----' block)");
        }
        return out;
    }

    /**
     * The private key of {@code text}: the first {@code PRIVATE KEY}, {@code RSA PRIVATE KEY} or
     * {@code EC PRIVATE KEY} block; {@code null} when there is no key block at all.
     *
     * @throws IllegalArgumentException if the key block is encrypted or does not parse
     */
    public static PrivateKey privateKey(String text, String source) {
        for (Block b : blocks(text, source)) {
            switch (b.label()) {
                case "PRIVATE KEY" -> {
                    return pkcs8(b.der(), source, "PKCS#8");
                }
                case "RSA PRIVATE KEY" -> {
                    refuseEncrypted(b, source);
                    return pkcs8(rsaToPkcs8(b.der()), source, "PKCS#1 RSA");
                }
                case "EC PRIVATE KEY" -> {
                    refuseEncrypted(b, source);
                    return pkcs8(ecToPkcs8(b.der(), source), source, "SEC1 EC");
                }
                case "ENCRYPTED PRIVATE KEY" -> throw encrypted(source);
                default -> {
                    // Certificates, EC PARAMETERS (written by openssl ecparam -genkey): not the key.
                }
            }
        }
        return null;
    }

    /** The text of PEM bytes (ASCII; anything else shows up as a parse error later). */
    static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    private static void refuseEncrypted(Block b, String source) {
        if (b.encryptedHeader()) {
            throw encrypted(source);
        }
    }

    private static IllegalArgumentException encrypted(String source) {
        return new IllegalArgumentException(source + ": the private key is encrypted, which is not supported: "
                + "decrypt it (openssl pkey -in key.pem -out plain.pem) or use a PKCS#12 file with "
                + "SSLCertificatePassword");
    }

    private static PrivateKey pkcs8(byte[] der, String source, String form) {
        PKCS8EncodedKeySpec spec = new PKCS8EncodedKeySpec(der);
        for (String alg : KEY_ALGORITHMS) {
            try {
                return KeyFactory.getInstance(alg).generatePrivate(spec);
            } catch (GeneralSecurityException | RuntimeException e) {
                // Not this algorithm: try the next one.
            }
        }
        throw new IllegalArgumentException(source + ": the " + form
                + " private key does not parse as an RSA, EC or EdDSA key");
    }

    /** PrivateKeyInfo { version 0, AlgorithmIdentifier { rsaEncryption, NULL }, OCTET STRING pkcs1 }. */
    static byte[] rsaToPkcs8(byte[] pkcs1) {
        byte[] algorithm = Der.tlv(Der.SEQUENCE, Der.OID_RSA, new byte[] {Der.NULL, 0});
        return Der.tlv(Der.SEQUENCE, new byte[] {Der.INTEGER, 1, 0}, algorithm, Der.tlv(Der.OCTET_STRING, pkcs1));
    }

    /**
     * PrivateKeyInfo { version 0, AlgorithmIdentifier { id-ecPublicKey, curve }, OCTET STRING sec1 },
     * the curve taken from the SEC1 key's {@code [0]} parameters.
     */
    static byte[] ecToPkcs8(byte[] sec1, String source) {
        byte[] curve = null;
        try {
            Der.Element seq = Der.read(sec1, 0, sec1.length);
            if (seq.tag() != Der.SEQUENCE) {
                throw new IllegalArgumentException("not a SEQUENCE");
            }
            int at = seq.start();
            while (at < seq.end()) {
                Der.Element e = Der.read(sec1, at, seq.end());
                if (e.tag() == Der.CONTEXT_0) {
                    Der.Element oid = Der.read(sec1, e.start(), e.end());
                    if (oid.tag() == Der.OID) {
                        curve = Der.encoding(sec1, e.start(), oid);
                    }
                }
                at = e.end();
            }
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(source + ": the SEC1 EC private key is not valid DER: " + e.getMessage());
        }
        if (curve == null) {
            throw new IllegalArgumentException(source + ": the SEC1 EC private key names no curve "
                    + "(write it with openssl ec -param_enc named_curve)");
        }
        byte[] algorithm = Der.tlv(Der.SEQUENCE, Der.OID_EC, curve);
        return Der.tlv(Der.SEQUENCE, new byte[] {Der.INTEGER, 1, 0}, algorithm, Der.tlv(Der.OCTET_STRING, sec1));
    }
}
