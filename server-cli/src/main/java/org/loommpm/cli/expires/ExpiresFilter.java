package org.loommpm.cli.expires;

import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.loommpm.api.Filter;
import org.loommpm.api.Handler;
import org.loommpm.api.InvocationType;
import org.loommpm.api.Request;
import org.loommpm.api.Response;
import org.loommpm.http.HttpDate;
import org.loommpm.http.ResponseState;
import org.loommpm.staticfiles.internal.UrlPath;

/**
 * mod_expires: sets {@code Expires} and adds {@code max-age} to {@code Cache-Control} on every
 * response below 400 that has no {@code Expires} yet, from the code its Content-Type's
 * {@code ExpiresByType} (or a {@code type/*} one, else {@code ExpiresDefault}) gives: the request's
 * time plus the code's seconds, or the {@code Last-Modified} time plus them for a
 * {@code modification} code (none when the response has no {@code Last-Modified}, as httpd sets
 * none for a response that is not a file), never earlier than the request. Applied just before
 * the head is encoded ({@link ResponseState#beforeHead}), so it sees the final status and type,
 * and before the {@code Header} rules (which may change what it set). Set only when some
 * {@code ExpiresActive On} exists. Stateless: any thread.
 */
public final class ExpiresFilter implements Filter {
    private final ExpiresScopes scopes;
    private final boolean allowEncodedSlashes;
    private final UnaryOperator<String> typeForName;

    /**
     * @param scopes the lines read from the configuration
     * @param allowEncodedSlashes {@code AllowEncodedSlashes On}: the path a {@code <Location>} sees
     * @param typeForName the site's media type for a file name: the type of a 304, which carries
     *     none (httpd still knows the file's type there)
     */
    public ExpiresFilter(ExpiresScopes scopes, boolean allowEncodedSlashes, UnaryOperator<String> typeForName) {
        this.scopes = scopes;
        this.allowEncodedSlashes = allowEncodedSlashes;
        this.typeForName = typeForName;
    }

    /** It only edits field lists: it may run on the poller. */
    @Override
    public InvocationType invocationType() {
        return InvocationType.NON_BLOCKING;
    }

    @Override
    public void filter(Request request, Response response, Handler next) throws Exception {
        String path = null;
        if (scopes.scoped()) {
            try {
                path = UrlPath.normalize(request, allowEncodedSlashes);
            } catch (UrlPath.Rejected e) {
                // refused by the site: an error, which gets no Expires anyway
            }
        }
        ExpiresScopes.Policy policy = scopes.policyFor(path);
        if (policy != ExpiresScopes.Policy.NONE && response instanceof ResponseState own) {
            long requestTime = System.currentTimeMillis() / 1000;
            String requestPath = request.path();
            own.beforeHead(res -> apply(policy, res, requestTime, () -> typeForName.apply(lastSegment(requestPath))));
        }
        next.handle(request, response);
    }

    private static String lastSegment(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    static void apply(ExpiresScopes.Policy policy, Response res, long requestTime, Supplier<String> typeOf304) {
        if (res.status() >= 400 || res.headers().first("Expires") != null) {
            return;
        }
        String type = res.headers().first("Content-Type");
        ExpiresCode code = policy.codeFor(type == null && res.status() == 304 ? typeOf304.get() : type);
        if (code == null) {
            return;
        }
        long base = requestTime;
        if (code.fromModification()) {
            long lm = HttpDate.parse(res.headers().first("Last-Modified"));
            if (lm < 0) {
                return;
            }
            base = lm / 1000;
        }
        long expires = Math.max(requestTime, base + code.seconds());
        String cc = res.headers().first("Cache-Control");
        String maxAge = "max-age=" + (expires - requestTime);
        res.headers().set("Cache-Control", cc == null || cc.isEmpty() ? maxAge : cc + ", " + maxAge);
        res.headers().set("Expires", HttpDate.format(expires * 1000));
    }
}
