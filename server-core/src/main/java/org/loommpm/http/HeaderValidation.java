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

    /**
     * Fields no trailer section may carry, lower-case (RFC 9110 §6.5.1: what must be known before
     * the content, or that a recipient would wrongly merge into the head): message framing and
     * the connection's own fields, routing, request modifiers (controls and conditionals),
     * authentication and cookies, response control data, and the fields that say how to read
     * the content. A digest of it ({@code Content-Digest}, {@code Repr-Digest}) and an
     * application's own fields ({@code grpc-status}) remain allowed.
     */
    private static final java.util.Set<String> NOT_IN_TRAILERS = java.util.Set.of(
            "transfer-encoding", "content-length", "trailer", "te", "connection", "keep-alive",
            "proxy-connection", "upgrade", "http2-settings",
            "host",
            "cache-control", "expect", "max-forwards", "pragma", "range", "if-match", "if-none-match",
            "if-modified-since", "if-unmodified-since", "if-range",
            "authorization", "proxy-authorization", "www-authenticate", "proxy-authenticate", "cookie",
            "set-cookie",
            "age", "expires", "date", "location", "retry-after", "vary", "warning",
            "content-type", "content-encoding", "content-range", "content-language", "content-location");

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

    /**
     * Whether a trailer section may carry a field of this name (see {@link #NOT_IN_TRAILERS}).
     *
     * @param name the field name (case-insensitive)
     * @return whether it is forbidden in trailers
     */
    public static boolean forbiddenInTrailers(String name) {
        return NOT_IN_TRAILERS.contains(name.toLowerCase(java.util.Locale.ROOT));
    }

    /**
     * Checks the trailer fields a handler gives for its response and copies them, so the
     * handler's own instance may change afterwards.
     *
     * @param fields the fields, or {@code null} for none
     * @return the fields, checked, in a copy of their own (empty for {@code null})
     * @throws IllegalArgumentException for an invalid field or one no trailer section may carry
     */
    public static Headers trailers(Headers fields) {
        if (fields == null) {
            return new Headers(1);
        }
        Headers copy = new Headers(Math.max(1, fields.size()));
        for (int i = 0; i < fields.size(); i++) {
            String name = fields.name(i);
            check(name, fields.value(i));
            if (forbiddenInTrailers(name)) {
                throw new IllegalArgumentException(name + " is not allowed in trailers (RFC 9110 §6.5.1)");
            }
            copy.add(name, fields.value(i));
        }
        return copy;
    }

    /**
     * The trailer fields of a request as the handler sees them: those received, without the
     * ones no trailer section may carry (a client's {@code Content-Length} or {@code Host} after
     * the body must not change how the request was framed or routed).
     *
     * @param received the fields as parsed (already valid syntax)
     * @param dropped called with the name of each field left out (for a log line)
     * @return {@code received} itself when nothing is left out, else a copy without those fields
     */
    public static Headers allowedTrailers(Headers received, java.util.function.Consumer<String> dropped) {
        Headers kept = null;
        for (int i = 0; i < received.size(); i++) {
            String name = received.name(i);
            if (forbiddenInTrailers(name)) {
                dropped.accept(name);
                if (kept == null) {
                    kept = new Headers(Math.max(1, received.size()));
                    for (int j = 0; j < i; j++) {
                        kept.add(received.name(j), received.value(j));
                    }
                }
            } else if (kept != null) {
                kept.add(name, received.value(i));
            }
        }
        return kept == null ? received : kept;
    }
}
