package org.loommpm.cli;

import java.lang.System.Logger.Level;
import java.nio.file.Path;
import org.loommpm.spi.EventLoop;
import org.loommpm.api.Handler;
import org.loommpm.api.InvocationType;
import org.loommpm.api.Request;
import org.loommpm.api.Response;
import org.loommpm.cli.access.AccessCheck;
import org.loommpm.cli.access.AccessRule;
import org.loommpm.cli.access.AuthConfig;
import org.loommpm.cli.access.Authz;
import org.loommpm.cli.errordoc.ErrorDocuments;
import org.loommpm.cli.errordoc.SiteErrors;
import org.loommpm.cli.alias.Alias;
import org.loommpm.cli.alias.Refused;
import org.loommpm.cli.alias.UrlMapping;
import org.loommpm.cli.config.LocationSettings;
import org.loommpm.cli.config.ProxySettings;
import org.loommpm.cli.config.SiteSettings;
import org.loommpm.staticfiles.internal.ErrorAnswer;
import org.loommpm.staticfiles.internal.StaticFileHandler;
import org.loommpm.staticfiles.internal.UrlPath;

/**
 * What every request goes to (inside the access-log filter): the path is normalized once by
 * {@link UrlPath}, then the matching {@code <Location>} sections decide, in file order with later
 * ones winning as in httpd, who may proceed ({@code Require}, and {@code AuthType Basic}'s logins:
 * {@link AccessCheck}) and which handler answers
 * ({@code SetHandler}); then a {@code ProxyPass} whose path covers the request's (by whole
 * segments, as a {@code <Location>}) sends it to its backend ({@code ProxyPass} inside a
 * {@code <Location>} first, the last matching section winning; then the server-level ones in
 * file order, the first match winning, as httpd; {@code !} stops the search); everything else is
 * a static file. An explicit {@code SetHandler} other than {@code none} wins over a
 * {@code ProxyPass}. {@code SetHandler NAME} of a {@code LoadApplication} hands the
 * request to that application's router, after {@code Require}: a refused WebSocket upgrade gets
 * 403 and is never upgraded.
 *
 * <p>mod_alias ({@link UrlMapping}, null when the configuration has none of its lines: then
 * nothing of it runs), after {@code Require}, which always applies to the request's own path:
 * a {@code Redirect} of a matching {@code <Location>} answers first, whoever else would; then,
 * unless a {@code ProxyPass} takes the path (httpd's mod_proxy translates names before
 * mod_alias), the server level's redirects, and then the aliases, whose file the static file
 * server sends unless a {@code SetHandler} names a handler (which wins over an alias, as in
 * httpd, where an alias only sets the file name).
 *
 * <p>A request that a {@code ProxyPass} takes, and that its proxy serves on the poller
 * ({@code ProxyHandler#nonBlockingHandler}), is served there too: {@link #nonBlockingHandler}
 * makes the same choice from the method and the decoded path, and {@link #handle} then calls
 * the proxy's poller entry. So are {@code SetHandler server-status} and {@code health} when
 * their handlers are non-blocking (they are: they read counters), so that they answer while
 * every worker slot is busy. Everything else (files, metrics, applications) runs on a worker.
 */
final class SiteHandler implements Handler {
    private static final System.Logger LOG = System.getLogger("org.loommpm.cli");

    private final LocationSettings[] locations;
    /** {@code AllowEncodedSlashes On}. */
    private final boolean allowEncodedSlashes;
    private final StaticFileHandler files;
    private final Handler status;
    private final Handler metrics;
    private final Handler health;
    private final ProxySettings.Route[] routes;
    /** The applications' routers by {@code LoadApplication} name. */
    private final java.util.Map<String, Handler> applications;
    /** Whether some {@code ProxyPass} may serve requests on the poller. */
    private final boolean anyOnPoller;
    /** Whether the status page or the health probes may be served on the poller. */
    private final boolean pagesOnPoller;
    /** mod_alias's rules, or null when there are none. */
    private final UrlMapping mapping;
    /** {@code Require} and the logins it asks for (one per site: failed logins are counted here). */
    private final AccessCheck access;
    /** {@code ErrorDocument}: what answers the site's own errors, or null for their default texts. */
    private final ErrorAnswer errors;
    /** The aliases in file order, and the tree each one serves. */
    private final Alias[] aliases;
    private final StaticFileHandler.Tree[] trees;

    SiteHandler(SiteSettings site, StaticFileHandler files, Handler status, Handler metrics, Handler health,
                java.util.List<ProxySettings.Route> routes, java.util.Map<String, Handler> applications,
                UrlMapping mapping, ErrorDocuments errorDocuments) {
        this.applications = java.util.Map.copyOf(applications);
        this.locations = site.locations().toArray(new LocationSettings[0]);
        this.allowEncodedSlashes = site.allowEncodedSlashes();
        this.routes = routes.toArray(new ProxySettings.Route[0]);
        this.files = files;
        this.status = status;
        this.metrics = metrics;
        this.health = health;
        boolean any = false;
        for (ProxySettings.Route r : this.routes) {
            any |= r.handler() != null && r.handler().invocationType() != InvocationType.BLOCKING;
        }
        this.anyOnPoller = any;
        this.pagesOnPoller = nonBlocking(status) || nonBlocking(health);
        this.mapping = mapping;
        this.errors = errorDocuments == null ? null
                : new SiteErrors(errorDocuments, allowEncodedSlashes, files, this::readableByAnyone);
        files.errorAnswer(errors);
        this.access = new AccessCheck(errors);
        this.aliases = mapping == null ? new Alias[0] : mapping.aliases().toArray(new Alias[0]);
        this.trees = new StaticFileHandler.Tree[aliases.length];
        for (int i = 0; i < aliases.length; i++) {
            trees[i] = files.tree(aliases[i].root());
        }
    }

    private static boolean nonBlocking(Handler h) {
        return h != null && h.invocationType() == InvocationType.NON_BLOCKING;
    }

    @Override
    public InvocationType invocationType() {
        return anyOnPoller || pagesOnPoller ? InvocationType.BY_REQUEST : InvocationType.BLOCKING;
    }

    @Override
    public InvocationType invocationType(String method, String path) {
        return nonBlockingHandler(method, path) != null ? InvocationType.NON_BLOCKING : InvocationType.BLOCKING;
    }

    /**
     * This handler when {@link #handle} will serve the request on the poller: no
     * {@code <Location>} redirect for the path, and either a {@code SetHandler} naming the status
     * page or the health probes (when they are non-blocking), or no {@code SetHandler} and a
     * {@code ProxyPass} whose proxy says so for this method and path. {@code Require} and the
     * refusals of {@link UrlPath} are decided in {@link #handle}, without blocking.
     */
    @Override
    public Handler nonBlockingHandler(String method, String path) {
        if (!anyOnPoller && !pagesOnPoller) {
            return null;
        }
        String normalized;
        try {
            normalized = UrlPath.normalize(path);
        } catch (UrlPath.Rejected e) {
            return null;
        }
        if (mapping != null && mapping.sectionRedirects(normalized)) {
            return null;
        }
        String handler = setHandler(normalized);
        if (handler != null) {
            Handler page = "server-status".equals(handler) ? status : "health".equals(handler) ? health : null;
            return nonBlocking(page) ? this : null;
        }
        if (!anyOnPoller) {
            return null;
        }
        ProxySettings.Route r = route(normalized);
        return r != null && r.handler() != null && r.handler().nonBlockingHandler(method, path) != null ? this : null;
    }

    @Override
    public void handle(Request req, Response res) throws Exception {
        String path;
        try {
            path = UrlPath.normalize(req, allowEncodedSlashes);
        } catch (UrlPath.Rejected e) {
            LOG.log(Level.DEBUG, "LM1101 {0} refused with {1}: {2}", req.rawTarget(), e.status(), e.getMessage());
            error(req, res, e.status(), e.status() == 404 ? "Not Found" : "Bad Request");
            return;
        }
        String handler = null;
        AccessRule rule = AccessRule.OPEN;
        AuthConfig auth = AuthConfig.NONE;
        for (LocationSettings l : locations) {
            if (l.matches(path)) {
                handler = l.handler() != null ? l.handler() : handler;
                rule = l.require() != null ? l.require() : rule;
                auth = auth.then(l.auth());
            }
        }
        // SetHandler none: back to a ProxyPass or the files, as in httpd.
        handler = "none".equals(handler) ? null : handler;
        if ((rule != AccessRule.OPEN || auth != AuthConfig.NONE) && !access.admit(rule, auth, req, res, path)) {
            return;
        }
        // Found once: mod_alias, the poller entry and the proxy below all ask for it.
        ProxySettings.Route route = routes.length > 0 && (handler == null || mapping != null) ? route(path) : null;
        Handler proxy = route != null ? route.handler() : null;
        if (mapping != null && mapped(req, res, path, handler, proxy != null)) {
            return;
        }
        if (anyOnPoller && handler == null && EventLoop.current() != null) {
            // On the poller (nonBlockingHandler chose so): only the proxy's poller entry may run here.
            Handler nb = proxy == null ? null : proxy.nonBlockingHandler(req.method(), req.path());
            if (nb != null) {
                nb.handle(req, res);
                return;
            }
        }
        if ("server-status".equals(handler)) {
            status.handle(req, res);
        } else if ("metrics".equals(handler)) {
            metrics.handle(req, res);
        } else if ("health".equals(handler)) {
            health.handle(req, res);
        } else if (handler == null && proxy != null) {
            proxy.handle(req, res);
        } else if (handler != null && applications.get(handler) instanceof Handler app) {
            app.handle(req, res);
        } else {
            files.serve(req, res, path);
        }
    }

    /**
     * mod_alias: answers the request if a redirect takes it, or serves an alias's file when no
     * {@code SetHandler} names a handler; returns whether it answered. {@code proxied}: a
     * {@code ProxyPass} takes the path, so only a {@code <Location>}'s redirect applies.
     */
    private boolean mapped(Request req, Response res, String path, String handler, boolean proxied)
            throws Exception {
        if (mapping.redirect(req, res, path, !proxied)) {
            return true;
        }
        if (proxied || handler != null) {
            return false;
        }
        for (int i = 0; i < aliases.length; i++) {
            Path file;
            try {
                file = aliases[i].file(path);
            } catch (Refused e) {
                LOG.log(Level.DEBUG, "LM1106 {0}: answered {1}", e.getMessage(), e.status());
                error(req, res, e.status(), "Forbidden");
                return true;
            }
            if (file != null) {
                files.serve(req, res, path, trees[i], file);
                return true;
            }
        }
        return false;
    }

    /**
     * {@return the {@code SetHandler} of the last matching {@code <Location>} that sets one, or
     * null} Null for {@code none} too: as in httpd, it undoes an outer section's handler and
     * leaves the request to a {@code ProxyPass} or the files.
     */
    private String setHandler(String path) {
        String handler = null;
        for (LocationSettings l : locations) {
            if (l.matches(path) && l.handler() != null) {
                handler = l.handler();
            }
        }
        return "none".equals(handler) ? null : handler;
    }

    /**
     * The {@code ProxyPass} that takes {@code path}: inside a {@code <Location>} first, the last
     * matching section winning; then the server-level ones in file order, the first match
     * winning; null for none (its handler is null for a {@code !} exclusion).
     */
    private ProxySettings.Route route(String path) {
        ProxySettings.Route chosen = null;
        for (ProxySettings.Route r : routes) {
            if (r.inLocation() && r.matches(path)) {
                chosen = r;
            }
        }
        if (chosen != null) {
            return chosen;
        }
        for (ProxySettings.Route r : routes) {
            if (!r.inLocation() && r.matches(path)) {
                return r;
            }
        }
        return null;
    }

    /** An error of the site: its {@code ErrorDocument} if one answers, else a short text. */
    private void error(Request req, Response res, int status, String text) throws Exception {
        if (errors == null || !errors.answer(req, res, status)) {
            plain(res, status, text);
        }
    }

    /**
     * Whether a local {@code ErrorDocument} may be sent: {@code Require} lets anyone read its path
     * (no login), as httpd's internal redirect would check it.
     */
    private boolean readableByAnyone(String path, Request req) {
        AccessRule rule = AccessRule.OPEN;
        for (LocationSettings l : locations) {
            if (l.matches(path) && l.require() != null) {
                rule = l.require();
            }
        }
        if (rule == AccessRule.OPEN) {
            return true;
        }
        java.net.InetAddress local = rule.usesLocalAddress() ? req.localAddress().getAddress() : null;
        boolean certified = rule.usesClientCertificate() && AccessCheck.certified(req);
        return rule.decide(req.remoteAddress().getAddress(), local, req.method(), null, certified) == Authz.Result.GRANTED;
    }

    private static void plain(Response res, int status, String text) throws java.io.IOException {
        res.status(status).header("Content-Type", "text/plain; charset=UTF-8");
        res.send((text + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
}
