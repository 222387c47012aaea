package org.loommpm.cli.remoteip;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import org.loommpm.api.Headers;
import org.loommpm.api.Request;

/**
 * The request as the handlers behind {@link RemoteIpFilter} see it: {@link #remoteAddress()} is
 * the client the header walk accepted (httpd's useragent address, port 0 as httpd sets it); the
 * connection's own peer stays available as {@link #connectionAddress()} (the access log's
 * {@code %{c}a} and {@code %h}). Everything else is the wrapped request's. Same thread rules as
 * any {@link Request}.
 */
public final class RemoteIpRequest implements Request {
    private final Request delegate;
    private final InetSocketAddress client;

    RemoteIpRequest(Request delegate, InetSocketAddress client) {
        this.delegate = delegate;
        this.client = client;
    }

    /** The connection's peer: the proxy (or, on a PROXY protocol listener, the client it named). */
    public InetSocketAddress connectionAddress() {
        return delegate.remoteAddress();
    }

    /** The connection's peer of any request: {@link #connectionAddress()} behind the filter, else its remote address. */
    public static InetSocketAddress connectionAddress(Request r) {
        return r instanceof RemoteIpRequest ri ? ri.connectionAddress() : r.remoteAddress();
    }

    @Override public InetSocketAddress remoteAddress() { return client; }
    @Override public String method() { return delegate.method(); }
    @Override public String rawTarget() { return delegate.rawTarget(); }
    @Override public String path() { return delegate.path(); }
    @Override public String encodedPath() { return delegate.encodedPath(); }
    @Override public String query() { return delegate.query(); }
    @Override public Map<String, List<String>> queryParams() { return delegate.queryParams(); }
    @Override public String pathParam(String name) { return delegate.pathParam(name); }
    @Override public String protocol() { return delegate.protocol(); }
    @Override public String rawProtocol() { return delegate.rawProtocol(); }
    @Override public Headers headers() { return delegate.headers(); }
    @Override public long contentLength() { return delegate.contentLength(); }
    @Override public InputStream body() { return delegate.body(); }
    @Override public Headers trailers() { return delegate.trailers(); }
    @Override public byte[] bodyBytes() throws IOException { return delegate.bodyBytes(); }
    @Override public String bodyString() throws IOException { return delegate.bodyString(); }
    @Override public InetSocketAddress localAddress() { return delegate.localAddress(); }
    @Override public boolean isSecure() { return delegate.isSecure(); }
    @Override public java.util.Optional<org.loommpm.api.TlsInfo> tls() { return delegate.tls(); }
    @Override public long bytesReceived() { return delegate.bytesReceived(); }
    @Override public Map<String, Object> attributes() { return delegate.attributes(); }
}
