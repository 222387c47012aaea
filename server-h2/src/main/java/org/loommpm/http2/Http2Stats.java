package org.loommpm.http2;

import java.util.concurrent.atomic.LongAdder;

/**
 * Counters of one generation's HTTP/2 traffic (for tests and embedding code): streams started
 * (a task was dispatched), responses completed (END_STREAM framed), streams reset by clients,
 * streams refused by the concurrency limit, and guards tripped (connections ended with
 * ENHANCE_YOUR_CALM). Any thread; sums are exact once traffic stopped.
 */
public final class Http2Stats {
    private final LongAdder connections = new LongAdder();
    private final LongAdder started = new LongAdder();
    private final LongAdder completed = new LongAdder();
    private final LongAdder reset = new LongAdder();
    private final LongAdder refused = new LongAdder();
    private final LongAdder guards = new LongAdder();

    void connectionOpened() { connections.increment(); }
    void streamStarted() { started.increment(); }
    void responseCompleted() { completed.increment(); }
    void streamReset() { reset.increment(); }
    void streamRefused() { refused.increment(); }
    void guardTripped() { guards.increment(); }

    /** HTTP/2 connections opened (prior knowledge, upgrade or ALPN). */
    public long connections() { return connections.sum(); }
    /** Streams whose handler task was started. */
    public long streamsStarted() { return started.sum(); }
    /** Responses whose last frame was written. */
    public long responsesCompleted() { return completed.sum(); }
    /** Streams the client reset. */
    public long streamsReset() { return reset.sum(); }
    /** Streams refused by {@code H2MaxConcurrentStreams}. */
    public long streamsRefused() { return refused.sum(); }
    /** Connections ended by an abuse guard (ENHANCE_YOUR_CALM). */
    public long guardsTripped() { return guards.sum(); }
}
