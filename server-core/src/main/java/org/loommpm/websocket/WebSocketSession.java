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
    /**
     * Queues a text message; see the class comment.
     *
     * @param text the message
     * @return {@code true} if queued, {@code false} if the queue is full or the socket is closed
     */
    boolean sendText(String text);

    /**
     * Queues a binary message; see the class comment.
     *
     * @param data the message; the array must not be changed afterwards
     * @return {@code true} if queued, {@code false} if the queue is full or the socket is closed
     */
    boolean sendBinary(byte[] data);

    /**
     * Queues a ping; the client's pong reaches {@link WebSocketHandler#onPong}.
     *
     * @param payload the ping's application data, at most 125 bytes
     * @return {@code true} if queued, {@code false} if the queue is full or the socket is closed
     * @throws IllegalArgumentException if the payload is longer than 125 bytes
     */
    boolean sendPing(byte[] payload);

    /**
     * {@return a future that completes when the outbound queue has room again (at once if it has),
     * or exceptionally when the socket closes first} Its dependent actions run on the thread that completes it (a
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
     * @param reason the close reason (may be empty)
     * @throws IllegalArgumentException if {@code code} is not a status a server may send
     */
    void close(int code, String reason);

    /** Closes with 1000 and no reason. */
    default void close() {
        close(1000, "");
    }

    /** {@return whether the socket is open: no close frame sent or received, the connection not ended} */
    boolean isOpen();

    /** {@return the connection's id (unique across the server; the same as in its logs)} */
    long id();

    /** {@return the request path of the handshake, percent-decoded} */
    String path();

    /** {@return the handshake's raw query string, without {@code ?}, or {@code null}} */
    String query();

    /**
     * {@return a path template variable of the route, or {@code null}}
     *
     * @param name the variable's name in the route's template
     */
    String pathParam(String name);

    /**
     * {@return a request header field of the handshake ({@code Cookie}, {@code Authorization}, ...),
     * or {@code null}}
     *
     * @param name the field name, case-insensitive
     */
    String requestHeader(String name);

    /** {@return the agreed subprotocol, or {@code null}} */
    String subprotocol();

    /** {@return whether permessage-deflate was agreed} */
    boolean compressed();

    /** {@return whether the socket runs over TLS ({@code wss})} */
    boolean isSecure();

    /** {@return the client's address} */
    InetSocketAddress remoteAddress();

    /** {@return the application's per-socket state, or {@code null}} */
    Object attachment();

    /**
     * Stores the application's per-socket state (visible to every later callback and thread: volatile).
     *
     * @param value the state, or {@code null}
     */
    void attachment(Object value);
}
