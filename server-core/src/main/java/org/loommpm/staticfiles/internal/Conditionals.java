package org.loommpm.staticfiles.internal;

import org.loommpm.api.Request;
import org.loommpm.http.HttpDate;

/**
 * Evaluates the conditional request headers against a file's validators in the order of
 * RFC 9110 §13.2.2: {@code If-Match}, else {@code If-Unmodified-Since} (412 when false), then
 * {@code If-None-Match}, else {@code If-Modified-Since} (304 for GET and HEAD when false, 412
 * for other methods), and {@link #rangeApplies} for {@code If-Range}.
 */
final class Conditionals {
    /** Proceed with the request. */
    static final int PROCEED = 0;

    private Conditionals() {
    }

    /**
     * @param etag the current strong entity tag, quoted
     * @param lastModifiedMillis the modification time, whole seconds
     * @return {@link #PROCEED}, 304 or 412
     */
    static int evaluate(Request req, String etag, long lastModifiedMillis) {
        String ifMatch = req.header("If-Match");
        if (ifMatch != null) {
            if (!matches(ifMatch, etag, false)) {
                return 412;
            }
        } else {
            long since = HttpDate.parse(req.header("If-Unmodified-Since"));
            if (since >= 0 && lastModifiedMillis > since) {
                return 412;
            }
        }
        String ifNoneMatch = req.header("If-None-Match");
        boolean safe = req.method().equals("GET") || req.method().equals("HEAD");
        if (ifNoneMatch != null) {
            if (matches(ifNoneMatch, etag, true)) {
                return safe ? 304 : 412;
            }
        } else if (safe) {
            long since = HttpDate.parse(req.header("If-Modified-Since"));
            if (since >= 0 && lastModifiedMillis <= since) {
                return 304;
            }
        }
        return PROCEED;
    }

    /**
     * {@code If-Range}: a Range is honoured only when the validator still matches (a strong
     * entity tag, or exactly the Last-Modified date); else the whole file is sent.
     */
    static boolean rangeApplies(Request req, String etag, long lastModifiedMillis) {
        String ifRange = req.header("If-Range");
        if (ifRange == null) {
            return true;
        }
        String v = ifRange.trim();
        if (v.startsWith("\"")) {
            return v.equals(etag);
        }
        if (v.startsWith("W/")) {
            return false;
        }
        long date = HttpDate.parse(v);
        return date >= 0 && date == lastModifiedMillis;
    }

    /**
     * Whether a list of entity tags ({@code *}, or {@code "a", W/"b"}) matches {@code etag}.
     *
     * @param weak weak comparison (If-None-Match): {@code W/} prefixes are ignored; strong
     *     comparison (If-Match) never matches a weak tag
     */
    static boolean matches(String list, String etag, boolean weak) {
        String l = list.trim();
        if (l.equals("*")) {
            return true;
        }
        int i = 0;
        int n = l.length();
        while (i < n) {
            while (i < n && (l.charAt(i) == ' ' || l.charAt(i) == ',' || l.charAt(i) == '\t')) {
                i++;
            }
            boolean isWeak = l.startsWith("W/", i);
            if (isWeak) {
                i += 2;
            }
            if (i >= n || l.charAt(i) != '"') {
                return false; // malformed: treat as no match
            }
            int close = l.indexOf('"', i + 1);
            if (close < 0) {
                return false;
            }
            if ((weak || !isWeak) && l.regionMatches(i, etag, 0, etag.length()) && close + 1 - i == etag.length()) {
                return true;
            }
            i = close + 1;
        }
        return false;
    }
}
