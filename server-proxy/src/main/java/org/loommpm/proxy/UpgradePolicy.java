package org.loommpm.proxy;

import java.util.Locale;
import org.loommpm.api.Headers;
import org.loommpm.api.HttpException;
import org.loommpm.api.Request;
import org.loommpm.api.Response;
import org.loommpm.http.ResponseState;

/**
 * Which protocol upgrades a proxy passes through (httpd's {@code ProxyPass ... upgrade=}): one
 * protocol name ({@code websocket}, compared case-insensitively with the tokens of the client's
 * {@code Upgrade} field or its {@code :protocol}) or {@code *} for any. An HTTP/1.1 request
 * qualifies when it carries {@code Upgrade} and {@code Connection: upgrade}, has no body, and
 * names the protocol ({@link ConnectionUpgrade}); an extended CONNECT (RFC 8441) when its
 * {@code :protocol} is the protocol ({@link ExtendedConnect}). The backend's {@code 101} must
 * name it too. Every other HTTP/1.1 request is proxied as before, its {@code Upgrade} removed as
 * a hop-by-hop field; an extended CONNECT for a protocol not passed through is answered 501
 * (a CONNECT has no meaning to an HTTP/1.1 backend, and a 2xx would open a tunnel). Immutable.
 *
 * @param protocol the protocol allowed, lower case, or {@code *}
 */
record UpgradePolicy(String protocol) {
    private static final System.Logger LOG = System.getLogger("org.loommpm.proxy");
    /** Any protocol ({@code upgrade=*}). */
    static final String ANY = "*";

    UpgradePolicy {
        protocol = protocol.toLowerCase(Locale.ROOT);
    }

    /**
     * The upgrade a request asks for, when {@code policy} passes it through.
     *
     * @param policy the route's policy, or {@code null} when it passes none
     * @param req the client's request
     * @param res the client's response: the server's own tells an extended CONNECT
     * @param hasBody whether it carries a body (an HTTP/1.1 upgrade request with one is not passed through)
     * @return the upgrade, or {@code null} to proxy the request as any other
     * @throws HttpException 501 for an extended CONNECT whose protocol is not passed through
     */
    static ClientUpgrade requested(UpgradePolicy policy, Request req, Response res, boolean hasBody) {
        String connect = res instanceof ResponseState own ? own.connectProtocol() : null;
        if (connect != null) {
            if (policy == null || !policy.protocol.equals(ANY) && !policy.protocol.equalsIgnoreCase(connect)) {
                LOG.log(System.Logger.Level.DEBUG, "LM2317 501 for CONNECT {0} with :protocol {1}: not passed "
                        + "through (upgrade=)", req.rawTarget(), connect);
                throw new HttpException(501, "the proxy does not pass :protocol " + connect + " through");
            }
            return ExtendedConnect.of(connect);
        }
        if (policy == null) {
            return null;
        }
        Headers h = req.headers();
        if (hasBody || !req.protocol().equals("HTTP/1.1") || !h.hasToken("Connection", "upgrade")) {
            return null;
        }
        String value = h.first("Upgrade");
        if (value == null || value.isBlank() || !policy.allows(h)) {
            return null;
        }
        return new ConnectionUpgrade(policy, h, String.join(", ", h.all("Upgrade")));
    }

    /** {@return whether the {@code Upgrade} field of {@code h} names the allowed protocol} */
    boolean allows(Headers h) {
        return protocol.equals(ANY) ? h.contains("Upgrade") : h.hasToken("Upgrade", protocol);
    }
}
