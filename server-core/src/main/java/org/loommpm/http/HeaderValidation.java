package org.loommpm.http;

import org.loommpm.http.syntax.HttpChars;

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
            if (!HttpChars.isTchar(name.charAt(i))) {
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
}
