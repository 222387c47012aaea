package org.loommpm.cli;

import java.lang.System.Logger.Level;
import org.loommpm.api.Handler;
import org.loommpm.api.InvocationType;
import org.loommpm.api.Request;
import org.loommpm.api.Response;
import org.loommpm.cli.access.AccessRule;
import org.loommpm.cli.config.LocationSettings;
import org.loommpm.cli.config.ProxySettings;
import org.loommpm.cli.config.SiteSettings;
import org.loommpm.cli.staticfiles.StaticFileHandler;
import org.loommpm.cli.staticfiles.UrlPath;
import org.loommpm.engine.Poller;

/**
 * What every request goes to (inside the access-log filter): the path is normalized once by
 * {@link UrlPath}, then the matching {@code <Location>} sections decide, in file order with later
 * ones winning as in httpd, who may proceed ({@code Require}) and which handler answers
 * ({@code SetHandler}); then a {@code ProxyPass} whose path covers the request's (by whole
 * segments, as a {@code <Location>}) sends it to its backend ({@code ProxyPass} inside a
 * {@code <Location>} first, the last matching section winning; then the server-level ones in
 * file order, the first match winning, as httpd; {@code !} stops the search); everything else is
 * a static file. An explicit {@code SetHandler} other than {@code none} wins over a
 * {@code ProxyPass}. {@code SetHandler NAME} of a {@code LoadApplication} hands the
 * request to that application's router, after {@code Require}: a refused WebSocket upgrade gets
 * 403 and is never upgraded.
 *
 * <p>A request that a {@code ProxyPass} takes, and that its proxy serves on the poller
 * ({@code ProxyHandler#nonBlockingHandler}), is served there too: {@link #nonBlockingHandler}
 * makes the same choice from the method and the decoded path, and {@link #handle} then calls
 * the proxy's poller entry. Everything else (files, status, applications) runs on a worker.
 */
final class SiteHandler implements Handler {
    private static final System.Logger LOG = System.getLogger("org.loommpm.cli");

    private final LocationSettings[] locations;
    private final StaticFileHandler files;
    private final Handler status;
    private final Handler metrics;
    private final Handler health;
    private final ProxySettings.Route[] routes;
    /** The applications' routers by {@code LoadApplication} name. */
    private final java.util.Map<String, Handler> applications;
    /** Whether some {@code ProxyPass} may serve requests on the poller. */
    private final boolean anyOnPoller;

    SiteHandler(SiteSettings site, StaticFileHandler files, Handler status, Handler metrics, Handler health,
                java.util.List<ProxySettings.Route> routes, java.util.Map<String, Handler> applications) {
        this.applications = java.util.Map.copyOf(applications);
        this.locations = site.locations().toArray(new LocationSettings[0]);
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
    }

    @Override
    public InvocationType invocationType() {
        return anyOnPoller ? InvocationType.BY_REQUEST : InvocationType.BLOCKING;
    }

    @Override
    public InvocationType invocationType(String method, String path) {
        return nonBlockingHandler(method, path) != null ? InvocationType.NON_BLOCKING : InvocationType.BLOCKING;
    }

    /**
     * This handler when {@link #handle} will hand the request to a proxy that serves it on the
     * poller: no {@code SetHandler} for the path, and a {@code ProxyPass} whose proxy says so
     * for this method and path. {@code Require} and the refusals of {@link UrlPath} are decided
     * in {@link #handle}, without blocking.
     */
    @Override
    public Handler nonBlockingHandler(String method, String path) {
        if (!anyOnPoller) {
            return null;
        }
        String normalized;
        try {
            normalized = UrlPath.normalize(path);
        } catch (UrlPath.Rejected e) {
            return null;
        }
        if (setHandler(normalized) != null) {
            return null;
        }
        ProxySettings.Route r = route(normalized);
        return r != null && r.handler() != null && r.handler().nonBlockingHandler(method, path) != null ? this : null;
    }

    @Override
    public void handle(Request req, Response res) throws Exception {
        String path;
        try {
            path = UrlPath.normalize(req);
        } catch (UrlPath.Rejected e) {
            LOG.log(Level.DEBUG, "LM1101 {0} refused with {1}: {2}", req.rawTarget(), e.status(), e.getMessage());
            plain(res, e.status(), e.status() == 404 ? "Not Found" : "Bad Request");
            return;
        }
        String handler = null;
        AccessRule rule = AccessRule.OPEN;
        for (LocationSettings l : locations) {
            if (l.matches(path)) {
                handler = l.handler() != null ? l.handler() : handler;
                rule = l.require() != null ? l.require() : rule;
            }
        }
        // SetHandler none: back to a ProxyPass or the files, as in httpd.
        handler = "none".equals(handler) ? null : handler;
        if (rule != AccessRule.OPEN && !rule.allows(req.remoteAddress().getAddress())) {
            LOG.log(Level.DEBUG, "LM1103 {0} denied to {1} by Require", path, req.remoteAddress());
            plain(res, 403, "Forbidden");
            return;
        }
        if (anyOnPoller && handler == null && Poller.current() != null) {
            // On the poller (nonBlockingHandler chose so): only the proxy's poller entry may run here.
            ProxySettings.Route r = route(path);
            Handler nb = r == null || r.handler() == null ? null : r.handler().nonBlockingHandler(req.method(), req.path());
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
        } else if (handler == null && routes.length > 0 && proxied(path, req, res)) {
            return;
        } else if (handler != null && applications.get(handler) instanceof Handler app) {
            app.handle(req, res);
        } else {
            files.serve(req, res, path);
        }
    }

    /** Proxies the request if a {@code ProxyPass} takes it; returns whether one did. */
    private boolean proxied(String path, Request req, Response res) throws Exception {
        ProxySettings.Route chosen = route(path);
        if (chosen == null || chosen.handler() == null) {
            return false;
        }
        chosen.handler().handle(req, res);
        return true;
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

    private static void plain(Response res, int status, String text) throws java.io.IOException {
        res.status(status).header("Content-Type", "text/plain; charset=UTF-8");
        res.send((text + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
}
