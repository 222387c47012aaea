package org.loommpm.protocol;

/**
 * Checks header fields a handler sets, so a value taken from user input can never split the
 * response (CR/LF injection) or produce a head a client would misparse. Shared by HTTP/1.1 and
 * HTTP/2 (whose HPACK blocks must not carry such fields either).
 */
public final class HeaderValidation {
    private HeaderValidation() {
    }

    /** @throws IllegalArgumentException for a name that is not a token or a value with CTLs */
    public static void check(String name, String value) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("empty header name");
        }
        for (int i = 0; i < name.length(); i++) {
            if (!isTchar(name.charAt(i))) {
                throw new IllegalArgumentException("invalid header name: " + name);
            }
        }
        if (value == null) {
            throw new IllegalArgumentException("null value for header " + name);
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if ((c < 0x20 && c != '\t') || c == 0x7F || c > 0xFF) {
                throw new IllegalArgumentException("invalid character in value of header " + name);
            }
        }
    }

    /** Whether {@code c} may appear in a token (RFC 9110 §5.6.2). */
    public static boolean isTchar(char c) {
        return c < 128 && (TCHAR[c >> 6] & (1L << c)) != 0;
    }

    /** The token characters as a 128-bit set: one test per character instead of a search. */
    private static final long[] TCHAR = tchars();

    private static long[] tchars() {
        long[] set = new long[2];
        for (char c = 0; c < 128; c++) {
            if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || "!#$%&'*+-.^_`|~".indexOf(c) >= 0) {
                set[c >> 6] |= 1L << c;
            }
        }
        return set;
    }
}
