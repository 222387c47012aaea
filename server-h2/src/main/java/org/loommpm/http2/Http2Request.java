package org.loommpm.http2;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.loommpm.api.Headers;
import org.loommpm.api.HttpException;
import org.loommpm.http.RequestAttributes;
import org.loommpm.api.Request;
import org.loommpm.api.TlsInfo;
import org.loommpm.http.RequestBodies;
import org.loommpm.http.RequestPath;
import org.loommpm.http.UriCodec;
import org.loommpm.http2.hpack.FieldBlock;
import org.loommpm.spi.SlotBoard;

/**
 * An HTTP/2 request as handlers see it: the pseudo-header fields give method and target,
 * {@code :authority} is offered as the {@code host} field (replacing any the client sent), and the
 * body is the stream's {@link RequestBody}. Owned by the stream's task; valid during one exchange.
 */
final class Http2Request implements Request, SlotBoard.RequestInfo, RequestAttributes.Holder {
    private final Stream stream;
    private final FieldBlock fields;
    private final String path;
    private final String encodedPath;
    private final String query;
    private final String host;
    private final InetSocketAddress remote;
    private final InetSocketAddress local;
    private final boolean secure;
    private final long limitRequestBody;
    private final long headBytes;
    private Map<String, List<String>> queryParams;
    /** {@link #attributes()}, made on first use. */
    private Map<String, Object> attributes;

    /** @throws HttpException 400 when the path does not decode or normalise ({@link RequestPath}) */
    Http2Request(Stream stream, InetSocketAddress remote, InetSocketAddress local, boolean secure,
                 long limitRequestBody) {
        this.secure = secure;
        this.stream = stream;
        this.fields = stream.request;
        this.remote = remote;
        this.local = local;
        this.limitRequestBody = limitRequestBody;
        String target = fields.path() == null ? "" : fields.path();
        int q = target.indexOf('?');
        this.query = q < 0 ? null : target.substring(q + 1);
        RequestPath normal = RequestPath.of(q < 0 ? target : target.substring(0, q));
        this.path = normal.path();
        this.encodedPath = normal.encoded();
        String h = fields.authority();
        if (h != null) {
            // RFC 9113 §8.3.1: :authority, not Host, names the host; handlers (and a proxy
            // forwarding the request, which must send :authority as Host) read the Host field.
            fields.headers().set("host", h);
        } else {
            h = fields.headers().first("host");
        }
        this.host = h;
        long size = 0;
        Headers hs = fields.headers();
        for (int i = 0; i < hs.size(); i++) {
            size += hs.name(i).length() + hs.value(i).length() + 32;
        }
        this.headBytes = size;
    }

    @Override public String method() { return fields.method(); }
    @Override public String rawTarget() { return fields.path() == null ? fields.authority() : fields.path(); }
    @Override public String path() { return path; }
    @Override public String encodedPath() { return encodedPath; }
    @Override public String query() { return query; }
    @Override public String host() { return host; }
    @Override public String protocol() { return "HTTP/2.0"; }
    @Override public Headers headers() { return fields.headers(); }
    @Override public long contentLength() { return fields.contentLength(); }
    @Override public InputStream body() { return stream.body; }
    @Override public Headers trailers() { return stream.body.trailers(); }
    @Override public InetSocketAddress remoteAddress() { return remote; }
    @Override public boolean isSecure() { return secure; }
    @Override public Optional<TlsInfo> tls() { return stream.session().tls(); }
    @Override public InetSocketAddress localAddress() { return local; }
    @Override public String pathParam(String name) { return null; }

    @Override
    public Map<String, Object> attributes() {
        if (attributes == null) {
            attributes = RequestAttributes.create();
        }
        return attributes;
    }

    @Override
    public Map<String, Object> attributesOrNull() {
        return attributes;
    }

    /** Header fields (uncompressed, with HPACK's 32-byte entry overhead) plus the body read. */
    @Override
    public long bytesReceived() {
        return headBytes + stream.body.consumed();
    }

    @Override
    public Map<String, List<String>> queryParams() {
        if (queryParams == null) {
            queryParams = UriCodec.parseQuery(query);
        }
        return queryParams;
    }

    @Override
    public byte[] bodyBytes() throws IOException {
        return RequestBodies.readAll(this, stream.body, fields.contentLength(), limitRequestBody,
                stream.session().c.services());
    }

    @Override
    public String bodyString() throws IOException {
        return new String(bodyBytes(), RequestBodies.charset(header("content-type")));
    }
}
