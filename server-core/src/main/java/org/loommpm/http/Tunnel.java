package org.loommpm.http;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import org.loommpm.config.ServerConfig;
import org.loommpm.spi.ChildServices;
import org.loommpm.spi.OutboundQueue;

/**
 * A stream of a multiplexed connection that carries another protocol's bytes both ways: an
 * HTTP/2 extended CONNECT (RFC 8441) accepted with {@code 200} ({@link ResponseState#tunnel}).
 * The protocol implements it (server-h2's stream); the tunnelled protocol (a WebSocket, or the
 * proxy's relay to a backend) is its {@link Endpoint}. A WebSocket on an HTTP/1.1 connection sees its connection through the same
 * interface (without the endpoint calls, which the engine's dispatches replace).
 *
 * <p><b>Threads.</b> The endpoint's {@code received} and {@code inputEnded} calls come one at a
 * time, in the order the client sent, on a worker dispatched when the client's bytes arrive
 * (none waits while the stream is idle). Sending is any thread's, through {@link #outbound()}:
 * each offer becomes DATA on the stream, framed by the connection's frame loop within the
 * client's flow-control windows; {@link OutboundQueue#close} with {@code flushFirst} ends the
 * stream (END_STREAM) after what is queued, without it resets the stream.
 */
public interface Tunnel {
    /** {@return the bounded queue of bytes to send on the stream; its {@code closed()} completes when the stream ends} */
    OutboundQueue outbound();

    /** {@return what the tunnel may use of the child serving the connection} */
    ChildServices services();

    /** {@return the connection's id (unique across the server's children)} */
    long id();

    /** {@return whether the connection is TLS} */
    boolean isSecure();

    /** {@return the client's address} */
    InetSocketAddress remoteAddress();

    /** {@return the settings of the generation serving the connection} */
    ServerConfig config();

    /**
     * A tunnelled protocol's timeouts on its stream, which the stream enforces from the moment the
     * endpoint opened: {@link Endpoint#idleTimeout} once nothing moved for {@code idle},
     * {@link Endpoint#keepAlive} once the client sent nothing for {@code keepAlive}.
     *
     * @param idle how long the tunnel may be idle
     * @param eitherWay whether bytes sent to the client count as activity (a relay, idle only
     *                  when nothing moves either way), or only the client's (a WebSocket)
     * @param keepAlive the keep-alive interval, {@link Duration#ZERO} for none
     */
    record Timeouts(Duration idle, boolean eitherWay, Duration keepAlive) {
    }

    /** The tunnelled protocol's side. */
    interface Endpoint {
        /**
         * {@return the timeouts the stream enforces for this protocol} Read once, on the
         * request's worker, when the tunnel opens (before {@link #opened}).
         */
        Timeouts timeouts();

        /**
         * The tunnel is open (its {@code 200} is queued, the handler has returned): on the
         * request's worker, before any {@link #received}.
         *
         * @param slot the worker slot this runs in
         */
        void opened(int slot);

        /**
         * Bytes the client sent, in order; they are consumed when this returns (the client gets
         * the flow-control window back). On a worker, one call at a time.
         *
         * @param bytes the bytes, from position to limit
         */
        void received(ByteBuffer bytes);

        /** The client ended its side of the stream (END_STREAM). On a worker, after every {@link #received}. */
        void inputEnded();

        /**
         * The server stops (or the child retires): end the tunnelled protocol properly. On the
         * connection's frame loop: must not block.
         */
        void goingAway();

        /**
         * Nothing arrived from the client for the tunnelled protocol's idle timeout: end it. On the
         * connection's frame loop: must not block.
         */
        void idleTimeout();

        /**
         * Nothing arrived from the client for the keep-alive interval: send a keep-alive (a
         * WebSocket ping). On the connection's frame loop: must not block.
         */
        void keepAlive();
    }
}
