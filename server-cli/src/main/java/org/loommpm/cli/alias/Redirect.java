package org.loommpm.cli.alias;

import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.loommpm.api.Request;
import org.loommpm.api.Response;
import org.loommpm.cli.location.LocationPath;
import org.loommpm.staticfiles.internal.DirectoryListing;
import org.loommpm.http.RequestPath;
import org.loommpm.http.syntax.StatusReasons;

/**
 * One {@code Redirect}, {@code RedirectMatch}, {@code RedirectPermanent} or {@code RedirectTemp}
 * line: which paths it takes, its status and, for a 3xx status, the URL it sends them to.
 *
 * <ul>
 *   <li>{@code Redirect URL-path URL} takes the path and everything below it by whole segments
 *       (as {@code <Location>}), and the rest of the path after the URL-path is appended to the
 *       URL's path (before a {@code ?query} or {@code #fragment} the URL has; httpd appends it
 *       to the end): as the client sent it, percent-encoding included, when the normalized path
 *       is the one received; re-encoded from the normalized path otherwise (then it carries no
 *       {@code ..} nor doubled slash);
 *   <li>{@code RedirectMatch regex URL} searches the path, and {@code $0}..{@code $9} in the
 *       URL become the groups, percent-encoded. The scheme and host must be written out in the
 *       URL: one whose host is not followed by {@code /}, {@code ?} or {@code #} before the first
 *       group is checked per request, and a substitution that would run into the host (or a
 *       URL that starts with a group and would not be a path) is refused with 500;
 *   <li>inside {@code <Location>}, {@code Redirect [status] URL} sends every path of the section
 *       to the URL itself, nothing appended (httpd 2.4's one-argument form).
 * </ul>
 *
 * A URL that is a path ({@code /new}) is made absolute with the request's scheme and
 * {@code Host} (else {@code ServerName}, else the local address), as httpd's
 * {@code UseCanonicalName Off}. The request's query is added when the URL has none, before its
 * {@code #fragment} if it has one (httpd appends it after, where it is part of the fragment). Statuses
 * outside 3xx (410 {@code gone}, or any 4xx and 5xx) answer with no URL. Immutable: any thread.
 */
public final class Redirect {
    private final int status;
    /** The URL-path of {@code Redirect} (matched by whole segments), or the section's path; null for a regex. */
    private final String prefix;
    /** Whether this is a {@code <Location>}'s one-argument form: the whole section, nothing appended. */
    private final boolean section;
    private final Pattern regex;
    /** The URL (a template for a regex), or null when the status takes none. */
    private final String url;
    /**
     * For a regex: where in the substituted URL its host must have ended ({@code /}, {@code ?},
     * {@code #} or the end there), or -1 when the URL's literal text already ends it; for a URL
     * starting with a group, 0: the substitution must be a path.
     */
    private final int hostEnd;
    /** {@code Redirect URL-path}: where in the URL the rest of the path goes (its query or fragment, or its end). */
    private final int restAt;
    private final String where;

    private Redirect(int status, String prefix, boolean section, Pattern regex, String url, int hostEnd,
                     String where) {
        this.status = status;
        this.prefix = prefix;
        this.section = section;
        this.regex = regex;
        this.url = url;
        this.hostEnd = hostEnd;
        this.restAt = url == null ? 0 : firstOf(url, 0, "?#");
        this.where = where;
    }

    /**
     * {@code Redirect [status] URL-path [URL]}. A URL-path ending in {@code /} and an absolute URL
     * with an empty path ({@code https://example.com}) get that slash into the URL: httpd would
     * join the rest of {@code /old/x} to the host ({@code https://example.comx}).
     *
     * @param urlPath a normalized path starting with {@code /}
     * @param url an absolute URL or a path ({@link #checkUrl}), null for a status that takes none
     * @param where the line, for the error log
     */
    public static Redirect prefix(int status, String urlPath, String url, String where) {
        if (url != null && urlPath.endsWith("/") && !url.startsWith("/")) {
            int host = authorityEnd(url, url.indexOf("://") + 3);
            if (host == url.length() || url.charAt(host) != '/') {
                url = url.substring(0, host) + "/" + url.substring(host);
            }
        }
        return new Redirect(status, urlPath, false, null, url, -1, where);
    }

    /** {@code Redirect [status] [URL]} inside {@code <Location sectionPath>}. */
    public static Redirect section(int status, String sectionPath, String url, String where) {
        return new Redirect(status, sectionPath, true, null, url, -1, where);
    }

    /**
     * {@code RedirectMatch [status] regex [URL]}.
     *
     * @throws IllegalArgumentException for an invalid regex, or a URL that is neither absolute
     *     nor a path, or whose host would come from a group
     */
    public static Redirect match(int status, String regex, String url, String where) {
        Pattern p = Regex.compile(regex);
        int hostEnd = -1;
        if (url != null) {
            Regex.checkReferences(url, p);
            int ref = Regex.firstReference(url);
            // The written text before the first group, as it reads after substitution.
            String literal = ref < 0 ? url : Regex.substitute(url.substring(0, ref), null, false);
            if (ref == 0) {
                hostEnd = 0;
            } else if (ref > 0 && !literal.startsWith("/")) {
                int host = literal.indexOf("://");
                if (host < 0) {
                    throw new IllegalArgumentException("'" + url + "': the scheme and host must be written out "
                            + "before the first back-reference");
                }
                int end = authorityEnd(literal, host + 3);
                if (end == host + 3) {
                    throw new IllegalArgumentException("'" + url + "': the host must be written out, not taken "
                            + "from a back-reference (that would let a request path choose where it is sent)");
                }
                hostEnd = end < literal.length() ? -1 : literal.length();
            }
            // With every group empty the URL must be valid, which checks the written part's characters.
            checkUrl(Regex.substitute(url, null, false), ref == 0);
        }
        return new Redirect(status, null, false, p, url, hostEnd, where);
    }

    /**
     * The status an optional first argument names: {@code permanent} 301, {@code temp} 302,
     * {@code seeother} 303, {@code gone} 410 (any case), or a number.
     *
     * @return the status, or -1 when the argument is no status word and does not start with a
     *     digit (then it is the URL-path, as httpd decides)
     * @throws IllegalArgumentException for a number that is neither 3xx (but 304) nor 4xx, 5xx
     */
    public static int status(String arg) {
        switch (arg.toLowerCase(Locale.ROOT)) {
            case "permanent" -> {
                return 301;
            }
            case "temp" -> {
                return 302;
            }
            case "seeother" -> {
                return 303;
            }
            case "gone" -> {
                return 410;
            }
            default -> {
            }
        }
        if (arg.isEmpty() || arg.charAt(0) < '0' || arg.charAt(0) > '9') {
            return -1;
        }
        int s = arg.length() == 3 && arg.chars().allMatch(c -> c >= '0' && c <= '9') ? Integer.parseInt(arg) : 0;
        if (s < 300 || s > 599 || s == 304) {
            throw new IllegalArgumentException("'" + arg + "' is not a status: permanent, temp, seeother, gone, "
                    + "a redirect 300-399 (but 304) or an error 400-599");
        }
        return s;
    }

    /** {@return whether {@code status} redirects, and so takes a URL (3xx)} */
    public static boolean redirects(int status) {
        return status >= 300 && status < 400;
    }

    /**
     * Checks a URL to redirect to: an absolute URL ({@code scheme://host...}) or a path starting
     * with {@code /}, in the characters a URL may hold ({@code %} followed by two hex digits).
     *
     * @param anyStart whether it may start otherwise (a {@code RedirectMatch} URL that starts
     *     with a group: checked per request)
     * @throws IllegalArgumentException with the reason
     */
    public static void checkUrl(String url, boolean anyStart) {
        for (int i = 0; i < url.length(); i++) {
            char c = url.charAt(i);
            boolean ok = c > ' ' && c < 0x7f && "\"<>\\^`{|}".indexOf(c) < 0;
            if (c == '%' && !(i + 2 < url.length() && hex(url.charAt(i + 1)) && hex(url.charAt(i + 2)))) {
                ok = false;
            }
            if (!ok) {
                throw new IllegalArgumentException("'" + url + "' is not a URL: character " + (i + 1)
                        + " must be written percent-encoded");
            }
        }
        if (url.startsWith("/") || anyStart) {
            return;
        }
        int colon = url.indexOf("://");
        boolean scheme = colon > 0 && Character.isLetter(url.charAt(0));
        for (int i = 1; scheme && i < colon; i++) {
            char c = url.charAt(i);
            scheme = Character.isLetterOrDigit(c) || c == '+' || c == '-' || c == '.';
        }
        if (!scheme || authorityEnd(url, colon + 3) == colon + 3) {
            throw new IllegalArgumentException("'" + url + "' is neither an absolute URL (scheme://host/path) nor "
                    + "a path starting with /");
        }
    }

    /**
     * {@return whether a {@code Redirect URL-path URL}'s two paths disagree on a trailing slash}
     * The rest of a path then joins the URL's last segment ({@code /old/} to {@code /new}:
     * {@code /old/x} goes to {@code /newx}) or follows a doubled slash, as in httpd.
     */
    public boolean slashesDisagree() {
        if (url == null || section || prefix == null) {
            return false;
        }
        String head = url.substring(0, restAt);
        boolean emptyPath = !url.startsWith("/") && authorityEnd(url, url.indexOf("://") + 3) == restAt;
        return !emptyPath && prefix.endsWith("/") != head.endsWith("/");
    }

    /** Where the authority starting at {@code from} ends: the first {@code /}, {@code ?} or {@code #}, or the end. */
    private static int authorityEnd(String url, int from) {
        return firstOf(url, from, "/?#");
    }

    /** The first of {@code stops} at or after {@code from}, or the end. */
    private static int firstOf(String url, int from, String stops) {
        int i = from;
        while (i < url.length() && stops.indexOf(url.charAt(i)) < 0) {
            i++;
        }
        return i;
    }

    private static boolean hex(char c) {
        return Character.digit(c, 16) >= 0;
    }

    /** {@return the status it answers with} */
    public int status() {
        return status;
    }

    /** {@return the URL (or template), null when the status takes none} */
    public String url() {
        return url;
    }

    /** {@return the URL-path or section path, null for {@code RedirectMatch}} */
    public String urlPath() {
        return prefix;
    }

    /** {@return the expression of {@code RedirectMatch}, else null} */
    public Pattern regex() {
        return regex;
    }

    /** {@return the line it was read from} */
    public String where() {
        return where;
    }

    /** Whether it is a {@code <Location>}'s and {@code path} is in that section. */
    boolean inSection(String path) {
        return section && LocationPath.matches(prefix, path);
    }

    /** Whether it takes every path at or below {@code urlPath}, so that a later rule for it never applies. */
    boolean covers(String urlPath) {
        return prefix != null && !section && LocationPath.matches(prefix, urlPath);
    }

    /**
     * The {@code Location} for a request this rule takes.
     *
     * @param path the request's normalized path
     * @param serverName {@code ServerName}, for a request without {@code Host}; may be null
     * @return null when the rule does not take the path; the empty string when it takes it with a
     *     status that sends no URL; else the absolute URL
     * @throws Refused (500) when a {@code RedirectMatch} substitution would not keep the written
     *     scheme and host
     */
    String location(Request req, String path, String serverName) throws Refused {
        String target;
        if (section) {
            target = url; // the caller matched the section
        } else if (prefix != null) {
            if (!LocationPath.matches(prefix, path)) {
                return null;
            }
            target = url == null ? null
                    : url.substring(0, restAt) + rest(req, path, prefix) + url.substring(restAt);
        } else {
            Matcher m = Regex.find(regex, path, where);
            if (m == null) {
                return null;
            }
            target = url == null ? null : Regex.substitute(url, m, true);
            if (target != null && hostEnd >= 0 && (hostEnd == 0 ? !target.startsWith("/")
                    : target.length() > hostEnd && "/?#".indexOf(target.charAt(hostEnd)) < 0)) {
                throw new Refused(500, "RedirectMatch of " + where + " would send " + path + " to " + target
                        + ", whose scheme or host the path chose");
            }
        }
        if (target == null) {
            return "";
        }
        if (target.startsWith("/")) {
            target = origin(req, serverName) + target;
        }
        String q = req.query();
        if (q == null) {
            return target;
        }
        // Before the URL's #fragment: after it the query would be part of the fragment. The first
        // # is the URL's own (a request target has none, a group's is encoded).
        int hash = target.indexOf('#');
        int end = hash < 0 ? target.length() : hash;
        if (target.lastIndexOf('?', end - 1) >= 0) {
            return target;
        }
        return target.substring(0, end) + "?" + q + target.substring(end);
    }

    /**
     * The part of the path after the URL-path: from the request's encoded path when the
     * normalized path is the request's (the same segments, with the client's path parameters),
     * else encoded from the normalized path.
     */
    private static String rest(Request req, String path, String urlPath) {
        int from = urlPath.length();
        if (from == path.length()) {
            return "";
        }
        if (!path.equals(req.path())) {
            return DirectoryListing.encode(path.substring(from));
        }
        return RequestPath.encodedFrom(path, req.encodedPath(), from);
    }

    /** The scheme and authority of this server as the client named it (httpd's {@code UseCanonicalName Off}). */
    private static String origin(Request req, String serverName) {
        String host = req.header("Host");
        if (host == null || host.isEmpty()) {
            if (serverName != null && serverName.contains("://")) {
                return serverName.endsWith("/") ? serverName.substring(0, serverName.length() - 1) : serverName;
            }
            if (serverName != null) {
                host = serverName;
            } else {
                InetSocketAddress local = req.localAddress();
                String a = local.getAddress().getHostAddress();
                int scope = a.indexOf('%');
                a = scope < 0 ? a : a.substring(0, scope);
                host = (local.getAddress() instanceof Inet6Address ? "[" + a + "]" : a) + ":" + local.getPort();
            }
        }
        return (req.isSecure() ? "https://" : "http://") + host;
    }

    /**
     * Answers with this rule's status: for a redirect, {@code location} in the field and a short
     * HTML page linking to it, as httpd's; else the status's page.
     */
    void answer(Response res, String location) throws IOException {
        String reason = StatusReasons.reason(status);
        StringBuilder html = new StringBuilder(256).append("<!DOCTYPE html>\n<html><head><title>").append(status)
                .append(' ').append(reason).append("</title></head>\n<body>\n<h1>").append(reason).append("</h1>\n");
        if (redirects(status)) {
            res.header("Location", location);
            html.append("<p>The document has moved <a href=\"").append(DirectoryListing.escape(location))
                    .append("\">here</a>.</p>\n");
        } else if (status == 410) {
            html.append("<p>The requested resource is no longer available on this server and there is no "
                    + "forwarding address.</p>\n");
        }
        html.append("</body></html>\n");
        res.status(status).header("Content-Type", "text/html; charset=UTF-8");
        res.send(html.toString().getBytes(StandardCharsets.UTF_8));
    }
}
