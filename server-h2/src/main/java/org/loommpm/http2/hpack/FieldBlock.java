package org.loommpm.http2.hpack;

import org.loommpm.api.Headers;
import org.loommpm.http.syntax.HttpChars;

/**
 * One decoded request header block (or trailer block), validated as it is decoded against
 * RFC 9113 §8.2 (field names and values) and §8.3.1 (request pseudo-header fields). The first
 * violation is kept in {@link #malformed()}; decoding continues so the HPACK table stays in step
 * with the client's. Built and read by the frame loop only.
 */
public final class FieldBlock {
    private final boolean trailers;
    /** Already validated names and values of this connection (null for an upgrade's block). */
    private final FieldStrings known;
    private final Headers headers = new Headers();
    private String method;
    private String scheme;
    private String authority;
    private String path;
    private String protocol;
    private boolean regularSeen;
    private long contentLength = -1;
    private String malformed;
    private StringBuilder cookie;
    private boolean truncated;

    /**
     * @param trailers whether this is a trailer section (no pseudo-header fields allowed)
     * @param known the connection's validated strings
     */
    FieldBlock(boolean trailers, FieldStrings known) {
        this.trailers = trailers;
        this.known = known;
    }

    /**
     * The request of an {@code Upgrade: h2c} exchange (RFC 7540 §3.2), which becomes stream 1:
     * its HTTP/1.1 fields without the connection-specific ones and the upgrade's own.
     */
    public static FieldBlock fromHttp1(String method, String target, String host, Headers fields) {
        FieldBlock f = new FieldBlock(false, null);
        f.method = method;
        f.scheme = "http";
        f.path = target;
        f.authority = host;
        for (int i = 0; i < fields.size(); i++) {
            String n = fields.name(i).toLowerCase(java.util.Locale.ROOT);
            switch (n) {
                case "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade",
                     "http2-settings", "te" -> {
                }
                default -> f.headers.add(n, fields.value(i));
            }
        }
        return f;
    }

    /** Validates and records one field. */
    void add(byte[] name, byte[] value) {
        if (malformed != null) {
            return;
        }
        if (name.length == 0) {
            malformed = "empty field name";
            return;
        }
        if (name[0] == ':') {
            pseudo(name, value);
            return;
        }
        regularSeen = true;
        String n = known.get(name);
        if (n == null) {
            for (byte b : name) {
                if (b >= 'A' && b <= 'Z') {
                    malformed = "upper-case field name";
                    return;
                }
                if (!HttpChars.isTchar(b)) {
                    malformed = "invalid character in field name";
                    return;
                }
            }
            n = known.put(name);
        }
        String v = value(value);
        if (v == null) {
            malformed = "invalid field value";
            return;
        }
        switch (n) {
            case "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade" -> {
                malformed = "connection-specific field " + n;
                return;
            }
            case "te" -> {
                if (!v.equals("trailers")) {
                    malformed = "te other than trailers";
                    return;
                }
            }
            case "content-length" -> {
                long cl = parseLength(v);
                if (cl < 0 || (contentLength >= 0 && cl != contentLength)) {
                    malformed = "invalid content-length";
                    return;
                }
                contentLength = cl;
            }
            case "cookie" -> {
                // RFC 9113 §8.2.3: crumbs are joined again for the application.
                if (cookie == null) {
                    cookie = new StringBuilder(v);
                } else {
                    cookie.append("; ").append(v);
                }
                return;
            }
            default -> {
            }
        }
        headers.add(n, v);
    }

    private void pseudo(byte[] name, byte[] value) {
        if (trailers) {
            malformed = "pseudo-header field in trailers";
            return;
        }
        if (regularSeen) {
            malformed = "pseudo-header field after regular fields";
            return;
        }
        String n = known.get(name);
        if (n == null) {
            n = known.put(name);
        }
        String v = value(value);
        if (v == null) {
            malformed = "invalid value of " + n;
            return;
        }
        switch (n) {
            case ":method" -> method = once(method, v, n);
            case ":scheme" -> scheme = once(scheme, v, n);
            case ":authority" -> authority = once(authority, v, n);
            case ":path" -> path = once(path, v, n);
            case ":protocol" -> protocol = once(protocol, v, n);
            default -> malformed = "unknown pseudo-header field " + n;
        }
    }

    private String once(String old, String v, String name) {
        if (old != null) {
            malformed = "duplicate " + name;
        }
        return v;
    }

    /** Called after the block was decoded: checks what only the whole block shows. */
    void finish(boolean truncated) {
        this.truncated = truncated;
        if (cookie != null) {
            headers.add("cookie", cookie.toString());
        }
        if (malformed != null || trailers) {
            return;
        }
        if (method == null) {
            malformed = "missing :method";
        } else if (protocol != null) {
            // RFC 8441 §4: extended CONNECT carries :scheme, :path and :authority like any request.
            if (!method.equals("CONNECT")) {
                malformed = ":protocol on a " + method + " request";
            } else if (scheme == null || authority == null || path == null || path.isEmpty()) {
                malformed = "extended CONNECT needs :scheme, :path and :authority";
            } else if (path.charAt(0) != '/') {
                malformed = ":path is not origin-form";
            }
        } else if (method.equals("CONNECT")) {
            if (scheme != null || path != null || authority == null) {
                malformed = "CONNECT needs :authority only";
            }
        } else if (scheme == null) {
            malformed = "missing :scheme";
        } else if (path == null || path.isEmpty()) {
            malformed = "missing or empty :path";
        } else if (path.charAt(0) != '/' && !(path.equals("*") && method.equals("OPTIONS"))) {
            malformed = ":path is not origin-form";
        }
    }

    /** The first violation found, or {@code null} when the block is well-formed. */
    public String malformed() {
        return malformed;
    }

    /** Whether the decoded fields exceeded the header-list limit (they were not all kept). */
    public boolean truncated() {
        return truncated;
    }

    public String method() {
        return method;
    }

    /** The {@code :protocol} of an extended CONNECT (RFC 8441), or {@code null}. */
    public String protocol() {
        return protocol;
    }

    public String authority() {
        return authority;
    }

    public String path() {
        return path;
    }

    /** The regular fields, lower-case names, in order (cookie crumbs joined). */
    public Headers headers() {
        return headers;
    }

    /** The content-length field's value, or -1 when absent. */
    public long contentLength() {
        return contentLength;
    }

    private static long parseLength(String v) {
        if (v.isEmpty() || v.length() > 18) {
            return -1;
        }
        long n = 0;
        for (int i = 0; i < v.length(); i++) {
            char ch = v.charAt(i);
            if (ch < '0' || ch > '9') {
                return -1;
            }
            n = n * 10 + (ch - '0');
        }
        return n;
    }

    /** The value as a string once valid (remembered for its array), or {@code null}. */
    private String value(byte[] value) {
        String v = known.get(value);
        if (v != null) {
            return v;
        }
        return validValue(value) ? known.put(value) : null;
    }

    /** RFC 9113 §8.2.1: no NUL, CR or LF; no leading or trailing space or tab. */
    private static boolean validValue(byte[] v) {
        for (byte b : v) {
            if (b == 0 || b == '\r' || b == '\n') {
                return false;
            }
        }
        int n = v.length;
        return n == 0 || (v[0] != ' ' && v[0] != '\t' && v[n - 1] != ' ' && v[n - 1] != '\t');
    }
}
