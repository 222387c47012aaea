package org.loommpm.auth;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;

/**
 * The user and password of an {@code Authorization: Basic} field (RFC 7617), read as
 * mod_auth_basic reads them: the scheme compared without case up to the first space, blanks
 * skipped, the Base64 decoded up to the first character that is not Base64 (httpd's decoder
 * stops there too), the user up to the first {@code :}, the rest the password. The user is the
 * ISO-8859-1 view of its bytes, so it compares byte for byte with an htpasswd file's names.
 *
 * @param user the user name
 * @param password the password's bytes
 */
public record BasicCredentials(String user, byte[] password) {
    /**
     * {@return the credentials of an {@code Authorization} value, or null when it is absent or
     * of another scheme}
     *
     * @param authorization the field's value, or null
     */
    public static BasicCredentials parse(String authorization) {
        if (authorization == null) {
            return null;
        }
        int space = authorization.indexOf(' ');
        String scheme = space < 0 ? authorization : authorization.substring(0, space);
        if (!scheme.equalsIgnoreCase("Basic")) {
            return null;
        }
        int i = space < 0 ? authorization.length() : space;
        while (i < authorization.length() && (authorization.charAt(i) == ' ' || authorization.charAt(i) == '\t')) {
            i++;
        }
        int end = i;
        while (end < authorization.length() && base64(authorization.charAt(end))) {
            end++;
        }
        String b64 = authorization.substring(i, end);
        if (b64.length() % 4 == 1) {
            b64 = b64.substring(0, b64.length() - 1); // six bits of a byte: httpd drops them too
        }
        byte[] decoded = Base64.getDecoder().decode(pad(b64));
        // httpd works on the decoded C string: a NUL ends it.
        int nul = indexOf(decoded, (byte) 0);
        if (nul >= 0) {
            decoded = Arrays.copyOf(decoded, nul);
        }
        int colon = indexOf(decoded, (byte) ':');
        String user = new String(decoded, 0, colon < 0 ? decoded.length : colon, StandardCharsets.ISO_8859_1);
        byte[] password = colon < 0 ? new byte[0] : Arrays.copyOfRange(decoded, colon + 1, decoded.length);
        return new BasicCredentials(user, password);
    }

    private static boolean base64(char c) {
        return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/';
    }

    private static String pad(String b64) {
        return switch (b64.length() % 4) {
            case 2 -> b64 + "==";
            case 3 -> b64 + "=";
            default -> b64;
        };
    }

    private static int indexOf(byte[] b, byte v) {
        for (int i = 0; i < b.length; i++) {
            if (b[i] == v) {
                return i;
            }
        }
        return -1;
    }

    /** The user only: the password stays out of logs. */
    @Override
    public String toString() {
        return "BasicCredentials[user=" + user + "]";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BasicCredentials c && c.user.equals(user) && Arrays.equals(c.password, password);
    }

    @Override
    public int hashCode() {
        return user.hashCode() * 31 + Arrays.hashCode(password);
    }
}
