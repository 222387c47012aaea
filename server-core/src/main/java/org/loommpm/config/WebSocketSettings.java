package org.loommpm.config;

import java.time.Duration;

/**
 * WebSocket limits and timers, with their defaults; one {@link ServerConfig} field. Immutable:
 * derive changed copies with the {@code with*} methods. {@code docs/websocket.md} and
 * {@code docs/configuration.md} describe each.
 *
 * @param maxFrameSize {@code WebSocketMaxFrameSize}: the largest frame payload a client may send;
 *        a larger frame closes the socket with 1009
 * @param maxMessageSize {@code WebSocketMaxMessageSize}: the largest message a client may send,
 *        all its fragments together and after inflating (permessage-deflate); more closes with 1009
 * @param idleTimeout {@code WebSocketIdleTimeout}: how long a socket may pass without a frame from
 *        the client before the server closes it with 1001
 * @param pingInterval {@code WebSocketPingInterval}: how often the server pings a socket that
 *        sent nothing meanwhile (keeps proxies from cutting it, and its pong counts as activity);
 *        zero for no pings
 * @param deflate {@code WebSocketDeflate}: whether permessage-deflate is negotiated when the client
 *        offers it (an endpoint may refuse it for itself)
 */
public record WebSocketSettings(int maxFrameSize, int maxMessageSize, Duration idleTimeout, Duration pingInterval,
                                boolean deflate) {
    /** The defaults: 1 MiB frames and messages, 5 minutes idle, no pings, deflate on. */
    public static final WebSocketSettings DEFAULTS =
            new WebSocketSettings(1 << 20, 1 << 20, Duration.ofMinutes(5), Duration.ZERO, true);

    /** Checks every bound. */
    public WebSocketSettings {
        if (maxFrameSize < 125 || maxMessageSize < 125) {
            throw new IllegalArgumentException("WebSocketMaxFrameSize and WebSocketMaxMessageSize must be at least 125, got "
                    + maxFrameSize + " and " + maxMessageSize);
        }
        if (idleTimeout == null || idleTimeout.isNegative() || idleTimeout.isZero()) {
            throw new IllegalArgumentException("WebSocketIdleTimeout must be a positive duration, got " + idleTimeout);
        }
        if (pingInterval == null || pingInterval.isNegative()) {
            throw new IllegalArgumentException("WebSocketPingInterval must be zero or positive, got " + pingInterval);
        }
    }

    /**
     * {@return a copy with {@code WebSocketMaxFrameSize} changed}
     *
     * @param v the new maximum frame payload size in bytes
     * @throws IllegalArgumentException if the value is out of bounds (see the constructor)
     */
    public WebSocketSettings withMaxFrameSize(int v) {
        return new WebSocketSettings(v, maxMessageSize, idleTimeout, pingInterval, deflate);
    }

    /**
     * {@return a copy with {@code WebSocketMaxMessageSize} changed}
     *
     * @param v the new maximum message size in bytes
     * @throws IllegalArgumentException if the value is out of bounds (see the constructor)
     */
    public WebSocketSettings withMaxMessageSize(int v) {
        return new WebSocketSettings(maxFrameSize, v, idleTimeout, pingInterval, deflate);
    }

    /**
     * {@return a copy with {@code WebSocketIdleTimeout} changed}
     *
     * @param v the new idle timeout
     * @throws IllegalArgumentException if the value is out of bounds (see the constructor)
     */
    public WebSocketSettings withIdleTimeout(Duration v) {
        return new WebSocketSettings(maxFrameSize, maxMessageSize, v, pingInterval, deflate);
    }

    /**
     * {@return a copy with {@code WebSocketPingInterval} changed}
     *
     * @param v the new ping interval ({@link Duration#ZERO} turns pings off)
     * @throws IllegalArgumentException if the value is out of bounds (see the constructor)
     */
    public WebSocketSettings withPingInterval(Duration v) {
        return new WebSocketSettings(maxFrameSize, maxMessageSize, idleTimeout, v, deflate);
    }

    /**
     * {@return a copy with {@code WebSocketDeflate} changed}
     *
     * @param v whether permessage-deflate is negotiated
     */
    public WebSocketSettings withDeflate(boolean v) {
        return new WebSocketSettings(maxFrameSize, maxMessageSize, idleTimeout, pingInterval, v);
    }
}
