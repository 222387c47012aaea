package org.loommpm.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.regex.Pattern;
import org.apache.commons.codec.digest.Md5Crypt;
import org.apache.commons.codec.digest.Sha2Crypt;
import org.apache.commons.codec.digest.UnixCrypt;
import org.springframework.security.crypto.bcrypt.BCrypt;

/**
 * The password hashes of an htpasswd file, in the forms {@code htpasswd} writes and httpd's
 * {@code apr_password_validate} accepts on Linux: bcrypt ({@code -B}: {@code $2y$}, also
 * {@code $2a$}/{@code $2b$}), Apache's MD5 ({@code -m}, the default: {@code $apr1$}), SHA-1
 * ({@code -s}: <code>{SHA}</code>), crypt ({@code -d}: 13 characters of DES crypt) and the
 * crypt(3) forms glibc takes ({@code $1$} MD5, {@code $5$} SHA-256, {@code $6$} SHA-512, which
 * {@code htpasswd -5}/{@code -2} write). Anything else, plain text included (httpd accepts it only
 * on Windows, NetWare and TPF), never matches.
 *
 * <p>A hash is compared in constant time with the one computed from the candidate password; the
 * libraries do the hashing (commons-codec for the crypt forms, Spring Security's {@code BCrypt}).
 * Stateless and thread-safe.
 */
public final class PasswordHash {
    /** A form of hash, with the name {@code htpasswd}'s documentation gives it. */
    public enum Format {
        /** {@code $2y$05$...}: 60 characters. */
        BCRYPT("bcrypt", Pattern.compile("\\$2[aby]\\$\\d\\d\\$[./A-Za-z0-9]{53}")),
        /** {@code $apr1$salt$hash}: Apache's iterated MD5. */
        APR1_MD5("apr1-MD5", Pattern.compile("\\$apr1\\$[./A-Za-z0-9]{1,8}\\$[./A-Za-z0-9]{22}")),
        /** <code>{SHA}</code> and the Base64 of an unsalted SHA-1. */
        SHA1("SHA-1", Pattern.compile("\\{SHA\\}[A-Za-z0-9+/]{27}=")),
        /** {@code $1$salt$hash}: crypt(3)'s MD5. */
        MD5_CRYPT("crypt MD5", Pattern.compile("\\$1\\$[./A-Za-z0-9]{1,8}\\$[./A-Za-z0-9]{22}")),
        /** {@code $5$[rounds=N$]salt$hash}: crypt(3)'s SHA-256. */
        SHA256_CRYPT("crypt SHA-256", Pattern.compile("\\$5\\$(rounds=\\d{1,9}\\$)?[./A-Za-z0-9]{1,16}\\$[./A-Za-z0-9]{43}")),
        /** {@code $6$[rounds=N$]salt$hash}: crypt(3)'s SHA-512. */
        SHA512_CRYPT("crypt SHA-512", Pattern.compile("\\$6\\$(rounds=\\d{1,9}\\$)?[./A-Za-z0-9]{1,16}\\$[./A-Za-z0-9]{86}")),
        /** Two characters of salt and eleven of hash: crypt(3)'s DES. */
        DES_CRYPT("crypt DES", Pattern.compile("[./A-Za-z0-9]{13}"));

        private final String label;
        private final Pattern shape;

        Format(String label, Pattern shape) {
            this.label = label;
            this.shape = shape;
        }

        /** {@return the name used in messages} */
        public String label() {
            return label;
        }
    }

    private PasswordHash() {
    }

    /**
     * {@return the form of {@code hash}, or null when it is none that can match (plain text, a
     * truncated or unknown hash)}
     *
     * @param hash a user's hash from an htpasswd file
     */
    public static Format format(String hash) {
        for (Format f : Format.values()) {
            if (f.shape.matcher(hash).matches()) {
                return f;
            }
        }
        return null;
    }

    /**
     * Whether {@code password} (the bytes the client sent) hashes to {@code hash}.
     *
     * @param password the candidate password's bytes
     * @param hash one user's hash from an htpasswd file
     * @return whether it matches
     */
    public static boolean matches(byte[] password, String hash) {
        Format f = format(hash);
        if (f == null) {
            return false;
        }
        // A copy: commons-codec clears the key bytes it is given.
        byte[] key = password.clone();
        try {
            String computed = switch (f) {
                case BCRYPT -> BCrypt.checkpw(key, hash) ? hash : null;
                case APR1_MD5 -> Md5Crypt.apr1Crypt(key, hash);
                case MD5_CRYPT -> Md5Crypt.md5Crypt(key, hash);
                case SHA256_CRYPT -> Sha2Crypt.sha256Crypt(key, hash);
                case SHA512_CRYPT -> Sha2Crypt.sha512Crypt(key, hash);
                case DES_CRYPT -> UnixCrypt.crypt(key, hash.substring(0, 2));
                case SHA1 -> "{SHA}" + Base64.getEncoder().encodeToString(sha1(key));
            };
            return computed != null && MessageDigest.isEqual(
                    computed.getBytes(StandardCharsets.ISO_8859_1), hash.getBytes(StandardCharsets.ISO_8859_1));
        } catch (IllegalArgumentException e) {
            return false; // a hash the library refuses (bcrypt's cost out of range, say) matches nothing
        }
    }

    private static byte[] sha1(byte[] password) {
        try {
            return MessageDigest.getInstance("SHA-1").digest(password);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-1", e);
        }
    }
}
