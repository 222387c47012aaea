package org.loommpm.http1;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.loommpm.api.HttpException;
import org.loommpm.http.RequestHead;

class RequestHeadParserTest {
    private static final RequestHeadParser PARSER = new RequestHeadParser(8190, 100, 8190, 1L << 30);

    static RequestHead parse(RequestHeadParser parser, String head) {
        byte[] buf = head.getBytes(StandardCharsets.ISO_8859_1);
        return parser.parse(buf, 0, buf.length);
    }

    static RequestHead parse(String head) {
        return parse(PARSER, head);
    }

    static int status(RequestHeadParser parser, String head) {
        return assertThrows(HttpException.class, () -> parse(parser, head)).status();
    }

    @Test
    void parsesASimpleGet() {
        RequestHead h = parse("GET /index.html HTTP/1.1\r\nHost: example.com\r\nAccept: */*\r\n\r\n");
        assertEquals("GET", h.method());
        assertSame("GET", h.method(), "known methods are shared constants");
        assertEquals("/index.html", h.rawTarget());
        assertEquals("/index.html", h.path());
        assertNull(h.query());
        assertEquals(RequestHead.Version.HTTP_1_1, h.version());
        assertEquals("HTTP/1.1", h.version().text());
        assertEquals(2, h.headers().size());
        assertEquals("Accept", h.headers().name(1));
        assertEquals("*/*", h.headers().first("accept"));
        assertEquals("example.com", h.host());
        assertEquals(-1, h.contentLength());
        assertFalse(h.chunked());
        assertTrue(h.keepAlive());
        assertFalse(h.expectContinue());
        assertEquals("GET /index.html HTTP/1.1", h.toString());
    }

    @Test
    void aRepeatedRequestLineAndCommonFieldValuesAreHandedOutAgainNotCopied() {
        RequestHeadParser p = new RequestHeadParser(8190, 100, 8190, 0);
        String head = "GET /a?x=1 HTTP/1.1\r\nHost: example.com\r\nUser-Agent: ua\r\nX-Id: 1\r\n\r\n";
        RequestHead first = parse(p, head);
        RequestHead again = parse(p, head);
        assertSame(first.rawTarget(), again.rawTarget());
        assertSame(first.path(), again.path());
        assertSame(first.headers().first("Host"), again.headers().first("Host"));
        assertSame(first.headers().first("User-Agent"), again.headers().first("User-Agent"));
        assertEquals("1", again.headers().first("X-Id"));
        assertEquals("x=1", again.query());

        RequestHead other = parse(p, "POST /a?x=2 HTTP/1.1\r\nHost: example.org\r\nUser-Agent: ua\r\n"
                + "Content-Length: 0\r\n\r\n");
        assertEquals("POST", other.method());
        assertEquals("/a?x=2", other.rawTarget());
        assertEquals("x=2", other.query());
        assertEquals("example.org", other.host());
        assertEquals(0, other.contentLength());
        assertSame(first.headers().first("User-Agent"), other.headers().first("User-Agent"));
        assertEquals("POST", parse(p, "POST /a?x=2 HTTP/1.1\r\nHost: h\r\n\r\n").method());
        assertEquals(RequestHead.Version.HTTP_1_0, parse(p, "POST /a?x=2 HTTP/1.0\r\n\r\n").version(),
                "same method and target, another version");
        // Same length, other bytes; and obs-text (never shared, always decoded as ISO-8859-1).
        assertEquals("/b?x=2", parse(p, "GET /b?x=2 HTTP/1.1\r\nHost: example.org\r\n\r\n").rawTarget());
        assertEquals("example.net", parse(p, "GET / HTTP/1.1\r\nHost: example.net\r\n\r\n").host());
        String latin = "GET / HTTP/1.1\r\nHost: h\r\nUser-Agent: caf\u00e9\r\n\r\n";
        assertEquals("caf\u00e9", parse(p, latin).headers().first("User-Agent"));
        assertEquals("caf\u00e9", parse(p, latin).headers().first("User-Agent"));
    }

    @Test
    void commonFieldNamesAreSharedConstantsOthersKeepTheirSpelling() {
        RequestHead h = parse("GET / HTTP/1.1\r\nHost: h\r\nUser-Agent: u\r\nhost-ish: 1\r\nACCEPT: a\r\n\r\n");
        assertSame("Host", h.headers().name(0), "a common name in its usual spelling is a constant");
        assertSame("User-Agent", h.headers().name(1));
        assertEquals("host-ish", h.headers().name(2));
        assertEquals("ACCEPT", h.headers().name(3), "another spelling is kept as sent");
        assertEquals("a", h.headers().first("accept"));
    }

    @Test
    void acceptsBareLfLineEndsAndExtensionMethods() {
        RequestHead h = parse("PROPFIND /a HTTP/1.1\nHost: h\n\n");
        assertEquals("PROPFIND", h.method());
        assertEquals("h", h.host());
    }

    @Test
    void trimsOwsAndDecodesObsTextAsLatin1() {
        RequestHead h = parse("GET / HTTP/1.1\r\nHost: h\r\nX-A: \t a b \t\r\nX-Empty:\r\nX-Latin: caf\u00e9\r\n\r\n");
        assertEquals("a b", h.headers().first("X-A"));
        assertEquals("", h.headers().first("X-Empty"));
        assertEquals("caf\u00e9", h.headers().first("X-Latin"));
    }

    @Test
    void decodesPathAndKeepsRawQuery() {
        RequestHead h = parse("GET /a%20b/c+d/%E2%82%AC?x=1%202&y HTTP/1.1\r\nHost: h\r\n\r\n");
        assertEquals("/a b/c+d/\u20ac", h.path());
        assertEquals("x=1%202&y", h.query());
        assertEquals("/a%20b/c+d/%E2%82%AC?x=1%202&y", h.rawTarget());
        assertEquals("", parse("GET /p? HTTP/1.1\r\nHost: h\r\n\r\n").query());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "http://example.com/a%2Fb?q=1 | example.com | /a/b | q=1",
        "HTTP://example.com:8080     | example.com:8080 | / |",
        "https://[::1]:8443?x        | [::1]:8443 | / | x",
        "http://h/                   | h | / |",
    })
    void absoluteFormTakesPathQueryAndHostFromTheTarget(String target, String host, String path, String query) {
        RequestHead h = parse("GET " + target + " HTTP/1.1\r\nHost: other\r\n\r\n");
        assertEquals(host, h.host());
        assertEquals(List.of(host), h.headers().all("Host"), "the target's authority replaces Host");
        assertEquals(path, h.path());
        assertEquals(query, h.query());
        assertEquals(target, h.rawTarget());
    }

    @Test
    void asteriskFormForOptions() {
        RequestHead h = parse("OPTIONS * HTTP/1.1\r\nHost: h\r\n\r\n");
        assertEquals("*", h.path());
        assertNull(h.query());
    }

    @Test
    void authorityFormForConnect() {
        RequestHead h = parse("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n");
        assertEquals("example.com:443", h.host());
        assertEquals("", h.path());
        assertEquals("example.com:443", h.rawTarget());
    }

    @Test
    void http10MayOmitHost() {
        RequestHead h = parse("GET / HTTP/1.0\r\n\r\n");
        assertEquals(RequestHead.Version.HTTP_1_0, h.version());
        assertEquals("HTTP/1.0", h.version().text());
        assertNull(h.host());
        assertFalse(h.keepAlive());
    }

    /**
     * RFC 9110 §2.5: a message of a higher minor version than the recipient implements is
     * processed as the highest minor version of that major version it conforms to; so
     * {@code HTTP/1.2} to {@code HTTP/1.9} are HTTP/1.1 requests (Host required, persistent by
     * default, chunked and 100-continue allowed), and only the version as sent remembers them.
     */
    @ParameterizedTest
    @CsvSource({"HTTP/1.2", "HTTP/1.9"})
    void higherMinorVersionsAreProcessedAsHttp11(String version) {
        RequestHead h = parse("POST /p?q " + version + "\r\nHost: h\r\nExpect: 100-continue\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n");
        assertEquals(RequestHead.Version.HTTP_1_1, h.version());
        assertEquals(version, h.versionAsSent());
        assertEquals("POST /p?q " + version, h.toString(), "the request line as received");
        assertTrue(h.keepAlive());
        assertTrue(h.chunked());
        assertTrue(h.expectContinue());
        assertEquals("h", h.host());
        assertFalse(parse("GET / " + version + "\r\nHost: h\r\nConnection: close\r\n\r\n").keepAlive());
        assertEquals(400, status(PARSER, "GET / " + version + "\r\n\r\n"), "Host is required as in HTTP/1.1");
    }

    /** The version as sent is a shared constant; a repeated line is reused only for the same version. */
    @Test
    void theVersionAsSentIsAConstantAndPartOfTheRepeatedLine() {
        RequestHeadParser p = new RequestHeadParser(8190, 100, 8190, 0);
        RequestHead first = parse(p, "GET /a HTTP/1.2\r\nHost: h\r\n\r\n");
        RequestHead again = parse(p, "GET /a HTTP/1.2\r\nHost: h\r\n\r\n");
        assertSame(first.versionAsSent(), again.versionAsSent());
        assertSame(first.rawTarget(), again.rawTarget(), "the same line is handed out again");
        RequestHead v11 = parse(p, "GET /a HTTP/1.1\r\nHost: h\r\n\r\n");
        assertEquals(RequestHead.Version.HTTP_1_1, v11.version());
        assertSame(RequestHead.Version.HTTP_1_1.text(), v11.versionAsSent(), "1.1 as sent is the version's text");
        assertEquals("HTTP/1.2", parse(p, "GET /a HTTP/1.2\r\nHost: h\r\n\r\n").versionAsSent(),
                "same method, target and processed version, but another version sent");
        assertSame(RequestHead.Version.HTTP_1_0.text(), parse(p, "GET /a HTTP/1.0\r\n\r\n").versionAsSent());
    }

    @Test
    void emptyHostIsAllowed() {
        assertEquals("", parse("GET / HTTP/1.1\r\nHost:\r\n\r\n").host());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "HTTP/1.1 |                              | true",
        "HTTP/1.1 | Connection: close            | false",
        "HTTP/1.1 | Connection: Keep-Alive, CLOSE | false",
        "HTTP/1.1 | Connection: upgrade          | true",
        "HTTP/1.0 |                              | false",
        "HTTP/1.0 | Connection: keep-alive       | true",
        "HTTP/1.0 | Connection: Keep-Alive       | true",
        "HTTP/1.0 | Connection: keep-alive, close | false",
        "HTTP/1.2 |                              | true",
        "HTTP/1.2 | Connection: close            | false",
    })
    void keepAlive(String version, String connection, boolean expected) {
        String field = connection == null ? "" : connection + "\r\n";
        assertEquals(expected, parse("GET / " + version + "\r\nHost: h\r\n" + field + "\r\n").keepAlive());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "HTTP/1.1 | 100-continue | true",
        "HTTP/1.1 | 100-Continue | true",
        "HTTP/1.0 | 100-continue | false",
        "HTTP/1.2 | 100-continue | true",
    })
    void expectContinue(String version, String expect, boolean expected) {
        String head = "POST / " + version + "\r\nHost: h\r\nExpect: " + expect + "\r\nContent-Length: 1\r\n\r\n";
        assertEquals(expected, parse(head).expectContinue());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "Transfer-Encoding: chunked",
        "Transfer-Encoding: CHUNKED",
        "Transfer-Encoding: , chunked ,",
        "Transfer-Encoding:\tChunked\t",
    })
    void acceptsASingleChunked(String te) {
        RequestHead h = parse("POST / HTTP/1.1\r\nHost: h\r\n" + te + "\r\n\r\n");
        assertTrue(h.chunked());
        assertEquals(-1, h.contentLength());
    }

    @Test
    void judgesCodingsSplitOverSeveralFieldsAsOneList() {
        assertEquals(400, status(PARSER,
                "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n"));
        assertEquals(501, status(PARSER,
                "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n"));
    }

    @ParameterizedTest
    @CsvSource({"0, 0", "42, 42", "007, 7", "1073741824, 1073741824"})
    void contentLength(String value, long expected) {
        RequestHead h = parse("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: " + value + "\r\n\r\n");
        assertEquals(expected, h.contentLength());
        assertFalse(h.chunked());
    }

    static Stream<Arguments> malformed() {
        String host = "Host: h\r\n";
        return Stream.of(
                // request line
                Arguments.of("empty request line", "\r\n" + host + "\r\n", 400),
                Arguments.of("no target", "GET HTTP/1.1\r\n" + host + "\r\n", 400),
                Arguments.of("two spaces after method", "GET  / HTTP/1.1\r\n" + host + "\r\n", 400),
                Arguments.of("two spaces before version", "GET /  HTTP/1.1\r\n" + host + "\r\n", 400),
                Arguments.of("trailing space", "GET / HTTP/1.1 \r\n" + host + "\r\n", 400),
                Arguments.of("leading space", " GET / HTTP/1.1\r\n" + host + "\r\n", 400),
                Arguments.of("tab separator", "GET\t/ HTTP/1.1\r\n" + host + "\r\n", 400),
                Arguments.of("method not a token", "G(T / HTTP/1.1\r\n" + host + "\r\n", 400),
                Arguments.of("space in target", "GET /a b HTTP/1.1\r\n" + host + "\r\n", 400),
                Arguments.of("tab in target", "GET /a\tb HTTP/1.1\r\n" + host + "\r\n", 400),
                Arguments.of("CTL in target", "GET /a\u0001b HTTP/1.1\r\n" + host + "\r\n", 400),
                Arguments.of("DEL in target", "GET /a\u007fb HTTP/1.1\r\n" + host + "\r\n", 400),
                Arguments.of("non-ASCII in target", "GET /caf\u00e9 HTTP/1.1\r\n" + host + "\r\n", 400),
                Arguments.of("fragment in target", "GET /a#b HTTP/1.1\r\n" + host + "\r\n", 400),
                Arguments.of("relative target", "GET a/b HTTP/1.1\r\n" + host + "\r\n", 400),
                Arguments.of("asterisk with GET", "GET * HTTP/1.1\r\n" + host + "\r\n", 400),
                Arguments.of("authority-form with GET", "GET example.com:80 HTTP/1.1\r\n" + host + "\r\n", 400),
                Arguments.of("CONNECT origin-form", "CONNECT / HTTP/1.1\r\n" + host + "\r\n", 400),
                Arguments.of("CONNECT without port", "CONNECT example.com HTTP/1.1\r\n" + host + "\r\n", 400),
                Arguments.of("CONNECT with userinfo", "CONNECT u@example.com:443 HTTP/1.1\r\n" + host + "\r\n", 400),
                Arguments.of("unknown scheme", "GET ftp://h/ HTTP/1.1\r\n" + host + "\r\n", 400),
                Arguments.of("absolute-form empty host", "GET http:///a HTTP/1.1\r\n" + host + "\r\n", 400),
                Arguments.of("absolute-form userinfo", "GET http://u:p@h/a HTTP/1.1\r\n" + host + "\r\n", 400),
                Arguments.of("bad escape in path", "GET /a%zz HTTP/1.1\r\n" + host + "\r\n", 400),
                Arguments.of("truncated escape in path", "GET /a%2 HTTP/1.1\r\n" + host + "\r\n", 400),
                Arguments.of("NUL in path", "GET /a%00b HTTP/1.1\r\n" + host + "\r\n", 400),
                Arguments.of("invalid UTF-8 in path", "GET /a%C3%28 HTTP/1.1\r\n" + host + "\r\n", 400),
                Arguments.of("overlong UTF-8 in path", "GET /%C0%AF HTTP/1.1\r\n" + host + "\r\n", 400),
                Arguments.of("lowercase version", "GET / http/1.1\r\n" + host + "\r\n", 400),
                Arguments.of("short version", "GET / HTTP/1\r\n" + host + "\r\n", 400),
                Arguments.of("two-digit major", "GET / HTTP/11.1\r\n" + host + "\r\n", 400),
                Arguments.of("two-digit major 10", "GET / HTTP/10.1\r\n" + host + "\r\n", 400),
                Arguments.of("two-digit minor", "GET / HTTP/1.10\r\n" + host + "\r\n", 400),
                Arguments.of("lowercase higher minor", "GET / http/1.2\r\n" + host + "\r\n", 400),
                Arguments.of("HTTP/0.9 style", "GET /\r\n" + host + "\r\n", 400),
                // Only another major version is a 505. "version 1.2" was one here too until HTTP/1.2
                // was served as HTTP/1.1: RFC 9110 §2.5 has a recipient process a higher minor
                // version as the highest one it conforms to, as httpd does (see
                // higherMinorVersionsAreProcessedAsHttp11).
                Arguments.of("version 2.0", "GET / HTTP/2.0\r\n" + host + "\r\n", 505),
                Arguments.of("version 3.0", "GET / HTTP/3.0\r\n" + host + "\r\n", 505),
                Arguments.of("version 0.9", "GET / HTTP/0.9\r\n" + host + "\r\n", 505),
                Arguments.of("version 1.2 without Host", "GET / HTTP/1.2\r\n\r\n", 400),
                Arguments.of("version 1.9 with Transfer-Encoding and Content-Length",
                        "POST / HTTP/1.9\r\n" + host + "Transfer-Encoding: chunked\r\nContent-Length: 1\r\n\r\n", 400),
                Arguments.of("bare CR in request line", "GET /\r HTTP/1.1\r\n" + host + "\r\n", 400),
                Arguments.of("bare CR ending request line", "GET / HTTP/1.1\r\r\n" + host + "\r\n", 400),
                // fields
                Arguments.of("space before colon", "GET / HTTP/1.1\r\nHost : h\r\n\r\n", 400),
                Arguments.of("tab before colon", "GET / HTTP/1.1\r\n" + host + "X-A\t: 1\r\n\r\n", 400),
                Arguments.of("no colon", "GET / HTTP/1.1\r\n" + host + "X-A\r\n\r\n", 400),
                Arguments.of("empty name", "GET / HTTP/1.1\r\n" + host + ": v\r\n\r\n", 400),
                Arguments.of("name not a token", "GET / HTTP/1.1\r\n" + host + "X(A): v\r\n\r\n", 400),
                Arguments.of("obs-fold", "GET / HTTP/1.1\r\n" + host + "X-A: 1\r\n 2\r\n\r\n", 400),
                Arguments.of("obs-fold with tab", "GET / HTTP/1.1\r\n" + host + "X-A: 1\r\n\t2\r\n\r\n", 400),
                Arguments.of("whitespace after request line", "GET / HTTP/1.1\r\n " + host + "\r\n", 400),
                Arguments.of("NUL in value", "GET / HTTP/1.1\r\n" + host + "X-A: a\u0000b\r\n\r\n", 400),
                Arguments.of("bare CR in value", "GET / HTTP/1.1\r\n" + host + "X-A: a\rb\r\n\r\n", 400),
                Arguments.of("CR before CR LF", "GET / HTTP/1.1\r\n" + host + "X-A: a\r\r\n\r\n", 400),
                Arguments.of("DEL in value", "GET / HTTP/1.1\r\n" + host + "X-A: a\u007fb\r\n\r\n", 400),
                Arguments.of("ESC in value", "GET / HTTP/1.1\r\n" + host + "X-A: \u001b[1m\r\n\r\n", 400),
                Arguments.of("no empty line", "GET / HTTP/1.1\r\n" + host, 400),
                // Host
                Arguments.of("HTTP/1.1 without Host", "GET / HTTP/1.1\r\n\r\n", 400),
                Arguments.of("two Hosts", "GET / HTTP/1.1\r\nHost: a\r\nhost: a\r\n\r\n", 400),
                Arguments.of("two Hosts in 1.0", "GET / HTTP/1.0\r\nHost: a\r\nHost: b\r\n\r\n", 400),
                Arguments.of("absolute-form without Host", "GET http://h/ HTTP/1.1\r\n\r\n", 400),
                Arguments.of("Host with space", "GET / HTTP/1.1\r\nHost: a b\r\n\r\n", 400),
                Arguments.of("Host with slash", "GET / HTTP/1.1\r\nHost: a/b\r\n\r\n", 400),
                Arguments.of("Host with userinfo", "GET / HTTP/1.1\r\nHost: u@a\r\n\r\n", 400),
                Arguments.of("Host with bad port", "GET / HTTP/1.1\r\nHost: a:8x\r\n\r\n", 400),
                Arguments.of("Host with big port", "GET / HTTP/1.1\r\nHost: a:65536\r\n\r\n", 400),
                Arguments.of("Host with two colons", "GET / HTTP/1.1\r\nHost: a:1:2\r\n\r\n", 400),
                Arguments.of("Host port only", "GET / HTTP/1.1\r\nHost: :80\r\n\r\n", 400),
                Arguments.of("Host unclosed IPv6", "GET / HTTP/1.1\r\nHost: [::1\r\n\r\n", 400),
                Arguments.of("Host bad escape", "GET / HTTP/1.1\r\nHost: a%2\r\n\r\n", 400),
                Arguments.of("Host obs-text", "GET / HTTP/1.1\r\nHost: caf\u00e9\r\n\r\n", 400),
                Arguments.of("invalid Host in 1.0", "GET / HTTP/1.0\r\nHost: a,b/c\r\n\r\n", 400),
                // Content-Length
                Arguments.of("two Content-Lengths", "POST / HTTP/1.1\r\n" + host
                        + "Content-Length: 1\r\nContent-Length: 1\r\n\r\n", 400),
                Arguments.of("Content-Length list", "POST / HTTP/1.1\r\n" + host + "Content-Length: 1, 1\r\n\r\n", 400),
                Arguments.of("Content-Length empty", "POST / HTTP/1.1\r\n" + host + "Content-Length:\r\n\r\n", 400),
                Arguments.of("Content-Length plus", "POST / HTTP/1.1\r\n" + host + "Content-Length: +1\r\n\r\n", 400),
                Arguments.of("Content-Length minus", "POST / HTTP/1.1\r\n" + host + "Content-Length: -1\r\n\r\n", 400),
                Arguments.of("Content-Length hex", "POST / HTTP/1.1\r\n" + host + "Content-Length: 0x10\r\n\r\n", 400),
                Arguments.of("Content-Length inner space", "POST / HTTP/1.1\r\n" + host + "Content-Length: 1 0\r\n\r\n", 400),
                Arguments.of("Content-Length overflow", "POST / HTTP/1.1\r\n" + host
                        + "Content-Length: 9223372036854775808\r\n\r\n", 400),
                Arguments.of("Content-Length over limit", "POST / HTTP/1.1\r\n" + host
                        + "Content-Length: 9223372036854775807\r\n\r\n", 413),
                // Transfer-Encoding
                Arguments.of("TE and CL", "POST / HTTP/1.1\r\n" + host
                        + "Transfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n", 400),
                Arguments.of("TE and CL over limit", "POST / HTTP/1.1\r\n" + host
                        + "Content-Length: 9223372036854775807\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
                Arguments.of("TE in HTTP/1.0", "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
                Arguments.of("TE empty", "POST / HTTP/1.1\r\n" + host + "Transfer-Encoding:\r\n\r\n", 400),
                Arguments.of("TE only commas", "POST / HTTP/1.1\r\n" + host + "Transfer-Encoding: , ,\r\n\r\n", 400),
                Arguments.of("TE empty second field", "POST / HTTP/1.1\r\n" + host
                        + "Transfer-Encoding: chunked\r\nTransfer-Encoding:\r\n\r\n", 400),
                Arguments.of("TE chunked twice", "POST / HTTP/1.1\r\n" + host
                        + "Transfer-Encoding: chunked, chunked\r\n\r\n", 400),
                Arguments.of("TE chunked not last", "POST / HTTP/1.1\r\n" + host
                        + "Transfer-Encoding: chunked, gzip\r\n\r\n", 400),
                Arguments.of("TE chunked not last over fields", "POST / HTTP/1.1\r\n" + host
                        + "Transfer-Encoding: chunked\r\nTransfer-Encoding: gzip\r\n\r\n", 400),
                Arguments.of("TE chunked with parameter", "POST / HTTP/1.1\r\n" + host
                        + "Transfer-Encoding: chunked;a=b\r\n\r\n", 400),
                Arguments.of("TE not a token", "POST / HTTP/1.1\r\n" + host + "Transfer-Encoding: \"chunked\"\r\n\r\n", 400),
                Arguments.of("TE chunked with junk", "POST / HTTP/1.1\r\n" + host
                        + "Transfer-Encoding: chunked x\r\n\r\n", 400),
                Arguments.of("TE registered without chunked", "POST / HTTP/1.1\r\n" + host
                        + "Transfer-Encoding: gzip\r\n\r\n", 400),
                Arguments.of("TE gzip then chunked", "POST / HTTP/1.1\r\n" + host
                        + "Transfer-Encoding: gzip, chunked\r\n\r\n", 501),
                Arguments.of("TE unknown then chunked", "POST / HTTP/1.1\r\n" + host
                        + "Transfer-Encoding: foo, chunked\r\n\r\n", 501),
                Arguments.of("TE unknown alone", "POST / HTTP/1.1\r\n" + host + "Transfer-Encoding: foo\r\n\r\n", 501),
                Arguments.of("TE identity", "POST / HTTP/1.1\r\n" + host + "Transfer-Encoding: identity\r\n\r\n", 501),
                // Expect
                Arguments.of("Expect other", "POST / HTTP/1.1\r\n" + host + "Expect: 200-ok\r\n\r\n", 417),
                Arguments.of("Expect list", "POST / HTTP/1.1\r\n" + host + "Expect: 100-continue, foo\r\n\r\n", 417),
                Arguments.of("Expect empty", "POST / HTTP/1.1\r\n" + host + "Expect:\r\n\r\n", 417),
                Arguments.of("Expect other in 1.0", "POST / HTTP/1.0\r\nExpect: foo\r\n\r\n", 417));
    }

    @ParameterizedTest(name = "{0} -> {2}")
    @MethodSource("malformed")
    void rejectsMalformedHeads(String name, String head, int expected) {
        assertEquals(expected, status(PARSER, head));
    }

    @Test
    void limitsRequestLine() {
        RequestHeadParser p = new RequestHeadParser(64, 100, 8190, 0);
        String atLimit = "GET /" + "a".repeat(64 - "GET / HTTP/1.1".length()) + " HTTP/1.1";
        assertEquals(64, atLimit.length());
        assertEquals("GET", parse(p, atLimit + "\r\nHost: h\r\n\r\n").method());
        assertEquals(414, status(p, atLimit.replace("GET /", "GET /b") + "\r\nHost: h\r\n\r\n"));
        assertEquals(414, status(p, atLimit.replace("GET /", "GET /b") + "\nHost: h\n\n"));
    }

    @Test
    void limitsFieldLineSize() {
        RequestHeadParser p = new RequestHeadParser(8190, 100, 32, 0);
        String atLimit = "X-Long: " + "v".repeat(32 - "X-Long: ".length());
        assertEquals(32, atLimit.length());
        assertEquals(32 - 8, parse(p, "GET / HTTP/1.1\r\nHost: h\r\n" + atLimit + "\r\n\r\n")
                .headers().first("X-Long").length());
        assertEquals(431, status(p, "GET / HTTP/1.1\r\nHost: h\r\n" + atLimit + "v\r\n\r\n"));
    }

    @Test
    void limitsFieldCount() {
        RequestHeadParser p = new RequestHeadParser(8190, 3, 8190, 0);
        String three = "GET / HTTP/1.1\r\nHost: h\r\nA: 1\r\nB: 2\r\n";
        assertEquals(3, parse(p, three + "\r\n").headers().size());
        assertEquals(431, status(p, three + "C: 3\r\n\r\n"));
    }

    @Test
    void limitsContentLength() {
        RequestHeadParser p = new RequestHeadParser(8190, 100, 8190, 100);
        String head = "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: ";
        assertEquals(100, parse(p, head + "100\r\n\r\n").contentLength());
        assertEquals(413, status(p, head + "101\r\n\r\n"));
        RequestHeadParser unlimited = new RequestHeadParser(8190, 100, 8190, 0);
        assertEquals(Long.MAX_VALUE, parse(unlimited, head + Long.MAX_VALUE + "\r\n\r\n").contentLength());
    }

    @Test
    void parsesAtAnOffsetWithinTheBuffer() {
        byte[] buf = "junkGET /x HTTP/1.1\r\nHost: h\r\n\r\nnext".getBytes(StandardCharsets.ISO_8859_1);
        RequestHead h = PARSER.parse(buf, 4, buf.length - 4);
        assertEquals("/x", h.path());
        assertEquals(List.of("h"), h.headers().all("Host"));
    }
}
