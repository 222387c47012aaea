package org.loommpm.cli.remoteip;

import java.net.InetSocketAddress;
import java.util.List;
import org.loommpm.api.Filter;
import org.loommpm.api.Handler;
import org.loommpm.api.InvocationType;
import org.loommpm.api.Request;
import org.loommpm.api.Response;

/**
 * mod_remoteip's {@code RemoteIPHeader}: the client's address from a header set by trusted
 * proxies ({@link RemoteIpResolver}), for everything after this filter (access log {@code %a},
 * {@code Require ip}, the proxy's X-Forwarded-For; not the status page, which shows connections). The header
 * keeps only what was not walked (removed when all was), and {@code RemoteIPProxiesHeader}, if
 * set, lists the external proxies walked through. Stateless: any thread.
 */
public final class RemoteIpFilter implements Filter {
    private final String header;
    private final String proxiesHeader;
    private final RemoteIpResolver resolver;

    /** The filter for {@code settings}, or null when {@code RemoteIPHeader} is not set. */
    public static RemoteIpFilter of(RemoteIpSettings settings) {
        return settings == null || settings.header() == null ? null : new RemoteIpFilter(settings);
    }

    private RemoteIpFilter(RemoteIpSettings s) {
        this.header = s.header();
        this.proxiesHeader = s.proxiesHeader();
        this.resolver = new RemoteIpResolver(s.proxies());
    }

    /** It only reads fields and compares addresses: it may run on the poller. */
    @Override
    public InvocationType invocationType() {
        return InvocationType.NON_BLOCKING;
    }

    @Override
    public void filter(Request request, Response response, Handler next) throws Exception {
        List<String> values = request.headers().all(header);
        if (values.isEmpty()) {
            next.handle(request, response);
            return;
        }
        // Repeated fields are one comma-separated list (RFC 9110 §5.3), as httpd merges them.
        String joined = values.size() == 1 ? values.get(0) : String.join(", ", values);
        RemoteIpResolver.Result r = resolver.resolve(request.remoteAddress().getAddress(), joined);
        if (r.client() == null) {
            next.handle(request, response);
            return;
        }
        if (r.remaining() == null) {
            request.headers().remove(header);
        } else {
            request.headers().set(header, r.remaining());
        }
        if (proxiesHeader != null && !r.trustedProxies().isEmpty()) {
            request.headers().set(proxiesHeader, String.join(", ", r.trustedProxies()));
        }
        next.handle(new RemoteIpRequest(request, new InetSocketAddress(r.client(), 0)), response);
    }
}
