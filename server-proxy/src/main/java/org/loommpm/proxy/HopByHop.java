package org.loommpm.proxy;

import org.loommpm.api.Headers;

/**
 * The connection-specific fields a proxy must not forward (RFC 9110 §7.6.1): {@code Connection}
 * and every field it names, {@code Proxy-Connection}, {@code Keep-Alive}, {@code TE},
 * {@code Transfer-Encoding}, {@code Upgrade}, and {@code Trailer} (trailers are not forwarded,
 * httpd drops it too). Framing ({@code Content-Length}) is written by whoever frames the body.
 */
final class HopByHop {
    /** The fields that are hop-by-hop whatever {@code Connection} says, lower case. */
    private static final String[] FIXED = {"connection", "keep-alive", "proxy-connection", "te", "transfer-encoding",
        "upgrade", "trailer", "close"};

    private HopByHop() {
    }

    /**
     * Whether a {@code Connection} field of {@code h} names a field that is not hop-by-hop anyway
     * (anything but {@code keep-alive}, {@code upgrade}, ..., and the option {@code close}). Worked out once per
     * message, so that the common message, with no such field, is not scanned again per field.
     */
    static boolean namesOthers(Headers h) {
        for (int f = 0; f < h.size(); f++) {
            if (Headers.equalsIgnoreCase(h.name(f), "Connection") && listsOther(h.value(f))) {
                return true;
            }
        }
        return false;
    }

    private static boolean listsOther(String list) {
        int n = list.length();
        for (int i = 0; i < n; ) {
            int comma = list.indexOf(',', i);
            int e = comma < 0 ? n : comma;
            int s = i;
            while (s < e && (list.charAt(s) == ' ' || list.charAt(s) == '\t')) {
                s++;
            }
            int t = e;
            while (t > s && (list.charAt(t - 1) == ' ' || list.charAt(t - 1) == '\t')) {
                t--;
            }
            if (t > s && !fixed(list, s, t)) {
                return true;
            }
            i = e + 1;
        }
        return false;
    }

    private static boolean fixed(String list, int from, int to) {
        for (String f : FIXED) {
            if (f.length() == to - from && list.regionMatches(true, from, f, 0, to - from)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether {@code name} is hop-by-hop in a message whose {@code Connection} fields are
     * {@code h}'s.
     *
     * @param namesOthers {@link #namesOthers}{@code (h)}, worked out once for the message
     */
    static boolean is(String name, Headers h, boolean namesOthers) {
        boolean fixed = switch (name.length()) {
            case 2 -> Headers.equalsIgnoreCase(name, "TE");
            case 7 -> Headers.equalsIgnoreCase(name, "Upgrade") || Headers.equalsIgnoreCase(name, "Trailer");
            case 10 -> Headers.equalsIgnoreCase(name, "Connection") || Headers.equalsIgnoreCase(name, "Keep-Alive");
            case 16 -> Headers.equalsIgnoreCase(name, "Proxy-Connection");
            case 17 -> Headers.equalsIgnoreCase(name, "Transfer-Encoding");
            default -> false;
        };
        // "close" is left out of namesOthers, yet a field spelt so is still named by "Connection: close".
        return fixed || (namesOthers || name.length() == 5) && h.hasToken("Connection", name);
    }
}
