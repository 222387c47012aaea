package org.loommpm.cli.headers;

import org.loommpm.api.Filter;
import org.loommpm.api.Handler;
import org.loommpm.api.InvocationType;
import org.loommpm.api.Request;
import org.loommpm.api.Response;
import org.loommpm.staticfiles.internal.UrlPath;
import org.loommpm.http.ResponseState;

/**
 * mod_headers: {@code RequestHeader} rules change the request's fields before anything behind
 * this filter sees them (the site, a {@code ProxyPass} backend); {@code Header} rules change the
 * response's fields just before its head is encoded ({@link ResponseState#beforeHead}), so they
 * reach every final head of the exchange, whoever writes it: a file, the welcome page, a
 * handler, a proxied answer on a worker or on the poller, and the server's own error answers
 * (a 404 or 403 of the site, a proxy's 502/503/504, a handler's failure answered 500). A rule
 * without {@code always} applies to a status below 400; with {@code always}, to every status.
 * Set only when some {@code Header} or {@code RequestHeader} line exists. Stateless: any thread.
 */
public final class HeadersFilter implements Filter {
    private final HeaderScopes scopes;
    /** {@code AllowEncodedSlashes On}: the path a {@code <Location>} sees, as the site's. */
    private final boolean allowEncodedSlashes;

    /**
     * @param scopes the rules read from the configuration
     * @param allowEncodedSlashes {@code AllowEncodedSlashes On}
     */
    public HeadersFilter(HeaderScopes scopes, boolean allowEncodedSlashes) {
        this.scopes = scopes;
        this.allowEncodedSlashes = allowEncodedSlashes;
    }

    /** It only edits field lists: it may run on the poller, with a proxy that does. */
    @Override
    public InvocationType invocationType() {
        return InvocationType.NON_BLOCKING;
    }

    @Override
    public void filter(Request request, Response response, Handler next) throws Exception {
        String path = null; // the server level's rules only: no <Location> has any, or the site refuses the path
        if (scopes.scoped()) {
            try {
                path = UrlPath.normalize(request, allowEncodedSlashes);
            } catch (UrlPath.Rejected e) {
                // the site refuses it: the server level's rules, as the comment above says
            }
        }
        HeaderScopes.Rules rules = scopes.rulesFor(path);
        for (HeaderRule r : rules.request()) {
            r.apply(request.headers());
        }
        HeaderRule[] out = rules.response();
        if (out.length > 0 && response instanceof ResponseState own) {
            own.beforeHead(res -> {
                int status = res.status();
                for (HeaderRule r : out) {
                    if (r.appliesTo(status)) {
                        r.apply(res.headers());
                    }
                }
            });
        }
        next.handle(request, response);
    }
}
