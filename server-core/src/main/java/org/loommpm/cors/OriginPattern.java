package org.loommpm.cors;

import java.util.Locale;

/**
 * One allowed origin: exact ({@code https://app.example.com}, {@code http://localhost:8080}) or
 * with a wildcard for the leftmost host labels ({@code https://*.example.com}, which matches
 * {@code https://a.example.com} and {@code https://a.b.example.com} but not
 * {@code https://example.com}, {@code https://evil-example.com} nor
 * {@code https://a.example.com.evil.net}). Scheme and host compare without regard to case, as
 * browsers serialize them in lowercase anyway; the port must be the same (none means the
 * scheme's default, as the browser leaves it out).
 */
final class OriginPattern {
    /** The whole origin (exact), or the part before {@code *} (with a wildcard), lowercase. */
    private final String prefix;
    /** The part after {@code *} ({@code .example.com[:port]}), or null for an exact origin. */
    private final String suffix;

    private OriginPattern(String prefix, String suffix) {
        this.prefix = prefix;
        this.suffix = suffix;
    }

    /**
     * @throws IllegalArgumentException for what no browser sends as an Origin: a path, a
     *     trailing slash, a missing scheme, a wildcard elsewhere than the first host label
     */
    static OriginPattern of(String origin) {
        String o = origin.strip().toLowerCase(Locale.ROOT);
        if (o.equals("null")) {
            return new OriginPattern(o, null); // opaque origins (sandboxed frames, file:), only when listed
        }
        int scheme = o.indexOf("://");
        if (scheme <= 0 || !o.substring(0, scheme).matches("[a-z][a-z0-9+.-]*")) {
            throw new IllegalArgumentException("not an origin (scheme://host[:port]): '" + origin + "'");
        }
        String authority = o.substring(scheme + 3);
        if (authority.isEmpty() || authority.contains("/") || authority.contains("@") || authority.contains("?")
                || authority.contains("#")) {
            throw new IllegalArgumentException("not an origin (scheme://host[:port], no path nor trailing slash): '"
                    + origin + "'");
        }
        int star = authority.indexOf('*');
        if (star < 0) {
            return new OriginPattern(o, null);
        }
        if (star != 0 || authority.indexOf('*', 1) >= 0 || !authority.startsWith("*.") || authority.length() < 3
                || authority.charAt(2) == ':') {
            throw new IllegalArgumentException("a wildcard origin is scheme://*.domain[:port]: '" + origin + "'");
        }
        return new OriginPattern(o.substring(0, scheme + 3), authority.substring(1));
    }

    /** Whether the request's {@code Origin} value is this one. */
    boolean matches(String origin) {
        if (suffix == null) {
            return origin.equalsIgnoreCase(prefix);
        }
        int n = origin.length();
        if (n <= prefix.length() + suffix.length() || !origin.regionMatches(true, 0, prefix, 0, prefix.length())
                || !origin.regionMatches(true, n - suffix.length(), suffix, 0, suffix.length())) {
            return false;
        }
        // The labels the * stands for: host characters only (no port, path or user info).
        for (int i = prefix.length(); i < n - suffix.length(); i++) {
            char c = origin.charAt(i);
            boolean ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.';
            if (!ok) {
                return false;
            }
        }
        String labels = origin.substring(prefix.length(), n - suffix.length());
        return !labels.startsWith(".") && !labels.endsWith(".") && !labels.contains("..");
    }

    @Override
    public String toString() {
        return suffix == null ? prefix : prefix + "*" + suffix;
    }
}
