package org.loommpm.websocket;

import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;

/**
 * One open WebSocket, as the application sees it: what the handshake asked and agreed, and
 * sending.
 *
 * <p><b>Sending from any thread.</b> Every {@code send*} method may be called from any thread,
 * never blocks, and holds no thread afterwards: the frame is queued on the connection's bounded
 * outbound queue and written by its poller (or a briefly dispatched worker), so a broadcast to
 * 10,000 sockets is 10,000 queue offers from one thread. Messages from one thread go out in the
 * order sent. A send returns {@code false} when the frame was not queued: the queue is full (the
 * client reads too slowly: wait for {@link #whenWritable()}, drop the message, or close: the
 * policy is the caller's), or the socket is closed ({@link #isOpen()}).
 *
 * <p>Messages are sent whole (one frame each), compressed when permessage-deflate was agreed and
 * the message is worth it. Pings from the client are answered by the server.
 */
public interface WebSocketSession {
    /** Queues a text message; see the class comment. */
    boolean sendText(String text);

    /** Queues a binary message; see the class comment. */
    boolean sendBinary(byte[] data);

    /** Queues a ping (at most 125 bytes of payload); the client's pong reaches {@link WebSocketHandler#onPong}. */
    boolean sendPing(byte[] payload);

    /**
     * Completes when the outbound queue has room again (at once if it has), or exceptionally when
     * the socket closes first. Its dependent actions run on the thread that completes it (a
     * poller): keep them short, never block in them.
     */
    CompletableFuture<Void> whenWritable();

    /**
     * Starts the close handshake from any thread: queues a close frame with {@code code} and
     * {@code reason} (cut to 123 bytes of UTF-8) after what is already queued; the connection
     * ends once it is written. {@link WebSocketHandler#onClose} follows with this code. Does
     * nothing if the socket is already closing.
     *
     * @param code a status a server may send: 1000-1003, 1007-1014, or 3000-4999
     */
    void close(int code, String reason);

    /** Closes with 1000 and no reason. */
    default void close() {
        close(1000, "");
    }

    /** Whether the socket is open: no close frame sent or received, the connection not ended. */
    boolean isOpen();

    /** The connection's id (unique across the server; the same as in its logs). */
    long id();

    /** The request path of the handshake, percent-decoded. */
    String path();

    /** The handshake's raw query string, without {@code ?}, or {@code null}. */
    String query();

    /** A path template variable of the route, or {@code null}. */
    String pathParam(String name);

    /** A request header field of the handshake ({@code Cookie}, {@code Authorization}, ...), or {@code null}. */
    String requestHeader(String name);

    /** The agreed subprotocol, or {@code null}. */
    String subprotocol();

    /** Whether permessage-deflate was agreed. */
    boolean compressed();

    /** Whether the socket runs over TLS ({@code wss}). */
    boolean isSecure();

    /** The client's address. */
    InetSocketAddress remoteAddress();

    /** The application's per-socket state, or {@code null}. */
    Object attachment();

    /** Stores the application's per-socket state (visible to every later callback and thread: volatile). */
    void attachment(Object value);
}
