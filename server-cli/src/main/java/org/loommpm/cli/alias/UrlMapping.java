package org.loommpm.cli.alias;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.loommpm.api.Request;
import org.loommpm.api.Response;

/**
 * mod_alias's rules of a configuration, in file order: the server level's redirects, the
 * {@code <Location>} sections' one-argument redirects, and the aliases. Kept under {@link #KEY}
 * in the parse state, absent when the configuration has no such line (then the site does no
 * mod_alias work at all). Filled while the configuration is read; read-only afterwards: any
 * thread.
 *
 * <p>Per request, as httpd's translate-name phase: a redirect of a matching section first (the
 * last such section wins, as later sections override), then the server level's redirects in
 * file order, the first match winning; then the aliases in file order, the first match winning
 * ({@link #aliases}, which the site walks).
 */
public final class UrlMapping {
    /** The parse-state extension key. */
    public static final String KEY = "alias";
    private static final System.Logger LOG = System.getLogger("org.loommpm.cli");

    private final List<Redirect> redirects = new ArrayList<>();
    /** The {@code <Location>} sections' redirects, in file order. */
    private final List<Redirect> sections = new ArrayList<>();
    private final List<Alias> aliases = new ArrayList<>();
    private String serverName;

    /**
     * Adds a server-level {@code Redirect}/{@code RedirectMatch} line.
     *
     * @return an earlier redirect that takes every path this one would (so it never applies), or null
     */
    public Redirect add(Redirect r) {
        Redirect earlier = null;
        for (Redirect e : redirects) {
            if (earlier == null && r.urlPath() != null && e.covers(r.urlPath())) {
                earlier = e;
            }
        }
        redirects.add(r);
        return earlier;
    }

    /** Adds a {@code <Location>}'s one-argument {@code Redirect} ({@link Redirect#section}). */
    public void addSection(Redirect r) {
        sections.add(r);
    }

    /**
     * Adds an {@code Alias}/{@code AliasMatch} line.
     *
     * @return an earlier alias that takes every path this one would (so it never applies), or null
     */
    public Alias add(Alias a) {
        Alias earlier = null;
        for (Alias e : aliases) {
            if (earlier == null && a.urlPath() != null && e.covers(a.urlPath())) {
                earlier = e;
            }
        }
        aliases.add(a);
        return earlier;
    }

    /** Sets the {@code ServerName} a redirect to a path names when the request has no {@code Host}. */
    public void serverName(String name) {
        this.serverName = name;
    }

    /** {@return the aliases, in file order: the first that takes a path serves it} */
    public List<Alias> aliases() {
        return List.copyOf(aliases);
    }

    /** {@return the server level's redirects, in file order} */
    public List<Redirect> redirects() {
        return List.copyOf(redirects);
    }

    /** Appends a line per rule to the start-up banner, in the order they are tried. */
    public void describe(StringBuilder sb) {
        for (Redirect r : sections) {
            sb.append("  <Location ").append(r.urlPath()).append("> Redirect ").append(r.status());
            url(sb, r);
        }
        for (Redirect r : redirects) {
            url(sb.append(r.regex() != null ? "  RedirectMatch " : "  Redirect ").append(r.status()).append(' ')
                    .append(r.regex() != null ? r.regex().pattern() : r.urlPath()), r);
        }
        for (Alias a : aliases) {
            sb.append(a.regex() != null ? "  AliasMatch " + a.regex().pattern() : "  Alias " + a.urlPath())
                    .append(" -> ").append(a.root()).append('\n');
        }
    }

    private static void url(StringBuilder sb, Redirect r) {
        sb.append(r.url() != null ? " " + r.url() : "").append('\n');
    }

    /** {@return whether a {@code <Location>} section with a redirect matches {@code path}} */
    public boolean sectionRedirects(String path) {
        return section(path) != null;
    }

    private Redirect section(String path) {
        Redirect chosen = null;
        for (Redirect r : sections) {
            if (r.inSection(path)) {
                chosen = r;
            }
        }
        return chosen;
    }

    /**
     * Answers the request if a redirect takes it: a matching section's, else (when
     * {@code serverLevel}) the first server-level one that matches.
     *
     * @param path the request's normalized path
     * @param serverLevel whether the server level's redirects apply (not to a path a
     *     {@code ProxyPass} takes, as in httpd, whose mod_proxy translates names first)
     * @return whether it answered
     */
    public boolean redirect(Request req, Response res, String path, boolean serverLevel) throws IOException {
        Redirect rule = section(path);
        String location = null;
        try {
            if (rule != null) {
                location = rule.location(req, path, serverName);
            } else if (serverLevel) {
                for (Redirect r : redirects) {
                    location = r.location(req, path, serverName);
                    if (location != null) {
                        rule = r;
                        break;
                    }
                }
            }
        } catch (Refused e) {
            LOG.log(Level.WARNING, "LM1105 {0}: answered {1}", e.getMessage(), e.status());
            res.status(e.status()).header("Content-Type", "text/plain; charset=UTF-8");
            res.send("Internal Server Error\n".getBytes(StandardCharsets.UTF_8));
            return true;
        }
        if (rule == null) {
            return false;
        }
        LOG.log(Level.DEBUG, "LM1104 {0} answered {1} {2} (the redirect of {3})", path, rule.status(), location,
                rule.where());
        rule.answer(res, location);
        return true;
    }
}
