package org.loommpm.http2;

import java.util.concurrent.atomic.LongAdder;
import org.loommpm.spi.ProtocolCounters;

/**
 * HTTP/2 connections, streams, GOAWAYs and abuse guards, server-wide: registered with the
 * server's first HTTP/2 connection. Public for tests, which read {@link #streamsInline()}.
 */
public final class Http2Counters {
    private final LongAdder connections;
    private final LongAdder started;
    /** A subset of {@link #started}; no meter, tests read it. */
    private final LongAdder inline = new LongAdder();
    private final LongAdder completed;
    private final LongAdder reset;
    private final LongAdder refused;
    private final LongAdder stalled;
    private final LongAdder goawaysSent;
    private final LongAdder goawaysReceived;
    private final LongAdder guards;

    private Http2Counters(ProtocolCounters registry) {
        connections = registry.counter("loom.http2.connections",
                "HTTP/2 connections started (prior knowledge, Upgrade, ALPN)");
        started = registry.counter("loom.http2.streams.started", "HTTP/2 streams whose handler started");
        completed = registry.counter("loom.http2.streams.completed", "HTTP/2 responses written to their last frame");
        reset = registry.counter("loom.http2.streams.reset", "HTTP/2 streams the client reset (RST_STREAM)");
        refused = registry.counter("loom.http2.streams.refused", "HTTP/2 streams refused by H2MaxConcurrentStreams");
        stalled = registry.counter("loom.http2.streams.stalled",
                "HTTP/2 streams reset after H2StallTimeout without flow-control window");
        String goaway = "HTTP/2 GOAWAY frames by direction (sent: stop, idle timeout, error)";
        goawaysSent = registry.counter("loom.http2.goaway", goaway, "direction", "sent");
        goawaysReceived = registry.counter("loom.http2.goaway", goaway, "direction", "received");
        guards = registry.counter("loom.http2.guards.tripped",
                "HTTP/2 connections ended by an abuse guard (ENHANCE_YOUR_CALM)");
    }

    /**
     * The server's HTTP/2 counts.
     *
     * @param registry the server's registry ({@code ChildServices.counters()})
     * @return its HTTP/2 counts, registered on the first call
     */
    public static Http2Counters of(ProtocolCounters registry) {
        return registry.group(Http2Counters.class, Http2Counters::new);
    }

    /** {@return streams whose handler ran inline on the connection's frame loop (a subset of the started ones)} */
    public long streamsInline() {
        return inline.sum();
    }

    /** A connection started (prior knowledge, upgrade or ALPN). */
    void connectionOpened() {
        connections.increment();
    }

    /** A stream's handler task was started. */
    void streamStarted() {
        started.increment();
    }

    /** A stream's handler ran on its connection's frame loop (no task of its own); also counted as started. */
    void inlineStream() {
        inline.increment();
    }

    /** A response's last frame was written. */
    void responseCompleted() {
        completed.increment();
    }

    /** The client reset a stream. */
    void streamReset() {
        reset.increment();
    }

    /** A stream was refused by H2MaxConcurrentStreams. */
    void streamRefused() {
        refused.increment();
    }

    /** A stream was reset after waiting H2StallTimeout for the client's window. */
    void streamStalled() {
        stalled.increment();
    }

    /** The server sent GOAWAY (stop, idle timeout, connection error). */
    void goawaySent() {
        goawaysSent.increment();
    }

    /** The client sent GOAWAY. */
    void goawayReceived() {
        goawaysReceived.increment();
    }

    /** An abuse guard ended a connection (ENHANCE_YOUR_CALM). */
    void guardTripped() {
        guards.increment();
    }
}
