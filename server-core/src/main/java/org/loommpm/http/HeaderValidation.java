package org.loommpm.http;

import org.loommpm.api.Headers;
import org.loommpm.http.syntax.HttpChars;

/**
 * Checks header fields a handler sets, so a value taken from user input can never split the
 * response (CR/LF injection) or produce a head a client would misparse. Shared by HTTP/1.1 and
 * HTTP/2 (whose HPACK blocks must not carry such fields either).
 */
public final class HeaderValidation {
    /** Fields no interim response carries (see {@link #interim}). */
    private static final String[] NOT_IN_INTERIM = {
        "Content-Length", "Connection", "Keep-Alive", "Proxy-Connection", "Transfer-Encoding", "Upgrade"};

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

    /**
     * Checks an interim response a handler sends ({@code sendInterim}) and copies its fields, so
     * the caller may change its own afterwards.
     *
     * @return the fields, checked, in a copy of their own
     * @throws IllegalArgumentException for a status other than 102-199 (100 is the server's
     *         answer to {@code Expect: 100-continue}, 101 comes with an upgrade), an invalid
     *         field, or one a 1xx may not carry: Content-Length (RFC 9110 §8.6) and the
     *         connection-specific fields HTTP/2 forbids (RFC 9113 §8.2.2)
     */
    public static Headers interim(int status, Headers fields) {
        if (status < 102 || status > 199) {
            throw new IllegalArgumentException("an interim response is 102-199, not " + status);
        }
        Headers copy = new Headers(Math.max(1, fields.size()));
        for (int i = 0; i < fields.size(); i++) {
            String name = fields.name(i);
            check(name, fields.value(i));
            for (String banned : NOT_IN_INTERIM) {
                if (Headers.equalsIgnoreCase(name, banned)) {
                    throw new IllegalArgumentException(name + " in an interim response");
                }
            }
            copy.add(name, fields.value(i));
        }
        return copy;
    }
}
