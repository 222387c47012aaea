package org.loommpm.config;

import java.time.Duration;

/**
 * Long-lived responses: the connection's outbound queue, suspended exchanges and event streams
 * (Server-Sent Events); one {@link ServerConfig} field. {@code docs/streaming.md} and
 * {@code docs/configuration.md} describe each. Immutable: derive changed copies with the
 * {@code with*} methods.
 *
 * @param outboundQueueLimit {@code OutboundQueueLimit}: bytes a connection (HTTP/1.1) or a
 *        suspended HTTP/2 stream may have queued for writing by threads that do not own it; an
 *        offer beyond it is refused (the caller decides: wait or give up), so a slow reader costs
 *        at most this much memory
 * @param suspendTimeout {@code SuspendTimeout}: how long a suspended exchange may wait for its
 *        answer before it is completed with 503 (httpd's {@code Timeout} default)
 * @param eventStreamHeartbeat {@code EventStreamHeartbeat}: an event stream that sent nothing
 *        for this long gets a comment line, so proxies do not cut it as idle;
 *        {@link Duration#ZERO} turns heartbeats off
 */
public record StreamingSettings(long outboundQueueLimit, Duration suspendTimeout, Duration eventStreamHeartbeat) {
    /** The defaults: 64 KiB, 60 s, 15 s. */
    public static final StreamingSettings DEFAULTS = new StreamingSettings(64 * 1024, Duration.ofSeconds(60),
            Duration.ofSeconds(15));

    /** Checks every bound. */
    public StreamingSettings {
        if (outboundQueueLimit < 1024) {
            throw new IllegalArgumentException("OutboundQueueLimit must be at least 1024, got " + outboundQueueLimit);
        }
        if (suspendTimeout == null || suspendTimeout.isNegative() || suspendTimeout.isZero()) {
            throw new IllegalArgumentException("SuspendTimeout must be a positive duration, got " + suspendTimeout);
        }
        if (eventStreamHeartbeat == null || eventStreamHeartbeat.isNegative()
                || (!eventStreamHeartbeat.isZero() && eventStreamHeartbeat.compareTo(Duration.ofMillis(100)) < 0)) {
            throw new IllegalArgumentException("EventStreamHeartbeat must be 0 (off) or at least 100 ms, got "
                    + eventStreamHeartbeat);
        }
    }

    /**
     * {@return a copy with {@code OutboundQueueLimit} changed}
     *
     * @param bytes the new limit in bytes
     * @throws IllegalArgumentException if the value is out of bounds (see the constructor)
     */
    public StreamingSettings withOutboundQueueLimit(long bytes) {
        return new StreamingSettings(bytes, suspendTimeout, eventStreamHeartbeat);
    }

    /**
     * {@return a copy with {@code SuspendTimeout} changed}
     *
     * @param d the new timeout
     * @throws IllegalArgumentException if the value is out of bounds (see the constructor)
     */
    public StreamingSettings withSuspendTimeout(Duration d) {
        return new StreamingSettings(outboundQueueLimit, d, eventStreamHeartbeat);
    }

    /**
     * {@return a copy with {@code EventStreamHeartbeat} changed}
     *
     * @param d the new heartbeat interval ({@link Duration#ZERO} turns it off)
     * @throws IllegalArgumentException if the value is out of bounds (see the constructor)
     */
    public StreamingSettings withEventStreamHeartbeat(Duration d) {
        return new StreamingSettings(outboundQueueLimit, suspendTimeout, d);
    }
}
