package org.loommpm.http;

import org.loommpm.config.ServerConfig;

/**
 * What a suspended exchange (or an upgrade) needs of the configuration, times in nanoseconds,
 * computed once per protocol instance (per generation).
 *
 * @param suspendTimeoutNanos {@code SuspendTimeout}
 * @param gracefulShutdownNanos {@code GracefulShutdownTimeout}
 * @param heartbeatNanos {@code EventStreamHeartbeat}, 0 = off
 * @param webSocketDeflate {@code WebSocketDeflate}: whether a WebSocket handshake may agree permessage-deflate
 */
public record StreamingLimits(long suspendTimeoutNanos, long gracefulShutdownNanos, long heartbeatNanos,
                              boolean webSocketDeflate) {
    /** The limits of {@code config}. */
    public static StreamingLimits of(ServerConfig config) {
        return new StreamingLimits(config.streaming().suspendTimeout().toNanos(),
                config.gracefulShutdownTimeout().toNanos(), config.streaming().eventStreamHeartbeat().toNanos(),
                config.webSocket().deflate());
    }
}
