package org.loommpm.proxy;

import org.loommpm.api.Request;

/**
 * The route of a sticky session (httpd's {@code stickysession=NAME}): the value of cookie
 * {@code NAME}, or else of query parameter {@code NAME}, after its first dot
 * ({@code JSESSIONID=abc.node1} gives {@code node1}); a member whose {@code route} equals it is
 * preferred while it is usable.
 */
final class StickyRoute {
    private StickyRoute() {
    }

    /** The route, or null (no sticky session configured, none sent, or no dot in it). */
    static String of(Request req, String name) {
        if (name == null) {
            return null;
        }
        String value = null;
        for (String cookies : req.headers().all("Cookie")) {
            for (String pair : cookies.split(";")) {
                int eq = pair.indexOf('=');
                if (eq > 0 && pair.substring(0, eq).strip().equals(name)) {
                    value = pair.substring(eq + 1).strip();
                }
            }
        }
        if (value == null) {
            value = req.queryParam(name);
        }
        if (value == null) {
            return null;
        }
        if (value.length() > 1 && value.startsWith("\"") && value.endsWith("\"")) {
            value = value.substring(1, value.length() - 1);
        }
        int dot = value.indexOf('.');
        return dot < 0 || dot == value.length() - 1 ? null : value.substring(dot + 1);
    }
}
