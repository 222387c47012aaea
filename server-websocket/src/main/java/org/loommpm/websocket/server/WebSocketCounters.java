package org.loommpm.websocket.server;

import java.util.concurrent.atomic.LongAdder;
import org.loommpm.spi.ProtocolCounters;

/** WebSockets and their messages, over HTTP/1.1 and HTTP/2, server-wide: registered with the server's first WebSocket. */
final class WebSocketCounters {
    private final LongAdder opened;
    private final LongAdder closed;
    private final LongAdder received;
    private final LongAdder sent;

    private WebSocketCounters(ProtocolCounters registry) {
        opened = registry.counter("loom.websocket.opened", "WebSockets opened (handshakes accepted)");
        closed = registry.gauge("loom.websocket.open", "WebSockets open (an idle one holds no worker, thread or buffer)",
                opened);
        String messages = "WebSocket messages by direction (received: whole messages from clients; sent: queued)";
        received = registry.counter("loom.websocket.messages", messages, "direction", "received");
        sent = registry.counter("loom.websocket.messages", messages, "direction", "sent");
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
}
