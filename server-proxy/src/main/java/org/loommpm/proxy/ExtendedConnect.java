package org.loommpm.proxy;

import java.io.IOException;
import java.util.Base64;
import java.util.concurrent.ThreadLocalRandom;
import org.loommpm.api.Headers;
import org.loommpm.api.Request;
import org.loommpm.http.ResponseState;
import org.loommpm.websocket.handshake.Handshake;

/**
 * An extended CONNECT (RFC 8441; an HTTP/2 stream asking for {@code :protocol}) passed through
 * as an intermediary does it (RFC 8441 §5): toward the backend an HTTP/1.1 {@code GET} with
 * {@code Connection: Upgrade} and {@code Upgrade: <protocol>}, and for {@code websocket} a
 * {@code Sec-WebSocket-Key} of the proxy's own (the client's {@code Sec-WebSocket-Version},
 * {@code -Protocol} and {@code -Extensions} go as they came), whose {@code Sec-WebSocket-Accept}
 * the backend's {@code 101} must carry. The 101 is answered {@code 200} on the stream with its
 * end-to-end fields (the subprotocol and extensions agreed), and the stream becomes a
 * {@link StreamTunnel}. Any other answer is relayed as the stream's response.
 *
 * @param protocol the {@code :protocol} asked for, as sent
 * @param key the {@code Sec-WebSocket-Key} sent to the backend, or {@code null} when not a WebSocket
 */
record ExtendedConnect(String protocol, String key) implements ClientUpgrade {
    private static final String WEBSOCKET = "websocket";

    /** The pass-through of {@code protocol}: with a fresh key when it is a WebSocket. */
    static ExtendedConnect of(String protocol) {
        if (!protocol.equalsIgnoreCase(WEBSOCKET)) {
            return new ExtendedConnect(protocol, null);
        }
        // A nonce (RFC 6455 §4.1): it proves the backend took the upgrade, it protects nothing.
        byte[] nonce = new byte[16];
        ThreadLocalRandom.current().nextBytes(nonce);
        return new ExtendedConnect(protocol, Base64.getEncoder().encodeToString(nonce));
    }

    /** A 2xx to an extended CONNECT opens the tunnel (RFC 8441 §5): a backend's 2xx instead of its 101 must not pass. */
    @Override
    public boolean successMeansSwitched() {
        return true;
    }

    @Override
    public String method(Request req) {
        return "GET";
    }

    /** The client's own key and accept, had it sent any, are not HTTP/2's (RFC 8441 §5): ours replace them. */
    @Override
    public boolean drops(String name) {
        return key != null && (Headers.equalsIgnoreCase(name, "Sec-WebSocket-Key")
                || Headers.equalsIgnoreCase(name, "Sec-WebSocket-Accept"));
    }

    @Override
    public void appendTo(HeadSink head) {
        head.ascii("Connection: Upgrade\r\nUpgrade: ").ascii(protocol).ascii("\r\n");
        if (key != null) {
            head.ascii("Sec-WebSocket-Key: ").ascii(key).ascii("\r\n");
        }
    }

    @Override
    public String refusal(ResponseHead switched) {
        Headers h = switched.headers();
        if (switched.status() != 101) {
            return "it answered " + switched.status() + " instead of switching";
        }
        if (!h.hasToken("Upgrade", protocol)) {
            return "it switched to \"" + h.first("Upgrade") + "\", not a protocol asked for";
        }
        if (key != null && !Handshake.accept(key).equals(trimmed(h.first("Sec-WebSocket-Accept")))) {
            return "its Sec-WebSocket-Accept does not match the key sent";
        }
        return null;
    }

    private static String trimmed(String s) {
        return s == null ? null : s.trim();
    }

    @Override
    public void answer(ResponseState res, ResponseHead switched, TunnelRelay relay) throws IOException {
        Headers to = res.headers();
        ProxyExchange.copyEndToEnd(switched.headers(), to);
        to.remove("Sec-WebSocket-Accept"); // the 101's proof for our key; the stream needs none
        res.status(200);
        res.tunnel(stream -> StreamTunnel.attach(stream, relay));
    }
}
