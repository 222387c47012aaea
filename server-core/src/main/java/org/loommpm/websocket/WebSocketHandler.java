package org.loommpm.websocket;

/**
 * Application code for the WebSockets of one route ({@code Router.websocket}). One handler serves
 * every socket of its route: per-socket state goes in {@link WebSocketSession#attachment}.
 *
 * <p><b>Threads.</b> Each callback runs on a worker (a virtual thread holding a worker slot), so
 * it may block; the callbacks of one socket run one at a time, in order, never concurrently. While
 * nothing arrives, a socket holds no thread and no worker slot: it waits in its poller, and the
 * next frame dispatches a worker to call this handler again. Sending needs no callback: any thread
 * may send on a session at any time ({@link WebSocketSession}).
 *
 * <p><b>Failures.</b> A callback that throws closes its socket with 1011 (logged at ERROR).
 */
public interface WebSocketHandler {
    /**
     * The handshake succeeded and the socket is open; the first callback of every socket.
     *
     * @param session the socket
     * @throws Exception anything; it closes the socket with 1011
     */
    default void onOpen(WebSocketSession session) throws Exception {
    }

    /**
     * A whole text message (fragments already joined, UTF-8 checked, inflated if compressed).
     *
     * @param session the socket it arrived on
     * @param text the message
     * @throws Exception anything; it closes the socket with 1011
     */
    default void onText(WebSocketSession session, String text) throws Exception {
    }

    /**
     * A whole binary message (fragments already joined, inflated if compressed).
     *
     * @param session the socket it arrived on
     * @param data the message; the array is the handler's to keep
     * @throws Exception anything; it closes the socket with 1011
     */
    default void onBinary(WebSocketSession session, byte[] data) throws Exception {
    }

    /**
     * A pong, answering the server's ping or unsolicited (pings are answered by the server itself).
     *
     * @param session the socket it arrived on
     * @param payload the pong's application data (at most 125 bytes)
     * @throws Exception anything; it closes the socket with 1011
     */
    default void onPong(WebSocketSession session, byte[] payload) throws Exception {
    }

    /**
     * The socket closed; the last callback, called exactly once on every path.
     *
     * @param session the socket, no longer open
     * @param code the client's close status (1005 when its close frame had none), the status the
     *        server closed with, or 1006 when the connection ended without a close handshake
     * @param reason the close reason, possibly empty
     * @throws Exception anything; it is logged, the socket being already closed
     */
    default void onClose(WebSocketSession session, int code, String reason) throws Exception {
    }
}
