package org.loommpm.http1;

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
import org.loommpm.http.RequestHead;
import org.loommpm.http.TlsDetails;
import org.loommpm.http.UriCodec;
import org.loommpm.spi.CloseReason;
import org.loommpm.spi.ProtocolConnection;

/**
 * A parsed HTTP/1.x request as handlers see it. The body stream is chosen from the head's framing
 * (fixed length, chunked, or none) and, for {@code Expect: 100-continue}, sends the interim
 * {@code 100 Continue} on the first read, unless the response has already begun.
 * Worker-owned; valid during one exchange.
 */
final class Http1Request implements Request, RequestAttributes.Holder {
    /** The body of a request without one: it keeps no state, so one instance serves them all. */
    private static final InputStream NO_BODY = new InputStream() {
        @Override
        public int read() {
            return -1;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            java.util.Objects.checkFromIndexSize(off, len, b.length);
            return len == 0 ? 0 : -1;
        }
    };
    private final RequestHead head;
    private final ProtocolConnection connection;
    private final InputStream body;
    /** The body's decoder when it has a Content-Length body, else {@code null}: how much is left of it. */
    private final FixedLengthInputStream fixed;
    /** The body's decoder when it is chunked, else {@code null}. */
    private final ChunkedInputStream chunks;
    private final long limitRequestBody;
    private final int headBytes;
    private final ConnectionInputStream raw;
    private Map<String, List<String>> queryParams;
    /** {@link #attributes()}, made on first use. */
    private Map<String, Object> attributes;
    /** {@link #tls()}, once asked. */
    private Optional<TlsInfo> tls;

    /**
     * @param headBytes the head's length as received, for {@link #bytesReceived()}
     * @param raw the connection's bytes after the head, or {@code null} when the head announces no body
     */
    Http1Request(RequestHead head, int headBytes, ProtocolConnection connection, ConnectionInputStream raw,
                 Http1Response response, long limitRequestBody, int limitFields, int limitFieldSize) {
        this.head = head;
        this.headBytes = headBytes;
        this.raw = raw;
        this.connection = connection;
        this.limitRequestBody = limitRequestBody;
        InputStream framed;
        this.chunks = head.chunked()
                ? new ChunkedInputStream(raw, limitRequestBody, limitFields, limitFieldSize) : null;
        this.fixed = !head.chunked() && head.contentLength() > 0
                ? new FixedLengthInputStream(raw, head.contentLength()) : null;
        if (chunks != null) {
            framed = new FramingGuard(chunks, response);
        } else if (fixed != null) {
            framed = fixed;
        } else {
            framed = NO_BODY;
        }
        boolean hasBody = head.chunked() || head.contentLength() > 0;
        boolean expect = hasBody && head.expectContinue() && head.version() == RequestHead.Version.HTTP_1_1;
        this.body = expect ? new ContinueInputStream(framed, response) : framed;
        response.awaitingContinue(expect);
        if (hasBody) {
            response.requestWithBody(this);
        }
    }

    RequestHead head() {
        return head;
    }

    /**
     * Whether some of the body has still to arrive: neither read to its end nor all in the read
     * buffer. A response committed then says {@code Connection: close} (see
     * {@link Http1Response#encodeHead}): the server will not wait for the rest to keep the
     * connection.
     */
    boolean bodyStillArriving() {
        if (fixed != null) {
            return fixed.remaining() > raw.available();
        }
        return chunks != null && !chunks.endWithin(raw.buffered());
    }

    /**
     * Drops what is left of the body if it has all arrived, up to {@code max} bytes as received;
     * false if more remains or would have to be waited for (the connection then closes, with a
     * lingering close that absorbs what the client still sends). Never waits: an answer the
     * handler gave without reading the body goes out at once, not after the upload. Counted on
     * the wire, framing included, not as decoded data: chunk extensions around 1-byte chunks would
     * otherwise have the server read thousands of times {@code max}.
     */
    boolean discardBody(long max) throws IOException {
        if (!head.chunked() && head.contentLength() <= 0) {
            return true;
        }
        if (body instanceof ContinueInputStream c && !c.continued()) {
            // The client waits for our verdict; it has not sent the body, so close instead.
            return false;
        }
        raw.arrivedOnly();
        byte[] skip = new byte[8192];
        long limit = raw.consumed() + max;
        try {
            while (body.read(skip, 0, (int) Math.min(skip.length, Math.max(1, limit - raw.consumed()))) >= 0) {
                if (raw.consumed() > limit) {
                    return false;
                }
            }
        } catch (ConnectionInputStream.NotArrived e) {
            return false;
        }
        return true;
    }

    @Override public String method() { return head.method(); }
    @Override public String rawTarget() { return head.rawTarget(); }
    @Override public String path() { return head.path(); }
    @Override public String encodedPath() { return head.encodedPath(); }
    @Override public String query() { return head.query(); }
    @Override public String protocol() { return head.version().text(); }
    @Override public String rawProtocol() { return head.versionAsSent(); }
    @Override public Headers headers() { return head.headers(); }
    @Override public long contentLength() { return head.contentLength(); }
    @Override public InputStream body() { return body; }
    @Override public Headers trailers() { return chunks != null ? chunks.trailers() : new Headers(1); }
    @Override public InetSocketAddress remoteAddress() { return connection.remoteAddress(); }
    @Override public boolean isSecure() { return connection.isSecure(); }

    @Override
    public Optional<TlsInfo> tls() {
        if (tls == null) {
            tls = TlsDetails.of(connection.tlsSession(), connection.applicationProtocol());
        }
        return tls;
    }

    @Override public InetSocketAddress localAddress() { return connection.localAddress(); }
    @Override public long bytesReceived() { return raw == null ? headBytes : headBytes + raw.consumed(); }

    @Override
    public String pathParam(String name) {
        return null;
    }

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

    @Override
    public Map<String, List<String>> queryParams() {
        if (queryParams == null) {
            queryParams = UriCodec.parseQuery(head.query());
        }
        return queryParams;
    }

    @Override
    public byte[] bodyBytes() throws IOException {
        return RequestBodies.readAll(this, body, head.contentLength(), limitRequestBody,
                connection.services());
    }

    @Override
    public String bodyString() throws IOException {
        return new String(bodyBytes(), RequestBodies.charset(header("Content-Type")));
    }

    /**
     * Closes the connection after the exchange once the chunked body's framing failed (malformed,
     * over LimitRequestBody): where the body ends is then unknown, even if the handler catches the
     * error and answers itself. Otherwise the body's "rest" would be skipped by parsing on from
     * wherever the decoder stopped, reading chunk data as framing and perhaps a request hidden in
     * it (request smuggling).
     */
    private static final class FramingGuard extends InputStream {
        private final InputStream in;
        private final Http1Response response;

        FramingGuard(InputStream in, Http1Response response) {
            this.in = in;
            this.response = response;
        }

        @Override
        public int read() throws IOException {
            try {
                return in.read();
            } catch (HttpException e) {
                response.requireClose(CloseReason.ERROR);
                throw e;
            }
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            try {
                return in.read(b, off, len);
            } catch (HttpException e) {
                response.requireClose(CloseReason.ERROR);
                throw e;
            }
        }

        @Override
        public int available() throws IOException {
            return in.available();
        }
    }

    /** Sends {@code 100 Continue} before the first body byte is read. */
    private static final class ContinueInputStream extends InputStream {
        private final InputStream in;
        private final Http1Response response;
        private boolean continued;

        ContinueInputStream(InputStream in, Http1Response response) {
            this.in = in;
            this.response = response;
        }

        boolean continued() {
            return continued;
        }

        private void sendContinue() throws IOException {
            if (!continued) {
                continued = true;
                response.awaitingContinue(false);
                if (!response.isCommitted()) {
                    response.writeContinue();
                }
            }
        }

        @Override
        public int read() throws IOException {
            sendContinue();
            return in.read();
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            sendContinue();
            return in.read(b, off, len);
        }
    }
}
