package org.loommpm.http;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.loommpm.api.HttpException;

/**
 * The one path a request is known by: what routing, {@code <Location>} and {@code ProxyPass}
 * match ({@link #path}) and what a reverse proxy forwards ({@link #encoded}) are the same resource,
 * so a rule cannot authorise one path while the backend serves another. Computed once per request
 * target, by the HTTP/1.1 parser and by HTTP/2 alike.
 *
 * <p>From the raw path (the target before {@code ?}), in order:
 * <ol>
 *   <li>percent-decoded once, strictly ({@link UriCodec#decodePath}: a malformed escape, invalid
 *       UTF-8 or NUL is 400); an encoded slash then separates segments like any other (the
 *       forwarded path says {@code /}, so the backend sees the same segments);
 *   <li>split into segments on {@code /}; each segment's path parameters, from its first
 *       {@code ;} on, are set apart, as Servlet containers (Tomcat, Jetty, Spring) read them: the
 *       segment's name is what is left;
 *   <li>segments with an empty name, or {@code .}, are dropped; {@code ..} removes the segment
 *       before it (RFC 3986 §5.2.4), whatever parameters either carried, and one climbing above
 *       the root is 400;
 *   <li>a name ending in a dot or a space ({@code secret.}) is 400: Windows file systems, and
 *       servers on them, drop those and would serve {@code secret}, which a rule on
 *       {@code secret} does not cover here. Refusing is the one reading every backend shares.
 * </ol>
 * {@link #path} joins the names, decoded: the parameters are not part of it, so
 * {@code /secret;x=1} is {@code /secret} to every rule, as it is to the Servlet container that
 * will serve it. {@link #encoded} joins the names percent-encoded again, each followed by its
 * parameters: a proxy forwards that, so {@code ;jsessionid=} still reaches the backend, and a
 * backend that does not strip parameters only ever sees a longer name than the one authorised,
 * never a dot-segment or a separator the rules did not see. A trailing slash, or a trailing
 * {@code .} or {@code ..} segment, leaves the path ending with {@code /}.
 *
 * <p>A path that needs none of this (the common case: only characters that stay as they are,
 * no {@code //}, no segment ending in a dot) is its own path and encoded form, with no string
 * built.
 *
 * @param path the normalised, decoded path without path parameters
 * @param encoded the normalised path percent-encoded, with each segment's path parameters
 */
public record RequestPath(String path, String encoded) {
    /**
     * Characters that stay as they are in a segment's name when it is encoded: RFC 3986's
     * {@code pchar} without {@code ;} (which begins the parameters) and without {@code %}
     * (which would be read as an escape). In parameters {@code ;} stays too.
     */
    private static final boolean[] KEEP = new boolean[128];

    static {
        for (char c = '0'; c <= '9'; c++) {
            KEEP[c] = true;
        }
        for (char c = 'a'; c <= 'z'; c++) {
            KEEP[c] = true;
            KEEP[c - 32] = true;
        }
        for (char c : "-._~!$&'()*+,=:@".toCharArray()) {
            KEEP[c] = true;
        }
    }

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    /**
     * Normalises the raw path of a request target (before {@code ?}). One not starting with
     * {@code /} ({@code *}, the empty path of CONNECT) is only decoded.
     *
     * @throws HttpException 400 when the path cannot be made unambiguous (see above)
     */
    public static RequestPath of(String raw) {
        if (raw.isEmpty() || raw.charAt(0) != '/') {
            return new RequestPath(UriCodec.decodePath(raw), raw);
        }
        if (plain(raw)) {
            return new RequestPath(raw, raw);
        }
        String decoded = UriCodec.decodePath(raw);
        List<String> names = new ArrayList<>();
        List<String> params = new ArrayList<>();
        int from = 1;
        boolean directory = false;
        while (from <= decoded.length()) {
            int slash = decoded.indexOf('/', from);
            int end = slash < 0 ? decoded.length() : slash;
            int semi = decoded.indexOf(';', from);
            int nameEnd = semi >= 0 && semi < end ? semi : end;
            String name = decoded.substring(from, nameEnd);
            directory = name.isEmpty() || name.equals(".") || name.equals("..");
            if (name.equals("..")) {
                if (names.isEmpty()) {
                    throw new HttpException(400, "path climbs above the root");
                }
                names.removeLast();
                params.removeLast();
            } else if (!directory) {
                char last = name.charAt(name.length() - 1);
                if (last == '.' || last == ' ') {
                    throw new HttpException(400, "a path segment ends in a dot or a space");
                }
                names.add(name);
                params.add(decoded.substring(nameEnd, end));
            }
            from = end + 1;
        }
        if (names.isEmpty()) {
            return new RequestPath("/", "/");
        }
        StringBuilder path = new StringBuilder(decoded.length());
        StringBuilder encoded = new StringBuilder(raw.length());
        for (int i = 0; i < names.size(); i++) {
            path.append('/').append(names.get(i));
            encoded.append('/');
            encode(encoded, names.get(i), false);
            encode(encoded, params.get(i), true);
        }
        if (directory) {
            path.append('/');
            encoded.append('/');
        }
        return new RequestPath(path.toString(), encoded.toString());
    }

    /**
     * The encoded form of what follows {@code path.substring(from)}: the rest of the segment
     * {@code from} falls in (encoded), then that segment's parameters and the segments after
     * it. A proxy cuts its prefix off the path with it.
     *
     * @param path a {@link #path}
     * @param encoded the {@link #encoded} form of the same request
     * @param from an index into {@code path}
     */
    public static String encodedFrom(String path, String encoded, int from) {
        if (path.equals(encoded)) {
            return encoded.substring(from);
        }
        int segment = 0;
        int start = 0;
        for (int i = 0; i < from; i++) {
            if (path.charAt(i) == '/') {
                segment++;
                start = i + 1;
            }
        }
        int nameEnd = path.indexOf('/', from);
        String name = path.substring(from, nameEnd < 0 ? path.length() : nameEnd);
        // The same segment in the encoded form: names hold no '/' there, and no ';' either.
        int at = 0;
        for (int seen = 0; seen < segment; at++) {
            if (encoded.charAt(at) == '/') {
                seen++;
            }
        }
        int after = at;
        while (after < encoded.length() && encoded.charAt(after) != '/' && encoded.charAt(after) != ';') {
            after++;
        }
        if (from == start && name.isEmpty()) {
            return encoded.substring(at);
        }
        StringBuilder sb = new StringBuilder(encoded.length() - at + 8);
        encode(sb, name, false);
        return sb.append(encoded, after, encoded.length()).toString();
    }

    /** Whether {@code raw} is already normal: only characters kept as they are, no empty or dot-ending segment. */
    private static boolean plain(String raw) {
        int n = raw.length();
        for (int i = 1; i < n; i++) {
            char c = raw.charAt(i);
            if (c == '/') {
                char prev = raw.charAt(i - 1);
                if (prev == '/' || prev == '.') {
                    return false;
                }
            } else if (c >= 128 || !KEEP[c]) {
                return false;
            }
        }
        return raw.charAt(n - 1) != '.';
    }

    /** Appends {@code s} percent-encoded as UTF-8; {@code ;} stays as it is in parameters. */
    private static void encode(StringBuilder sb, String s, boolean parameters) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 128 && (KEEP[c] || parameters && c == ';')) {
                sb.append(c);
                continue;
            }
            int cp = s.codePointAt(i);
            if (Character.charCount(cp) == 2) {
                i++;
            }
            for (byte b : new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8)) {
                sb.append('%').append(HEX[(b >> 4) & 0xF]).append(HEX[b & 0xF]);
            }
        }
    }
}
