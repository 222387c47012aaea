package org.loommpm.websocket.server;

import java.util.concurrent.atomic.LongAdder;
import org.loommpm.spi.ProtocolCounters;

/** WebSockets and their messages, over HTTP/1.1 and HTTP/2, server-wide: registered with the server's first WebSocket. */
final class WebSocketCounters {
    private final LongAdder opened;
    private final LongAdder closed;
    private final LongAdder received;
    private final LongAdder sent;
    private final LongAdder inflateRefused;

    private WebSocketCounters(ProtocolCounters registry) {
        opened = registry.counter("loom.websocket.opened", "WebSockets opened (handshakes accepted)");
        closed = registry.gauge("loom.websocket.open", "WebSockets open (an idle one holds no worker, thread or buffer)",
                opened);
        String messages = "WebSocket messages by direction (received: whole messages from clients; sent: queued)";
        received = registry.counter("loom.websocket.messages", messages, "direction", "received");
        sent = registry.counter("loom.websocket.messages", messages, "direction", "sent");
        inflateRefused = registry.counter("loom.websocket.inflate.refused",
                "WebSockets closed 1008 for what they made the server inflate (WebSocketMaxInflateRatio, ClientChargeRate)");
    }

    /** {@return the server's WebSocket counts, registered on the first call} */
    static WebSocketCounters of(ProtocolCounters registry) {
        return registry.group(WebSocketCounters.class, WebSocketCounters::new);
    }

    /** A WebSocket opened (handshake answered). */
    void opened() {
        opened.increment();
    }

    /** A WebSocket ended (any path). */
    void closed() {
        closed.increment();
    }

    /** A whole message arrived from a client. */
    void messageReceived() {
        received.increment();
    }

    /** A message was queued for a client. */
    void messageSent() {
        sent.increment();
    }

    /** A socket was closed 1008 for a message's inflate ratio or its client's CPU share. */
    void inflateRefused() {
        inflateRefused.increment();
    }
}
