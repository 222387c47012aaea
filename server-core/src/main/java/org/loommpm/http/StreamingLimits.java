package org.loommpm.http;

import org.loommpm.config.ServerConfig;

/**
 * What a suspended exchange needs of the configuration, in nanoseconds, computed once per
 * protocol instance (per generation).
 *
 * @param suspendTimeoutNanos {@code SuspendTimeout}
 * @param gracefulShutdownNanos {@code GracefulShutdownTimeout}
 * @param heartbeatNanos {@code EventStreamHeartbeat}, 0 = off
 */
public record StreamingLimits(long suspendTimeoutNanos, long gracefulShutdownNanos, long heartbeatNanos) {
    /** The limits of {@code config}. */
    public static StreamingLimits of(ServerConfig config) {
        return new StreamingLimits(config.streaming().suspendTimeout().toNanos(),
                config.gracefulShutdownTimeout().toNanos(), config.streaming().eventStreamHeartbeat().toNanos());
    }
}
