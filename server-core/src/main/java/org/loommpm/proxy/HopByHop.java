package org.loommpm.proxy;

import org.loommpm.api.Headers;

/**
 * The connection-specific fields a proxy must not forward (RFC 9110 §7.6.1): {@code Connection}
 * and every field it names, {@code Proxy-Connection}, {@code Keep-Alive}, {@code TE},
 * {@code Transfer-Encoding}, {@code Upgrade}, and {@code Trailer} (trailers are not forwarded,
 * httpd drops it too). Framing ({@code Content-Length}) is written by whoever frames the body.
 */
final class HopByHop {
    private HopByHop() {
    }

    /** Whether {@code name} is hop-by-hop in a message whose {@code Connection} fields are {@code h}'s. */
    static boolean is(String name, Headers h) {
        return switch (name.length()) {
            case 2 -> Headers.equalsIgnoreCase(name, "TE");
            case 7 -> Headers.equalsIgnoreCase(name, "Upgrade") || Headers.equalsIgnoreCase(name, "Trailer");
            case 10 -> Headers.equalsIgnoreCase(name, "Connection") || Headers.equalsIgnoreCase(name, "Keep-Alive")
                    || named(name, h);
            case 16 -> Headers.equalsIgnoreCase(name, "Proxy-Connection") || named(name, h);
            case 17 -> Headers.equalsIgnoreCase(name, "Transfer-Encoding") || named(name, h);
            default -> named(name, h);
        };
    }

    /** Whether a {@code Connection} field of {@code h} lists {@code name}. */
    private static boolean named(String name, Headers h) {
        return h.hasToken("Connection", name);
    }
}
