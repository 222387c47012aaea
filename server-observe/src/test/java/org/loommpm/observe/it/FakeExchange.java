package org.loommpm.observe.it;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.loommpm.api.Handler;
import org.loommpm.api.Headers;
import org.loommpm.api.Request;
import org.loommpm.api.Response;
import org.loommpm.http.UriCodec;

/**
 * Calls a handler in-process with a GET and captures its response: how tests read the status
 * page while every worker slot of the server is taken (a real request would wait for a slot).
 */
final class FakeExchange {
    private FakeExchange() {
    }

    /** Runs {@code handler} for {@code GET target} (Host {@code x}) and returns the response body. */
    static String get(Handler handler, String target) throws Exception {
        FakeRequest req = new FakeRequest(target);
        FakeResponse res = new FakeResponse();
        handler.handle(req, res);
        return res.body.toString(StandardCharsets.UTF_8);
    }

    private static final class FakeRequest implements Request {
        private final String path;
        private final String query;
        private final Headers headers = new Headers();

        FakeRequest(String target) {
            int q = target.indexOf('?');
            path = q < 0 ? target : target.substring(0, q);
            query = q < 0 ? null : target.substring(q + 1);
            headers.set("Host", "x");
        }

        @Override public String method() { return "GET"; }
        @Override public String rawTarget() { return query == null ? path : path + "?" + query; }
        @Override public String path() { return path; }
        @Override public String encodedPath() { return path; }
        @Override public String query() { return query; }
        @Override public Map<String, List<String>> queryParams() { return UriCodec.parseQuery(query); }
        @Override public String pathParam(String name) { return null; }
        @Override public String protocol() { return "HTTP/1.1"; }
        @Override public Headers headers() { return headers; }
        @Override public long contentLength() { return -1; }
        @Override public InputStream body() { return InputStream.nullInputStream(); }
        @Override public byte[] bodyBytes() { return new byte[0]; }
        @Override public String bodyString() { return ""; }
        @Override public InetSocketAddress remoteAddress() { return new InetSocketAddress("127.0.0.1", 1); }
        @Override public boolean isSecure() { return false; }
        @Override public InetSocketAddress localAddress() { return new InetSocketAddress("127.0.0.1", 2); }
        private final Map<String, Object> attributes = new java.util.HashMap<>();
        @Override public Map<String, Object> attributes() { return attributes; }

        @Override
        public String queryParam(String name) {
            List<String> v = queryParams().get(name);
            return v == null ? null : v.get(0);
        }
    }

    private static final class FakeResponse implements Response {
        private final Headers headers = new Headers();
        private final ByteArrayOutputStream body = new ByteArrayOutputStream();
        private int status = 200;
        private boolean committed;

        @Override public Response status(int s) { status = s; return this; }
        @Override public int status() { return status; }
        @Override public Response header(String name, String value) { headers.set(name, value); return this; }
        @Override public Headers headers() { return headers; }
        @Override public void send(byte[] b) { body.writeBytes(b); committed = true; }
        @Override public OutputStream outputStream() { committed = true; return body; }
        @Override public void sendFile(Path file) { throw new UnsupportedOperationException(); }
        @Override public boolean isCommitted() { return committed; }
    }
}
