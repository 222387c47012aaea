package org.loommpm.api;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;

/**
 * The request a {@link Router} passes on when the chosen template has variables: the server's
 * request with {@link #pathParam} answered from the match. A wrapper rather than a setter on
 * the server's request, so routers can nest and a request never carries a stale match.
 */
final class RoutedRequest implements Request, RouteAware {
    private final Request delegate;
    private final String[] names;
    private final String[] values;

    /** {@code names[i]} has value {@code values[i]}; both arrays are owned by this object. */
    RoutedRequest(Request delegate, String[] names, String[] values) {
        this.delegate = delegate;
        this.names = names;
        this.values = values;
    }

    /** A nested router's match goes to the request this one wraps (the innermost template wins). */
    @Override
    public void routeMatched(String template) {
        if (delegate instanceof RouteAware aware) {
            aware.routeMatched(template);
        }
    }

    /** The matched value, else whatever the wrapped request knows (an enclosing router's). */
    @Override
    public String pathParam(String name) {
        for (int i = 0; i < names.length; i++) {
            if (names[i].equals(name)) {
                return values[i];
            }
        }
        return delegate.pathParam(name);
    }

    /** The enclosing routers' variables, then this match's (which win on a clash). */
    @Override
    public Map<String, String> pathParams() {
        Map<String, String> outer = delegate.pathParams();
        Map<String, String> all = new java.util.LinkedHashMap<>(outer);
        for (int i = 0; i < names.length; i++) {
            all.put(names[i], values[i]);
        }
        return java.util.Collections.unmodifiableMap(all);
    }

    @Override
    public String method() {
        return delegate.method();
    }

    @Override
    public String rawTarget() {
        return delegate.rawTarget();
    }

    @Override
    public String path() {
        return delegate.path();
    }

    @Override
    public String encodedPath() {
        return delegate.encodedPath();
    }

    @Override
    public String query() {
        return delegate.query();
    }

    @Override
    public String queryParam(String name) {
        return delegate.queryParam(name);
    }

    @Override
    public Map<String, List<String>> queryParams() {
        return delegate.queryParams();
    }

    @Override
    public String protocol() {
        return delegate.protocol();
    }

    @Override
    public String rawProtocol() {
        return delegate.rawProtocol();
    }

    @Override
    public Headers headers() {
        return delegate.headers();
    }

    @Override
    public String header(String name) {
        return delegate.header(name);
    }

    @Override
    public long contentLength() {
        return delegate.contentLength();
    }

    @Override
    public InputStream body() {
        return delegate.body();
    }

    @Override
    public byte[] bodyBytes() throws IOException {
        return delegate.bodyBytes();
    }

    @Override
    public String bodyString() throws IOException {
        return delegate.bodyString();
    }

    @Override
    public Headers trailers() {
        return delegate.trailers();
    }

    @Override
    public boolean isSecure() {
        return delegate.isSecure();
    }

    @Override
    public java.util.Optional<TlsInfo> tls() {
        return delegate.tls();
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return delegate.remoteAddress();
    }

    @Override
    public InetSocketAddress localAddress() {
        return delegate.localAddress();
    }

    @Override
    public long bytesReceived() {
        return delegate.bytesReceived();
    }

    /** The server's request's: one map per exchange, whichever wrapper a filter or handler holds. */
    @Override
    public Map<String, Object> attributes() {
        return delegate.attributes();
    }
}
