package org.loommpm.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
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
import org.loommpm.spi.InputBudget;
import org.loommpm.spi.ProtocolCounters;

/**
 * The engine's meters: gauges and function counters that read {@link EngineStats},
 * {@link ChildStats} and {@link PollerStats} when the registry is scraped. Nothing is counted
 * twice and nothing is added to the request path: every value is a counter the engine keeps.
 *
 * <p>The protocols' meters (TLS, HTTP/2, WebSocket, suspended exchanges, proxy tunnels, ...) are
 * whatever they registered in {@link ProtocolCounters}, named, tagged and described there: this
 * class knows none of them, and a protocol's meters appear when the server first uses it.
 *
 * <p>The engine's server-wide meters carry no tags except {@code reason} on closed connections, and they
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
     * Registers the server-wide meters, and those of the protocols as they register their counts;
     * add this as a child listener (before the server starts) for the per-child and per-poller ones.
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
        stats.protocols().onRegister(this::protocolMeter);
    }

    /**
     * A protocol's count as a meter, with the name, tags and description it registered: those
     * registered before this bound, and each one registered later (a protocol's first use).
     */
    private void protocolMeter(ProtocolCounters.Entry e) {
        List<Tag> tags = new ArrayList<>();
        e.tags().forEach((k, v) -> tags.add(Tag.of(k, v)));
        switch (e.kind()) {
            case COUNTER -> counter(e.name(), e.description(), e, ProtocolCounters.Entry::value, Tags.of(tags));
            case GAUGE -> gauge(e.name(), e.description(), e, ProtocolCounters.Entry::value, Tags.of(tags));
        }
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
        meters.add(gauge("loom.workers.slotless", "Tasks waiting on a client without a worker slot (MaxSlotlessWaits)", c,
                ChildStats::slotlessWaits, tags));
        meters.add(gauge("loom.admission.open", "1 while admission control lets the listener accept", c,
                x -> x.admissionOpen() ? 1 : 0, tags));
        meters.add(counter("loom.admission.transitions", "Admission control state changes (on to off, off to on)",
                c, ChildStats::admissionTransitions, tags));
        InputBudget budget = c.inputBudget();
        if (budget != null) {
            meters.add(gauge("loom.input.budget.used", "Bytes clients make the child hold now (InputBudget)", budget,
                    InputBudget::used, tags));
            meters.add(gauge("loom.input.budget.max", "Bytes clients may make the child hold at once (InputBudget)",
                    budget, InputBudget::limit, tags));
            meters.add(gauge("loom.input.budget.high.water", "Most bytes the child held for its clients at once",
                    budget, InputBudget::highWater, tags));
            for (InputBudget.Consumer k : InputBudget.Consumer.values()) {
                meters.add(counter("loom.input.budget.refusals", "Reservations the input budget refused (the client "
                        + "was answered 1009, 413, RST_STREAM or GOAWAY)", budget, x -> x.refusals(k),
                        tags.and("consumer", k.label())));
            }
        }
        meters.add(gauge("loom.admission.bound", "Open connections at which admission control stops accepting "
                + "(OpenConnectionsPerChild)", c, ChildStats::connectionBound, tags));
        meters.add(gauge("loom.workers.pending.newcomers", "Pending tasks that are a connection's first work "
                + "(the newcomer lane)", c, ChildStats::pendingNewcomers, tags));
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
