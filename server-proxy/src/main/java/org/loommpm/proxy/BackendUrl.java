package org.loommpm.proxy;

import java.net.URI;
import java.util.Locale;

/**
 * An {@code http://host[:port]/path} backend address, parsed once: what a {@code ProxyPass} or a
 * {@code BalancerMember} names. Only {@code http} is accepted (HTTP/1.1 over cleartext TCP);
 * {@code h2c://} and {@code https://} backends are not implemented.
 *
 * @param host the host name or literal address (IPv6 without brackets)
 * @param port the port (80 when not given)
 * @param path the path prefix requests are appended to, never empty (at least {@code /}); kept
 *     exactly as written (percent-encoded)
 */
public record BackendUrl(String host, int port, String path) {
    /**
     * Parses a backend URL.
     *
     * @throws IllegalArgumentException if it is not {@code http://host[:port][/path]}, or has a
     *     query, fragment or user info
     * @param url the URL
     * @return the parsed URL
     */
    public static BackendUrl parse(String url) {
        URI u;
        try {
            u = new URI(url);
        } catch (java.net.URISyntaxException e) {
            throw new IllegalArgumentException("not a URL: " + url);
        }
        String scheme = u.getScheme() == null ? "" : u.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http")) {
            throw new IllegalArgumentException("only http:// backends are supported, got '" + url + "'");
        }
        if (u.getHost() == null || u.getRawUserInfo() != null || u.getRawQuery() != null || u.getRawFragment() != null) {
            throw new IllegalArgumentException("a backend is http://host[:port][/path], got '" + url + "'");
        }
        String host = u.getHost();
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        String path = u.getRawPath() == null || u.getRawPath().isEmpty() ? "/" : u.getRawPath();
        return new BackendUrl(host, u.getPort() < 0 ? 80 : u.getPort(), path);
    }

    /** {@return {@code host:port} as a {@code Host} field value (IPv6 literals bracketed)} */
    public String authority() {
        String h = host.indexOf(':') >= 0 ? "[" + host + "]" : host;
        return port == 80 ? h : h + ":" + port;
    }

    /** The URL as written back by {@code ProxyPassReverse}: {@code http://authority/path}. */
    @Override
    public String toString() {
        return "http://" + authority() + path;
    }
}
