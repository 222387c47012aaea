package org.loommpm.cli.config;

import static org.loommpm.cli.config.DirectiveTable.SERVER;
import static org.loommpm.cli.config.DirectiveTable.SERVER_OR_LOCATION;

import java.util.List;
import java.util.Set;
import org.loommpm.cli.alias.Alias;
import org.loommpm.cli.alias.Redirect;
import org.loommpm.cli.alias.UrlMapping;
import org.loommpm.staticfiles.internal.UrlPath;

/**
 * mod_alias's directives: {@code Redirect}, {@code RedirectMatch}, {@code RedirectPermanent},
 * {@code RedirectTemp}, {@code Alias} and {@code AliasMatch}, kept as a {@link UrlMapping} under
 * {@link UrlMapping#KEY} (absent when no such line is read). Everything is checked while
 * parsing: the status, the number of arguments for it, the URL-path (normalized, as
 * {@code <Location>}'s), the URL (absolute or a path), the regular expression and its
 * back-references, and that an alias's target exists (httpd only finds out per request).
 */
final class AliasDirectives {
    private AliasDirectives() {
    }

    /** The directives; one enum rather than a lambda each (see {@link EngineDirectives.D}). */
    enum D implements DirectiveTable.Action {
        REDIRECT("Redirect", 1, 3, SERVER_OR_LOCATION,
                "[status] URL-path URL (no URL for a 4xx/5xx status); inside <Location>: [status] URL", 0),
        REDIRECT_MATCH("RedirectMatch", 2, 3, SERVER, "[status] regex URL (no URL for a 4xx/5xx status)", 0),
        REDIRECT_PERMANENT("RedirectPermanent", 1, 2, SERVER_OR_LOCATION, "URL-path URL; inside <Location>: URL", 301),
        REDIRECT_TEMP("RedirectTemp", 1, 2, SERVER_OR_LOCATION, "URL-path URL; inside <Location>: URL", 302),
        ALIAS("Alias", 2, 2, SERVER, "URL-path file-path|directory-path", 0),
        ALIAS_MATCH("AliasMatch", 2, 2, SERVER, "regex file-path|directory-path", 0);

        @Override
        public void apply(ParseState s, ConfigLine l) throws ConfigException {
            UrlMapping m = s.extension(UrlMapping.KEY, () -> {
                UrlMapping created = new UrlMapping();
                s.atEnd(st -> created.serverName(st.serverName));
                return created;
            });
            try {
                switch (this) {
                    case ALIAS -> alias(s, m, l);
                    case ALIAS_MATCH -> aliasMatch(s, m, l);
                    default -> redirect(s, m, l, this);
                }
            } catch (IllegalArgumentException e) {
                throw l.error(l.name() + ": " + e.getMessage());
            }
        }

        final DirectiveSpec spec;
        /** The status of {@code RedirectPermanent} and {@code RedirectTemp}; 0 for an optional first argument. */
        final int status;

        D(String name, int min, int max, Set<DirectiveTable.Context> contexts, String syntax, int status) {
            spec = new DirectiveSpec(name, min, max, contexts, syntax);
            this.status = status;
        }
    }

    private static String where(ConfigLine l) {
        return "line " + l.line() + " of " + l.source();
    }

    private static void redirect(ParseState s, UrlMapping m, ConfigLine l, D d) throws ConfigException {
        List<String> a = l.args();
        int status = d.status;
        int from = 0;
        if (status == 0) {
            int named = Redirect.status(a.get(0));
            if (named > 0) {
                status = named;
                from = 1;
            } else if (a.size() == 3) {
                throw l.error(l.name() + ": '" + a.get(0) + "' is not a status (permanent, temp, seeother, gone "
                        + "or a number); with three arguments the first must be one");
            } else {
                status = 302;
            }
        }
        List<String> rest = a.subList(from, a.size());
        boolean takesUrl = Redirect.redirects(status);
        String section = s.locationPath();
        if (section != null) {
            if (!takesUrl && !rest.isEmpty()) {
                throw l.error(l.name() + ": status " + status + " takes no URL (only a 3xx status redirects)");
            }
            if (takesUrl && rest.isEmpty()) {
                throw l.error(l.name() + ": status " + status + " needs the URL to redirect to");
            }
            if (rest.size() > 1) {
                throw l.error(l.name() + " inside <Location> takes the section's path: " + l.name()
                        + (d.status == 0 ? " [status]" : "") + " URL");
            }
            String url = takesUrl ? rest.get(0) : null;
            if (url != null) {
                Redirect.checkUrl(url, false);
            }
            m.addSection(Redirect.section(status, section, url, where(l)));
            return;
        }
        if (rest.isEmpty() || takesUrl && rest.size() == 1 && from == 0 && d.status == 0) {
            boolean regex = d == D.REDIRECT_MATCH;
            throw l.error(l.name() + " takes " + (regex ? "a regex" : "a URL-path") + " and a URL outside <Location>: "
                    + l.name() + (regex ? " ^/old/(.*)$ https://example.com/new/$1" : " /old https://example.com/new"));
        }
        if (takesUrl && rest.size() == 1) {
            throw l.error(l.name() + ": status " + status + " needs the URL to redirect to: " + l.name() + " "
                    + (from == 1 ? a.get(0) + " " : "") + rest.get(0) + " URL");
        }
        if (!takesUrl && rest.size() == 2) {
            throw l.error(l.name() + ": status " + status + " takes no URL (only a 3xx status redirects)");
        }
        String url = takesUrl ? rest.get(1) : null;
        if (d == D.REDIRECT_MATCH) {
            m.add(Redirect.match(status, rest.get(0), url, where(l)));
            return;
        }
        String urlPath = urlPath(l, rest.get(0));
        if (url != null) {
            Redirect.checkUrl(url, false);
        }
        Redirect r = Redirect.prefix(status, urlPath, url, where(l));
        if (r.slashesDisagree()) {
            s.warn(l, l.name() + ": the URL-path '" + urlPath + "' and the URL '" + url + "' should both end in / or "
                    + "neither, or the rest of a path is joined to the URL's last segment or after a doubled slash");
        }
        Redirect earlier = m.add(r);
        if (earlier != null) {
            s.warn(l, l.name() + " " + urlPath + " will never match: the redirect of " + earlier.where() + " ("
                    + earlier.urlPath() + ") takes its paths first");
        }
    }

    /** A URL-path as {@code <Location>} takes one: starting with {@code /}, normalized. */
    private static String urlPath(ConfigLine l, String path) throws ConfigException {
        String normalized;
        try {
            normalized = UrlPath.normalize(path);
        } catch (UrlPath.Rejected e) {
            normalized = null;
        }
        if (!path.equals(normalized)) {
            throw l.error(l.name() + " needs a normalized URL-path starting with / (no //, . or .. segments), got '"
                    + path + "'");
        }
        return path;
    }

    private static void alias(ParseState s, UrlMapping m, ConfigLine l) throws ConfigException {
        String urlPath = urlPath(l, l.args().get(0));
        Alias earlier = m.add(Alias.prefix(urlPath, s.resolve(l.args().get(1)), where(l)));
        if (earlier != null) {
            s.warn(l, "Alias " + urlPath + " will never match: the Alias of " + earlier.where() + " ("
                    + earlier.urlPath() + ") takes its paths first");
        }
    }

    private static void aliasMatch(ParseState s, UrlMapping m, ConfigLine l) {
        String target = l.args().get(1);
        // Not s.resolve: normalizing would fold a "$1/.." away before the groups are known.
        m.add(Alias.match(l.args().get(0), target.startsWith("/") ? target : s.serverRoot + "/" + target, where(l)));
    }

    static void register(DirectiveTable t) {
        for (D d : D.values()) {
            t.register(d.spec, d);
        }
    }
}
