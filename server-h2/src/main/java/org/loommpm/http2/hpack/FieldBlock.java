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
    private int hosts;
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
     * its HTTP/1.1 fields without the connection-specific ones, those its {@code Connection}
     * names, and the upgrade's own.
     */
    public static FieldBlock fromHttp1(String method, String target, String host, Headers fields) {
        FieldBlock f = new FieldBlock(false, null);
        f.method = method;
        f.scheme = "http";
        f.path = originForm(target);
        f.authority = host;
        for (int i = 0; i < fields.size(); i++) {
            String n = fields.name(i).toLowerCase(java.util.Locale.ROOT);
            switch (n) {
                case "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade",
                     "http2-settings", "te" -> {
                }
                default -> {
                    // RFC 9110 §7.6.1: options of the HTTP/1.1 hop end with it; once Connection is
                    // gone, nothing downstream (a proxy) could tell them from end-to-end fields.
                    if (!fields.hasToken("connection", n)) {
                        f.headers.add(n, fields.value(i));
                    }
                }
            }
        }
        return f;
    }

    /**
     * RFC 9113 §8.3.1: {@code :path} is the target's path and query only; an absolute-form
     * target (RFC 9112 §3.2.2, its authority already in {@code host}) gives up the rest.
     */
    private static String originForm(String target) {
        int scheme = target.indexOf("://");
        if (target.startsWith("/") || scheme < 0) {
            return target;
        }
        int at = scheme + 3;
        while (at < target.length() && target.charAt(at) != '/' && target.charAt(at) != '?') {
            at++;
        }
        String rest = target.substring(at);
        return rest.startsWith("/") ? rest : "/" + rest;
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
            case "host" -> {
                // RFC 9110 §7.2: one authority (RFC 9112 §3.2 holds an HTTP/1.1 hop to the same).
                if (++hosts > 1 || !v.isEmpty() && !HttpChars.isAuthority(v, false)) {
                    malformed = "more than one or an invalid host";
                    return;
                }
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
        } else if (!HttpChars.isToken(method)) {
            // RFC 9110 §9.1; a space would also split the request line of an HTTP/1.1 hop.
            malformed = "invalid :method";
        } else if (authority != null
                && !HttpChars.isAuthority(authority, method.equals("CONNECT") && protocol == null)) {
            // RFC 9113 §8.3.1, §8.5: the target's authority (no userinfo), host:port for CONNECT.
            malformed = "invalid :authority";
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
        if (malformed == null && path != null && !validTarget(path)) {
            malformed = "invalid character in :path";
        }
    }

    /**
     * RFC 9113 §8.3.1: absolute-path and query only, as HTTP/1.1's request line takes them
     * (visible ASCII, no '#'); whitespace would split the request line of an HTTP/1.1 hop.
     */
    private static boolean validTarget(String path) {
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c < 0x21 || c > 0x7E || c == '#') {
                return false;
            }
        }
        return true;
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
