package org.loommpm.tracing;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import org.loommpm.api.Headers;
import org.loommpm.api.Request;
import org.loommpm.api.RouteAware;

/**
 * The request an observed handler sees: the server's own, plus the {@link RouteAware} hook
 * through which a {@code Router} reports its template for {@code http.route}. Confined to the
 * worker serving the request.
 */
final class ObservedRequest implements Request, RouteAware {
    private final Request delegate;
    private final ServerRequestContext context;

    ObservedRequest(Request delegate, ServerRequestContext context) {
        this.delegate = delegate;
        this.context = context;
    }

    @Override
    public void routeMatched(String template) {
        context.route(template);
    }

    @Override public String method() { return delegate.method(); }
    @Override public String rawTarget() { return delegate.rawTarget(); }
    @Override public String path() { return delegate.path(); }
    @Override public String encodedPath() { return delegate.encodedPath(); }
    @Override public String query() { return delegate.query(); }
    @Override public String queryParam(String name) { return delegate.queryParam(name); }
    @Override public Map<String, List<String>> queryParams() { return delegate.queryParams(); }
    @Override public String pathParam(String name) { return delegate.pathParam(name); }
    @Override public String protocol() { return delegate.protocol(); }
    @Override public String rawProtocol() { return delegate.rawProtocol(); }
    @Override public Headers headers() { return delegate.headers(); }
    @Override public String header(String name) { return delegate.header(name); }
    @Override public long contentLength() { return delegate.contentLength(); }
    @Override public InputStream body() { return delegate.body(); }
    @Override public Headers trailers() { return delegate.trailers(); }
    @Override public byte[] bodyBytes() throws IOException { return delegate.bodyBytes(); }
    @Override public String bodyString() throws IOException { return delegate.bodyString(); }
    @Override public InetSocketAddress remoteAddress() { return delegate.remoteAddress(); }
    @Override public InetSocketAddress localAddress() { return delegate.localAddress(); }
    @Override public boolean isSecure() { return delegate.isSecure(); }
    @Override public java.util.Optional<org.loommpm.api.TlsInfo> tls() { return delegate.tls(); }
    @Override public long bytesReceived() { return delegate.bytesReceived(); }
    @Override public Map<String, Object> attributes() { return delegate.attributes(); }
}
