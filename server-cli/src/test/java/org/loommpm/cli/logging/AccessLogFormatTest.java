package org.loommpm.cli.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.loommpm.api.Headers;
import org.loommpm.api.Request;
import org.loommpm.api.Response;

class AccessLogFormatTest {
    private static String line(String format, Request rq, Response rs) {
        LogLine line = new LogLine(0);
        AccessLogFormat.compile(format).format(line, new AccessLogFormat.Exchange(rq, rs, 200, 0, 2_500_000, "example"));
        return line.toString();
    }

    @Test
    void codes() {
        Headers h = new Headers().add("User-Agent", "curl/8 \"quoted\"\u0001").add("Referer", "http://r/");
        Request rq = request(h);
        Response rs = response();
        assertEquals("10.0.0.1 - - \"GET /a%20b?x=1 HTTP/1.1\" 200 42", line("%h %l %u \"%r\" %>s %b", rq, rs));
        assertEquals("curl/8 \\\"quoted\\\"\\x01|http://r/|-", line("%{User-Agent}i|%{Referer}i|%{X-None}i", rq, rs));
        assertEquals("2500 0 2 /a b ?x=1 GET 8080 example % 100 142 text/plain",
                line("%D %T %{ms}T %U %q %m %p %v %% %I %O %{Content-Type}o", rq, rs));
        // Constant codes folded into the literal text around them.
        assertEquals("[--" + Pid.TEXT + "%] 200", line("[%l%u%P%%] %s", rq, rs));
    }

    /** A field sent more than once is logged whole, joined as httpd merges it; Set-Cookie among the response's too. */
    @Test
    void repeatedFieldsAreJoined() {
        Request rq = request(new Headers().add("Accept", "text/html").add("X-Other", "1").add("accept", "*/*"));
        Response rs = response();
        rs.headers().add("Set-Cookie", "a=1").add("Set-Cookie", "b=2");
        assertEquals("text/html, */*|a=1, b=2", line("%{Accept}i|%{Set-Cookie}o", rq, rs));
    }

    /**
     * {@code %r} is the request line as received and {@code %H} the version as sent (httpd logs
     * its {@code r->protocol}, the request line's text): a request line of {@code HTTP/1.2},
     * served as HTTP/1.1 ({@code Request.protocol()}), is logged with {@code HTTP/1.2}.
     */
    @Test
    void requestLineAndProtocolAsSent() {
        Request rq = request(new Headers(), "HTTP/1.2");
        assertEquals("HTTP/1.1", rq.protocol());
        assertEquals("\"GET /a%20b?x=1 HTTP/1.2\" HTTP/1.2", line("\"%r\" %H", rq, response()));
        assertEquals("\"GET /a%20b?x=1 HTTP/1.1\" HTTP/1.1", line("\"%r\" %H", request(new Headers()), response()));
    }

    /** Only a format that prints the duration makes the filter read the monotonic clock. */
    @Test
    void timedOnlyWithADuration() {
        assertFalse(AccessLogFormat.compile("%h %l %u %t \"%r\" %>s %b").timed());
        assertTrue(AccessLogFormat.compile("%h %D").timed());
        assertTrue(AccessLogFormat.compile("%{ms}T").timed());
    }

    @Test
    void addresses() {
        for (String ip : new String[] {"0.0.0.0", "127.0.0.1", "255.254.128.9", "::1", "2001:db8::ff00:42:8329"}) {
            InetSocketAddress a = new InetSocketAddress(ip, 80);
            assertEquals(a.getAddress().getHostAddress(), new LogLine(0).ip(a).toString());
        }
        assertEquals("-", new LogLine(0).ip(null).toString());
        assertEquals("client.example", new LogLine(0).ip(InetSocketAddress.createUnresolved("client.example", 80))
                .toString());
    }

    /** Texts are cached by address: many clients sharing cache entries each still get their own. */
    @Test
    void manyAddressesThroughTheCache() throws Exception {
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < 3000; i++) {
                byte[] b = {10, (byte) (i >> 8), (byte) i, (byte) (round * 7 + i)};
                InetSocketAddress a = new InetSocketAddress(InetAddress.getByAddress(b), 80);
                assertEquals(a.getAddress().getHostAddress(), new LogLine(0).ip(a).toString());
            }
        }
    }

    @Test
    void badFormats() {
        assertThrows(IllegalArgumentException.class, () -> AccessLogFormat.compile("%Z"));
        assertThrows(IllegalArgumentException.class, () -> AccessLogFormat.compile("%{x"));
        assertThrows(IllegalArgumentException.class, () -> AccessLogFormat.compile("abc %"));
        assertThrows(IllegalArgumentException.class, () -> AccessLogFormat.compile("%i"));
        assertThrows(IllegalArgumentException.class, () -> AccessLogFormat.compile("%{x}h"));
        assertThrows(IllegalArgumentException.class, () -> AccessLogFormat.compile("%{x}a"));
        assertThrows(IllegalArgumentException.class, () -> AccessLogFormat.compile("%{%Y}t"));
    }

    private static Request request(Headers h) {
        return request(h, "HTTP/1.1");
    }

    private static Request request(Headers h, String rawProtocol) {
        return new Request() {
            public String method() { return "GET"; }
            public String rawTarget() { return "/a%20b?x=1"; }
            public String path() { return "/a b"; }
            public String encodedPath() { return "/a%20b"; }
            public String query() { return "x=1"; }
            public String queryParam(String name) { return null; }
            public Map<String, List<String>> queryParams() { return Map.of(); }
            public String pathParam(String name) { return null; }
            public String protocol() { return "HTTP/1.1"; }
            public String rawProtocol() { return rawProtocol; }
            public Headers headers() { return h; }
            public long contentLength() { return -1; }
            public InputStream body() { return InputStream.nullInputStream(); }
            public byte[] bodyBytes() { return new byte[0]; }
            public String bodyString() { return ""; }
            public InetSocketAddress remoteAddress() { return new InetSocketAddress("10.0.0.1", 5555); }
            public boolean isSecure() { return false; }
            public InetSocketAddress localAddress() { return new InetSocketAddress("10.0.0.2", 8080); }
            public long bytesReceived() { return 100; }
            private final Map<String, Object> attributes = new java.util.HashMap<>();
            public Map<String, Object> attributes() { return attributes; }
        };
    }

    private static Response response() {
        Headers h = new Headers().add("Content-Type", "text/plain");
        return new Response() {
            public Response status(int status) { return this; }
            public int status() { return 200; }
            public Response header(String name, String value) { return this; }
            public Headers headers() { return h; }
            public void send(byte[] body) { }
            public OutputStream outputStream() { return OutputStream.nullOutputStream(); }
            public void sendFile(Path file) { }
            public boolean isCommitted() { return true; }
            public long bytesSent() { return 142; }
            public long bodyBytesSent() { return 42; }
        };
    }
}
