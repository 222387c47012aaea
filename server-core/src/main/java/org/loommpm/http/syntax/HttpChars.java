package org.loommpm.http.syntax;

/**
 * The character classes of HTTP's grammar that more than one layer checks: {@code tchar} and
 * {@code token} (RFC 9110 §5.6.2), {@code HEXDIG} and an authority. One table serves the
 * HTTP/1.1 parser, header validation, HPACK field names and the router's method names, so they
 * cannot drift apart. A package of its own, importing nothing, so the application API may use it without a
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

    /**
     * Whether {@code s} is {@code host [":" port]} (RFC 3986 §3.2.2, §3.2.3) with a non-empty
     * host: a reg-name or a bracketed IP literal, no userinfo, no whitespace, no '/'. Shared by
     * the HTTP/1.1 target and Host checks and HTTP/2's {@code :authority} and {@code host}.
     *
     * @param requirePort whether the port must be present (CONNECT's authority-form)
     */
    public static boolean isAuthority(String s, boolean requirePort) {
        int n = s.length();
        if (n == 0) {
            return false;
        }
        int i = 0;
        if (s.charAt(0) == '[') {
            int close = s.indexOf(']');
            if (close < 2) {
                return false;
            }
            for (int j = 1; j < close; j++) {
                char c = s.charAt(j);
                if (!isRegNameChar(c) && c != ':' && c != '%') {
                    return false;
                }
            }
            i = close + 1;
        } else {
            while (i < n && s.charAt(i) != ':') {
                char c = s.charAt(i);
                if (c == '%') {
                    if (i + 2 >= n || hexValue(s.charAt(i + 1)) < 0 || hexValue(s.charAt(i + 2)) < 0) {
                        return false;
                    }
                    i += 3;
                } else if (isRegNameChar(c)) {
                    i++;
                } else {
                    return false;
                }
            }
            if (i == 0) {
                return false;
            }
        }
        if (i == n) {
            return !requirePort;
        }
        if (s.charAt(i) != ':') {
            return false;
        }
        int digits = n - i - 1;
        if (digits > 5 || (requirePort && digits == 0)) {
            return false;
        }
        int port = 0;
        for (int j = i + 1; j < n; j++) {
            char c = s.charAt(j);
            if (c < '0' || c > '9') {
                return false;
            }
            port = port * 10 + (c - '0');
        }
        return port <= 65535;
    }

    /** unreserved / sub-delims of RFC 3986. */
    private static boolean isRegNameChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                || "-._~!$&'()*+,;=".indexOf(c) >= 0;
    }
}
