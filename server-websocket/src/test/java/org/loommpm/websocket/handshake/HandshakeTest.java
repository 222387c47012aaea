package org.loommpm.websocket.handshake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.loommpm.api.Headers;

/** RFC 6455 §4.2 server-side checks. */
class HandshakeTest {
    private static final Handshake.Policy OPEN = new Handshake.Policy(List.of("chat", "superchat"), null, true, false);

    private static Headers valid() {
        return new Headers().add("Host", "server.example.com").add("Upgrade", "websocket")
                .add("Connection", "keep-alive, Upgrade").add("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==")
                .add("Sec-WebSocket-Version", "13");
    }

    @Test
    void theRfcExampleKey() {
        Handshake.Result r = Handshake.checkHttp1("GET", "HTTP/1.1", false, valid(), OPEN);
        assertTrue(r.accepted());
        assertEquals(101, r.status());
        assertEquals("s3pPLMBiTxaQ9kYGzzhZRbK+xOo=", r.accept());
        assertNull(r.subprotocol());
        assertNull(r.deflate());
    }

    @Test
    void refusals() {
        assertEquals(426, Handshake.checkHttp1("GET", "HTTP/1.1", false, new Headers(), OPEN).status());
        assertEquals(400, Handshake.checkHttp1("POST", "HTTP/1.1", false, valid(), OPEN).status());
        assertEquals(400, Handshake.checkHttp1("GET", "HTTP/1.0", false, valid(), OPEN).status());
        assertEquals(400, Handshake.checkHttp1("GET", "HTTP/1.1", true, valid(), OPEN).status());
        Headers noConnection = valid();
        noConnection.remove("Connection");
        assertEquals(400, Handshake.checkHttp1("GET", "HTTP/1.1", false, noConnection, OPEN).status());
        assertEquals(426, Handshake.checkHttp1("GET", "HTTP/1.1", false, valid().set("Sec-WebSocket-Version", "8"), OPEN).status());
        assertEquals(400, Handshake.checkHttp1("GET", "HTTP/1.1", false, valid().set("Sec-WebSocket-Key", "c2hvcnQ="), OPEN).status());
        assertEquals(400, Handshake.checkHttp1("GET", "HTTP/1.1", false,
                valid().add("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="), OPEN).status());
        Handshake.Policy onlyExample = new Handshake.Policy(List.of(), o -> "https://example.com".equals(o), false, false);
        assertEquals(403, Handshake.checkHttp1("GET", "HTTP/1.1", false, valid().set("Origin", "https://evil.test"), onlyExample).status());
        assertEquals(403, Handshake.checkHttp1("GET", "HTTP/1.1", false, valid(), onlyExample).status(), "no Origin");
        assertTrue(Handshake.checkHttp1("GET", "HTTP/1.1", false, valid().set("Origin", "https://example.com"), onlyExample).accepted());
    }

    @Test
    void subprotocolIsTheClientsFirstSupportedOne() {
        Headers h = valid().add("Sec-WebSocket-Protocol", "v1.other, superchat").add("Sec-WebSocket-Protocol", "chat");
        assertEquals("superchat", Handshake.checkHttp1("GET", "HTTP/1.1", false, h, OPEN).subprotocol());
        Headers none = valid().add("Sec-WebSocket-Protocol", "mqtt");
        assertNull(Handshake.checkHttp1("GET", "HTTP/1.1", false, none, OPEN).subprotocol());
    }

    @Test
    void deflateIsNegotiatedWhenOffered() {
        Headers h = valid().add("Sec-WebSocket-Extensions", "x-unknown, permessage-deflate; client_max_window_bits");
        Handshake.Result r = Handshake.checkHttp1("GET", "HTTP/1.1", false, h, OPEN);
        assertEquals("permessage-deflate; server_no_context_takeover; client_no_context_takeover", r.deflate().responseHeader());
        Handshake.Policy off = new Handshake.Policy(List.of(), null, false, false);
        assertNull(Handshake.checkHttp1("GET", "HTTP/1.1", false, h, off).deflate());
    }

}
