package org.loommpm.proxy;

import org.loommpm.api.Request;

/**
 * The route of a sticky session (httpd's {@code stickysession=NAME}, or {@code COOKIE|PARAM} when
 * the cookie and the URL parameter are named differently, as servlet containers do with
 * {@code JSESSIONID|jsessionid}): the value of URL parameter {@code PARAM}, as a path parameter
 * ({@code /cart;jsessionid=abc.node1}, a servlet container's URL rewriting) or in the query,
 * or else of cookie {@code COOKIE}, after its first dot ({@code abc.node1} gives {@code node1}).
 * httpd looks in the URL first, and takes the first cookie of that name (the most specific
 * path's, RFC 6265 §5.4); a member whose {@code route} equals the route is preferred while it is
 * usable.
 */
final class StickyRoute {
    private StickyRoute() {
    }

    /** The route, or null (no sticky session configured, none sent, or no dot in it). */
    static String of(Request req, String name) {
        if (name == null) {
            return null;
        }
        int bar = name.indexOf('|');
        String cookie = bar < 0 ? name : name.substring(0, bar);
        String param = bar < 0 ? name : name.substring(bar + 1);
        String value = urlParam(req.rawTarget(), param);
        if (value == null) {
            value = cookie(req, cookie);
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

    /** The value of {@code ;name=} (a path parameter) or {@code ?name=}/{@code &name=} in the target, or null. */
    private static String urlParam(String target, String name) {
        if (name.isEmpty()) {
            return null;
        }
        for (int at = target.indexOf(name); at > 0; at = target.indexOf(name, at + 1)) {
            char before = target.charAt(at - 1);
            int eq = at + name.length();
            if ((before == ';' || before == '?' || before == '&') && eq < target.length() && target.charAt(eq) == '=') {
                int end = eq + 1;
                while (end < target.length() && ";?&/".indexOf(target.charAt(end)) < 0) {
                    end++;
                }
                return end > eq + 1 ? target.substring(eq + 1, end) : null;
            }
        }
        return null;
    }

    /** The first cookie {@code name}'s value, or null. */
    private static String cookie(Request req, String name) {
        for (String cookies : req.headers().all("Cookie")) {
            for (String pair : cookies.split(";")) {
                int eq = pair.indexOf('=');
                if (eq > 0 && pair.substring(0, eq).strip().equals(name)) {
                    return pair.substring(eq + 1).strip();
                }
            }
        }
        return null;
    }
}
