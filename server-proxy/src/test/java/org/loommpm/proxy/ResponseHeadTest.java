package org.loommpm.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Strict parsing of a backend's response head and the body framing it implies (RFC 9112 §6.3). */
class ResponseHeadTest {
    private static ResponseHead parse(String s) throws BackendProtocolException {
        byte[] b = s.getBytes(StandardCharsets.ISO_8859_1);
        return ResponseHead.parse(b, 0, b.length);
    }

    /** The framing as the proxy works it out: Content-Length parsed first, then passed in. */
    private static ResponseHead.Framing framing(ResponseHead h, boolean headRequest) throws BackendProtocolException {
        return h.framing(headRequest, h.contentLength());
    }

    @Test
    void parsesStatusFieldsAndFraming() throws Exception {
        ResponseHead h = parse("HTTP/1.1 201 Created\r\nX-A:  v \r\nContent-Length: 7\r\n\r\n");
        assertEquals(201, h.status());
        assertEquals("Created", h.reason());
        assertEquals("v", h.headers().first("x-a"));
        assertEquals(ResponseHead.Framing.LENGTH, framing(h, false));
        assertEquals(ResponseHead.Framing.NONE, framing(h, true), "HEAD: no body whatever the fields say");
        assertTrue(h.keepAlive());
        assertEquals(200, parse("HTTP/1.1 200\r\n\r\n").status(), "the reason phrase may be absent");
    }

    @Test
    void aConnectionsNextHeadReusesTheFieldStringsItRepeatsOnly() throws Exception {
        RecentFields recent = new RecentFields();
        byte[] first = "HTTP/1.1 200 OK\r\nServer: nginx\r\nContent-Length: 13\r\nX-Id: a\r\n\r\n"
                .getBytes(StandardCharsets.ISO_8859_1);
        byte[] second = "HTTP/1.1 200 OK\r\nServer: nginx\r\nContent-Length: 5\r\nX-Other: a\r\nX-More: \u00e9\r\n\r\n"
                .getBytes(StandardCharsets.ISO_8859_1);
        ResponseHead a = ResponseHead.parse(first, 0, first.length, recent);
        ResponseHead b = ResponseHead.parse(second, 0, second.length, recent);
        assertTrue(a.headers().first("Server") == b.headers().first("Server"), "a repeated value is the same string");
        assertEquals("5", b.headers().first("Content-Length"));
        assertEquals(5, b.contentLength(), "a changed value is parsed anew");
        assertEquals("a", b.headers().first("X-Other"), "a new name at a known position");
        assertEquals(null, b.headers().first("X-Id"));
        assertEquals("\u00e9", b.headers().first("X-More"), "obs-text kept as ISO-8859-1");
        ResponseHead c = ResponseHead.parse(first, 0, first.length, recent);
        assertEquals("13", c.headers().first("Content-Length"));
        assertEquals("a", c.headers().first("X-Id"));
    }

    @Test
    void chunkedWinsOverLengthAndOtherCodingsAreRefused() throws Exception {
        assertEquals(ResponseHead.Framing.CHUNKED,
                framing(parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n"), false));
        assertThrows(BackendProtocolException.class,
                () -> framing(parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n"), false));
        assertThrows(BackendProtocolException.class,
                () -> framing(parse("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n"), false));
        assertEquals(ResponseHead.Framing.CLOSE, framing(parse("HTTP/1.0 200 OK\r\n\r\n"), false));
        assertFalse(parse("HTTP/1.0 200 OK\r\nContent-Length: 1\r\n\r\n").keepAlive());
        assertFalse(parse("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n").keepAlive());
        assertEquals(ResponseHead.Framing.NONE, framing(parse("HTTP/1.1 304 Not Modified\r\nContent-Length: 9\r\n\r\n"), false));
    }

    @Test
    void refusesWhatCouldSplitAResponse() {
        assertThrows(BackendProtocolException.class, () -> framing(parse("HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\n"),
                false));
        assertThrows(BackendProtocolException.class, () -> framing(parse("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n"), false));
        assertThrows(BackendProtocolException.class, () -> parse("HTTP/1.1 200 OK\r\nX: a\r\n folded\r\n\r\n"));
        assertThrows(BackendProtocolException.class, () -> parse("HTTP/1.1 200 OK\r\nBad Name: a\r\n\r\n"));
        assertThrows(BackendProtocolException.class, () -> parse("HTTP/1.1 200 OK\r\nX: a\u0000b\r\n\r\n"));
        assertThrows(BackendProtocolException.class, () -> parse("HTTP/2.0 200 OK\r\n\r\n"));
        assertThrows(BackendProtocolException.class, () -> parse("HTTP/1.1 2x0 OK\r\n\r\n"));
        assertThrows(BackendProtocolException.class, () -> framing(parse("HTTP/1.0 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"),
                false));
        assertEquals(5, assertDoesNotThrowLength("HTTP/1.1 200 OK\r\nContent-Length: 5, 5\r\n\r\n"));
    }

    @Test
    void bareLineFeedsEndLinesToo() throws Exception {
        ResponseHead h = parse("HTTP/1.1 404 Not Found\nX-A: 1\nContent-Length: 0\n\n");
        assertEquals(404, h.status());
        assertEquals("Not Found", h.reason());
        assertEquals("1", h.headers().first("X-A"));
        assertEquals(0, h.contentLength());
    }

    @Test
    void aMalformedLengthIsRefusedWhenTheFramingIsWorkedOut() throws Exception {
        for (String cl : new String[] {"5,", "", "1x", "5, 6", "9999999999999999999"}) {
            ResponseHead h = parse("HTTP/1.1 200 OK\r\nContent-Length: " + cl + "\r\n\r\n");
            assertThrows(BackendProtocolException.class, h::contentLength, cl);
        }
        assertEquals(-1, parse("HTTP/1.1 200 OK\r\n\r\n").contentLength());
        assertEquals(7, parse("HTTP/1.1 200 OK\r\ncontent-length: 7\r\nContent-Length:7\r\n\r\n").contentLength());
    }

    private static long assertDoesNotThrowLength(String s) {
        try {
            return parse(s).contentLength();
        } catch (BackendProtocolException e) {
            throw new AssertionError(e);
        }
    }
}
