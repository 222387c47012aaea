package org.loommpm.staticfiles.internal;

import java.util.ArrayDeque;
import java.util.Deque;
import org.loommpm.api.Request;

/**
 * The request path made safe to map onto files and to match {@code <Location>}s against. The
 * server has already percent-decoded it exactly once and normalised it
 * ({@code org.loommpm.http.RequestPath}: malformed escapes, invalid or overlong UTF-8, NUL, a
 * {@code ..} above the root and a segment ending in a dot refused; path parameters set apart);
 * nothing here decodes again, so {@code %252e} stays the literal text {@code %2e}. Then, in order
 * (the segment rules matter for paths from elsewhere, such as the configuration's):
 * <ul>
 *   <li>an encoded backslash in the raw target ({@code %5c}) is refused with 404, and so is an
 *       encoded slash ({@code %2f}) unless {@code AllowEncodedSlashes On} (httpd's default Off);
 *   <li>a backslash, NUL or other control character in the decoded path is refused with 400;
 *   <li>empty and {@code .} segments are dropped, {@code ..} removes the previous segment, and a
 *       {@code ..} that would climb above the root is refused with 400.
 * </ul>
 * What is left is a path of plain names: mapped under DocumentRoot it cannot leave it (symlinks
 * are the resolver's business).
 */
public final class UrlPath {
    /** A path the client may not have: {@code status} says how to answer. */
    public static final class Rejected extends Exception {
        private static final long serialVersionUID = 1L;
        private final int status;

        Rejected(int status, String why) {
            super(why, null, false, false);
            this.status = status;
        }

        /** 400 or 404. */
        public int status() {
            return status;
        }
    }

    private UrlPath() {
    }

    /**
     * @param request the request
     * @param allowEncodedSlashes {@code AllowEncodedSlashes On}: a {@code %2f} is not refused
     *     (the server decoded it to a {@code /} like any other)
     * @return the normalized path, starting with {@code /}; it ends with {@code /} when the
     *     request's did (a directory request)
     * @throws Rejected when the path is refused
     */
    public static String normalize(Request request, boolean allowEncodedSlashes) throws Rejected {
        return normalize(request, allowEncodedSlashes, request.path());
    }

    /**
     * The same for a part of the request's path (what a router's rest wildcard matched, with a
     * leading {@code /}): the raw target's encoded slashes and backslashes are refused as above,
     * then {@code path} is normalized.
     *
     * @param request the request, whose raw target is checked
     * @param allowEncodedSlashes {@code AllowEncodedSlashes On}
     * @param path the decoded path to normalize, starting with {@code /}
     * @return the normalized path
     * @throws Rejected when the path is refused
     */
    public static String normalize(Request request, boolean allowEncodedSlashes, String path) throws Rejected {
        String raw = request.rawTarget();
        int q = raw.indexOf('?');
        int end = q < 0 ? raw.length() : q;
        for (int i = raw.indexOf('%'); i >= 0 && i + 2 < end; i = raw.indexOf('%', i + 1)) {
            char h = raw.charAt(i + 1);
            char l = Character.toLowerCase(raw.charAt(i + 2));
            if ((h == '2' && l == 'f' && !allowEncodedSlashes) || (h == '5' && l == 'c')) {
                throw new Rejected(404, "encoded slash or backslash");
            }
        }
        return normalize(path);
    }

    /** The same rules on an already decoded path. */
    public static String normalize(String path) throws Rejected {
        if (path.isEmpty() || path.charAt(0) != '/') {
            throw new Rejected(400, "path does not start with /");
        }
        boolean clean = true;
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c == '\\' || c < 0x20 || c == 0x7f) {
                throw new Rejected(400, "backslash or control character in path");
            }
            if (c == '/' && i + 1 < path.length()) {
                char n = path.charAt(i + 1);
                clean &= n != '/' && n != '.';
            }
        }
        if (clean) {
            return path; // the common case: nothing to rewrite, no allocation
        }
        Deque<String> segments = new ArrayDeque<>();
        String[] parts = path.split("/", -1);
        for (int i = 1; i < parts.length; i++) {
            String s = parts[i];
            if (s.isEmpty() || s.equals(".")) {
                continue;
            }
            if (s.equals("..")) {
                if (segments.isEmpty()) {
                    throw new Rejected(400, "path climbs above the root");
                }
                segments.removeLast();
                continue;
            }
            segments.addLast(s);
        }
        String last = parts[parts.length - 1];
        boolean dir = last.isEmpty() || last.equals(".") || last.equals("..");
        StringBuilder sb = new StringBuilder(path.length());
        for (String s : segments) {
            sb.append('/').append(s);
        }
        if (dir || sb.isEmpty()) {
            sb.append('/');
        }
        return sb.toString();
    }
}
