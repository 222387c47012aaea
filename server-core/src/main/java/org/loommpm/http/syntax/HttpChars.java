package org.loommpm.http.syntax;

/**
 * The character classes of HTTP's grammar that more than one layer checks: {@code tchar} and
 * {@code token} (RFC 9110 §5.6.2) and {@code HEXDIG}. One table serves the HTTP/1.1 parser,
 * header validation, HPACK field names and the router's method names, so they cannot drift
 * apart. A package of its own, importing nothing, so the application API may use it without a
 * package loop.
 */
public final class HttpChars {
    /** {@code tchar}, indexed by unsigned byte (Latin-1 char): one load per character. */
    private static final boolean[] TCHAR = new boolean[256];

    static {
        for (char c = '0'; c <= '9'; c++) {
            TCHAR[c] = true;
        }
        for (char c = 'a'; c <= 'z'; c++) {
            TCHAR[c] = true;
            TCHAR[c - 32] = true;
        }
        for (char c : "!#$%&'*+-.^_`|~".toCharArray()) {
            TCHAR[c] = true;
        }
    }

    private HttpChars() {
    }

    /** Whether the byte is a {@code tchar}. */
    public static boolean isTchar(byte b) {
        return TCHAR[b & 0xFF];
    }

    /** Whether the character is a {@code tchar}. */
    public static boolean isTchar(char c) {
        return c < 256 && TCHAR[c];
    }

    /** Whether the string is a non-empty {@code token}. */
    public static boolean isToken(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (!isTchar(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** The value of a hex digit, or -1. */
    public static int hexValue(int c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        int l = c | 0x20;
        if (l >= 'a' && l <= 'f') {
            return l - 'a' + 10;
        }
        return -1;
    }
}
