package org.loommpm.websocket.server;

import org.loommpm.spi.ConnectionProtocol;
import org.loommpm.spi.ProtocolConnection;

/**
 * WebSocket as the engine runs it on a connection that was upgraded from HTTP/1.1: each dispatch
 * (bytes arrived, a deadline, a stop) serves the connection's {@link WebSocketConnection}, its
 * session. Stateless and shared; everything per socket is in the session.
 *
 * <p>It {@link #closesGracefully() closes gracefully}: on a stop or an idle deadline the poller
 * dispatches a waiting socket instead of closing it, so the socket ends with a close frame (1001).
 */
public final class WebSocketProtocol implements ConnectionProtocol {
    /** The one instance. */
    public static final WebSocketProtocol INSTANCE = new WebSocketProtocol();

    private WebSocketProtocol() {
    }

    @Override
    public void serve(ProtocolConnection c, int slot) {
        WebSocketConnection ws = c.session(WebSocketConnection.class);
        ws.serve(c, slot);
    }

    @Override
    public boolean closesGracefully() {
        return true;
    }
}
