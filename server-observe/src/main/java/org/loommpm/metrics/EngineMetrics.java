package org.loommpm.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToDoubleFunction;
import org.loommpm.engine.ChildListener;
import org.loommpm.engine.ChildStats;
import org.loommpm.engine.EngineStats;
import org.loommpm.engine.PollerStats;
import org.loommpm.spi.CloseReason;
import org.loommpm.spi.ProtocolCounters;

/**
 * The engine's meters: gauges and function counters that read {@link EngineStats},
 * {@link ChildStats} and {@link PollerStats} when the registry is scraped. Nothing is counted
 * twice and nothing is added to the request path: every value is a counter the engine keeps.
 *
 * <p>Server-wide meters carry no tags except {@code reason} on closed connections, and they
 * cover every child the server has run. Per-child meters are tagged {@code child} (the child's
 * number) and {@code generation}; per-poller meters add {@code poller}. Children are few
 * (StartServers, plus one per replacement or restart while the old one drains), so these tags
 * stay low-cardinality; a child's meters are removed when it exits, so a replaced child's series
 * end rather than linger. The catalogue, with meanings, is in docs/observability.md.
 */
// Public for MetricsFeature (and the jar), which create it; "exports": its engine types are exported to
// loom-mpm's own modules only, so an application cannot use it (MetricsHandler is the API here).
@SuppressWarnings("exports")
public final class EngineMetrics implements ChildListener {
    private final MeterRegistry registry;
    private final Map<Integer, List<Meter>> childMeters = new ConcurrentHashMap<>();

    /**
     * Registers the server-wide meters; add this as a child listener (before the server starts)
     * for the per-child and per-poller ones.
     *
     * @param registry where to register
     * @param stats the server's counts
     */
    public EngineMetrics(MeterRegistry registry, EngineStats stats) {
        this.registry = registry;
        gauge("loom.generation", "Current generation (1 at start, +1 per graceful restart)", stats,
                EngineStats::generation, Tags.empty());
        gauge("loom.children", "Children alive (running or draining)", stats, s -> s.children().size(), Tags.empty());
        counter("loom.connections.accepted", "Connections accepted", stats, EngineStats::connectionsAccepted,
                Tags.empty());
        for (CloseReason r : CloseReason.values()) {
            counter("loom.connections.closed", "Connections ended, by reason (normal, timeout, error, abort)", stats,
                    s -> s.connectionsClosed(r), Tags.of("reason", r.tag()));
        }
        gauge("loom.connections.open", "Connections open", stats, EngineStats::connectionsOpen, Tags.empty());
        gauge("loom.connections.keepalive", "Connections parked in keep-alive (idle: no worker, thread or buffer)",
                stats, s -> sumChildren(s, ChildStats::keepAliveConnections), Tags.empty());
        gauge("loom.connections.lingering", "Connections in a lingering close", stats,
                s -> sumChildren(s, ChildStats::lingeringConnections), Tags.empty());
        gauge("loom.connections.detached", "Connections detached (no worker, thread or buffer): suspended exchanges, "
                + "event streams", stats, s -> sumChildren(s, ChildStats::detachedConnections), Tags.empty());
        protocolMeters(stats.protocols());
    }

    /** TLS, HTTP/2 and WebSocket counters, server-wide (see {@link ProtocolCounters}). */
    private void protocolMeters(ProtocolCounters p) {
        String tls = "TLS handshakes by outcome (completed, failed, plaintext: an HTTP request on a TLS port)";
        counter("loom.tls.handshakes", tls, p, ProtocolCounters::tlsHandshakes, Tags.of("outcome", "completed"));
        counter("loom.tls.handshakes", tls, p, ProtocolCounters::tlsHandshakeFailures, Tags.of("outcome", "failed"));
        counter("loom.tls.handshakes", tls, p, ProtocolCounters::tlsPlaintextRequests, Tags.of("outcome", "plaintext"));
        counter("loom.http2.connections", "HTTP/2 connections started (prior knowledge, Upgrade, ALPN)", p,
                ProtocolCounters::http2Connections, Tags.empty());
        counter("loom.http2.streams.started", "HTTP/2 streams whose handler started", p,
                ProtocolCounters::streamsStarted, Tags.empty());
        counter("loom.http2.streams.completed", "HTTP/2 responses written to their last frame", p,
                ProtocolCounters::responsesCompleted, Tags.empty());
        counter("loom.http2.streams.reset", "HTTP/2 streams the client reset (RST_STREAM)", p,
                ProtocolCounters::streamsReset, Tags.empty());
        counter("loom.http2.streams.refused", "HTTP/2 streams refused by H2MaxConcurrentStreams", p,
                ProtocolCounters::streamsRefused, Tags.empty());
        counter("loom.http2.streams.stalled", "HTTP/2 streams reset after H2StallTimeout without flow-control window",
                p, ProtocolCounters::streamsStalled, Tags.empty());
        String goaway = "HTTP/2 GOAWAY frames by direction (sent: stop, idle timeout, error)";
        counter("loom.http2.goaway", goaway, p, ProtocolCounters::goawaysSent, Tags.of("direction", "sent"));
        counter("loom.http2.goaway", goaway, p, ProtocolCounters::goawaysReceived, Tags.of("direction", "received"));
        counter("loom.http2.guards.tripped", "HTTP/2 connections ended by an abuse guard (ENHANCE_YOUR_CALM)", p,
                ProtocolCounters::guardsTripped, Tags.empty());
        gauge("loom.websocket.open", "WebSockets open (an idle one holds no worker, thread or buffer)", p,
                ProtocolCounters::webSocketsOpen, Tags.empty());
        counter("loom.websocket.opened", "WebSockets opened (handshakes accepted)", p,
                ProtocolCounters::webSocketsOpened, Tags.empty());
        String messages = "WebSocket messages by direction (received: whole messages from clients; sent: queued)";
        counter("loom.websocket.messages", messages, p, ProtocolCounters::webSocketMessagesReceived,
                Tags.of("direction", "received"));
        counter("loom.websocket.messages", messages, p, ProtocolCounters::webSocketMessagesSent,
                Tags.of("direction", "sent"));
        gauge("loom.proxy.tunnels.open", "Proxied upgrades (WebSocket...) relayed now; an idle one holds no worker",
                p, ProtocolCounters::proxyTunnelsOpen, Tags.empty());
        counter("loom.proxy.tunnels.opened", "Proxied upgrades switched to a tunnel (the backend answered 101)", p,
                ProtocolCounters::proxyTunnelsOpened, Tags.empty());
        gauge("loom.suspended.exchanges", "Suspended exchanges waiting for their answer (HTTP/1.1 and HTTP/2)", p,
                ProtocolCounters::suspendedNow, Tags.empty());
        counter("loom.suspended.total", "Exchanges suspended", p, ProtocolCounters::suspendedTotal, Tags.empty());
        counter("loom.suspended.timeouts", "Suspended exchanges that passed their deadline", p,
                ProtocolCounters::suspendTimeouts, Tags.empty());
        gauge("loom.eventstreams.open", "Server-Sent Events streams open", p, ProtocolCounters::eventStreamsNow,
                Tags.empty());
        counter("loom.eventstreams.total", "Server-Sent Events streams started", p, ProtocolCounters::eventStreamsTotal,
                Tags.empty());
    }

    @Override
    public void childStarted(ChildStats c) {
        Tags tags = Tags.of("child", Integer.toString(c.id()), "generation", Integer.toString(c.generation()));
        List<Meter> meters = new ArrayList<>();
        meters.add(gauge("loom.child.connections.open", "Connections open in the child", c,
                ChildStats::openConnections, tags));
        meters.add(gauge("loom.child.accepting", "1 while the child takes new connections (admission open, not "
                + "draining)", c, x -> x.accepting() ? 1 : 0, tags));
        meters.add(gauge("loom.child.draining", "1 once the child has stopped accepting for good (retiring, "
                + "restart, stop)", c, x -> x.draining() ? 1 : 0, tags));
        meters.add(gauge("loom.workers.max", "Worker slots (ThreadsPerChild)", c, x -> x.scoreboard().size(), tags));
        meters.add(gauge("loom.workers.active", "Worker slots busy (running or parked on I/O)", c,
                ChildStats::activeWorkers, tags));
        meters.add(gauge("loom.workers.idle", "Worker slots free", c, ChildStats::idleWorkers, tags));
        meters.add(gauge("loom.workers.pending", "Dispatched tasks waiting for a worker slot", c,
                ChildStats::pendingWorkers, tags));
        meters.add(gauge("loom.admission.open", "1 while admission control lets the listener accept", c,
                x -> x.admissionOpen() ? 1 : 0, tags));
        meters.add(counter("loom.admission.transitions", "Admission control state changes (on to off, off to on)",
                c, ChildStats::admissionTransitions, tags));
        for (PollerStats p : c.pollerStats()) {
            Tags pt = tags.and("poller", Integer.toString(p.index()));
            meters.add(counter("loom.poller.wakeups", "Poller loop iterations (select returns)", p,
                    PollerStats::wakeups, pt));
            meters.add(counter("loom.poller.dispatches", "Connections dispatched to workers", p,
                    PollerStats::dispatches, pt));
            meters.add(counter("loom.poller.inline.requests", "Requests served on the poller (non-blocking handlers)",
                    p, PollerStats::inlineRequests, pt));
            meters.add(counter("loom.poller.timers.fired", "Deadlines that expired (keep-alive, head, Timeout, linger)",
                    p, PollerStats::timersFired, pt));
            meters.add(gauge("loom.poller.keepalive", "Connections parked in keep-alive on this poller", p,
                    PollerStats::keepAliveConnections, pt));
            meters.add(gauge("loom.recycle.size", "Connection contexts waiting in the recycle list", p,
                    PollerStats::recycleSize, pt));
            meters.add(counter("loom.recycle.hits", "Contexts reused from the recycle list", p,
                    PollerStats::recycleHits, pt));
            meters.add(counter("loom.recycle.misses", "Contexts allocated because the recycle list was empty", p,
                    PollerStats::recycleMisses, pt));
            meters.add(counter("loom.recycle.drops", "Contexts left to the GC because the recycle list was full", p,
                    PollerStats::recycleDrops, pt));
        }
        childMeters.put(c.id(), meters);
    }

    @Override
    public void childExited(ChildStats c) {
        List<Meter> meters = childMeters.remove(c.id());
        if (meters != null) {
            for (Meter m : meters) {
                registry.remove(m);
            }
        }
    }

    private <T> Meter gauge(String name, String description, T obj, ToDoubleFunction<T> f, Tags tags) {
        // Strong: the meter must not read NaN because nothing else happened to hold obj.
        return Gauge.builder(name, obj, f).description(description).tags(tags).strongReference(true)
                .register(registry);
    }

    private <T> Meter counter(String name, String description, T obj, ToDoubleFunction<T> f, Tags tags) {
        return FunctionCounter.builder(name, obj, f).description(description).tags(tags).register(registry);
    }

    private static long sumChildren(EngineStats s, ToDoubleFunction<ChildStats> f) {
        long n = 0;
        for (ChildStats c : s.children()) {
            n += (long) f.applyAsDouble(c);
        }
        return n;
    }
}
