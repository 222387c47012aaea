package org.loommpm.proxy;

import java.util.Locale;
import org.loommpm.api.Headers;
import org.loommpm.api.Request;

/**
 * Which protocol upgrades a proxy passes through (httpd's {@code ProxyPass ... upgrade=}): one
 * protocol name ({@code websocket}, compared case-insensitively with the tokens of the client's
 * {@code Upgrade} field) or {@code *} for any. A request qualifies when it is HTTP/1.1, carries
 * {@code Upgrade} and {@code Connection: upgrade}, has no body, and names the protocol; the
 * backend's {@code 101} must name it too. Everything else is proxied as today, its
 * {@code Upgrade} removed as a hop-by-hop field. Immutable.
 *
 * @param protocol the protocol allowed, lower case, or {@code *}
 */
record UpgradePolicy(String protocol) {
    /** Any protocol ({@code upgrade=*}). */
    static final String ANY = "*";

    UpgradePolicy {
        protocol = protocol.toLowerCase(Locale.ROOT);
    }

    /**
     * The client's {@code Upgrade} value when this request may be passed through as an upgrade.
     *
     * @param req the client's request
     * @param hasBody whether it carries a body (an upgrade request with one is not passed through)
     * @return the field's value, or {@code null}
     */
    String requested(Request req, boolean hasBody) {
        Headers h = req.headers();
        if (hasBody || !req.protocol().equals("HTTP/1.1") || !h.hasToken("Connection", "upgrade")) {
            return null;
        }
        String value = h.first("Upgrade");
        if (value == null || value.isBlank() || !allows(h)) {
            return null;
        }
        return String.join(", ", h.all("Upgrade"));
    }

    /** {@return whether the {@code Upgrade} field of {@code h} names the allowed protocol} */
    boolean allows(Headers h) {
        return protocol.equals(ANY) ? h.contains("Upgrade") : h.hasToken("Upgrade", protocol);
    }
}
