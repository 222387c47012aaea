package org.loommpm.http;

import java.util.concurrent.atomic.LongAdder;
import org.loommpm.spi.ProtocolCounters;

/**
 * Suspended exchanges and event streams, HTTP/1.1 and HTTP/2 together, server-wide: registered
 * when the server first suspends an exchange or starts an event stream.
 */
final class ExchangeCounters {
    private final LongAdder suspended;
    private final LongAdder suspendedEnded;
    private final LongAdder eventStreams;
    private final LongAdder eventStreamsEnded;
    private final LongAdder timeouts;

    private ExchangeCounters(ProtocolCounters registry) {
        suspended = registry.counter("loom.suspended.total", "Exchanges suspended");
        suspendedEnded = registry.gauge("loom.suspended.exchanges",
                "Suspended exchanges waiting for their answer (HTTP/1.1 and HTTP/2)", suspended);
        timeouts = registry.counter("loom.suspended.timeouts", "Suspended exchanges that passed their deadline");
        eventStreams = registry.counter("loom.eventstreams.total", "Server-Sent Events streams started");
        eventStreamsEnded = registry.gauge("loom.eventstreams.open", "Server-Sent Events streams open", eventStreams);
    }

    /** {@return the server's counts of suspended exchanges, registered on the first call} */
    static ExchangeCounters of(ProtocolCounters registry) {
        return registry.group(ExchangeCounters.class, ExchangeCounters::new);
    }

    /**
     * An exchange was suspended ({@code Response.suspend}), or an event stream started.
     *
     * @param eventStream whether it is an event stream
     */
    void started(boolean eventStream) {
        (eventStream ? eventStreams : suspended).increment();
    }

    /**
     * A suspended exchange or event stream ended (answered, timed out, client gone, stopped).
     *
     * @param eventStream whether it was an event stream
     */
    void ended(boolean eventStream) {
        (eventStream ? eventStreamsEnded : suspendedEnded).increment();
    }

    /** A suspended exchange passed its deadline. */
    void timedOut() {
        timeouts.increment();
    }
}
