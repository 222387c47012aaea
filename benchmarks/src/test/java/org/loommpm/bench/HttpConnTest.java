package org.loommpm.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The open-loop client's response framing. */
class HttpConnTest {
    private static final String OK = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 13\r\n\r\nHello, World!";

    private static HttpConn with(String bytes) {
        HttpConn c = new HttpConn(null);
        c.in.put(bytes.getBytes(StandardCharsets.US_ASCII));
        return c;
    }

    @Test
    void completeResponseIsConsumed() {
        HttpConn c = with(OK);
        assertEquals(200, c.parse());
        assertEquals(0, c.in.position());
        assertFalse(c.closeAfter);
    }

    @Test
    void partialHeadOrBodyIsIncomplete() {
        assertEquals(HttpConn.INCOMPLETE, with(OK.substring(0, 20)).parse());
        assertEquals(HttpConn.INCOMPLETE, with(OK.substring(0, OK.length() - 1)).parse());
    }

    @Test
    void bytesAfterTheResponseStay() {
        HttpConn c = with(OK + "HTTP/1.1");
        assertEquals(200, c.parse());
        assertEquals(8, c.in.position());
    }

    @Test
    void headerNamesAreCaseInsensitiveAndCloseIsSeen() {
        HttpConn c = with("HTTP/1.1 503 Service Unavailable\r\ncontent-length: 0\r\nCONNECTION: close\r\n\r\n");
        assertEquals(503, c.parse());
        assertTrue(c.closeAfter);
    }

    @Test
    void noContentLengthCannotBeFramed() {
        assertEquals(HttpConn.UNFRAMEABLE, with("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n").parse());
    }
}
