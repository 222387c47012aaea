package org.loommpm.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import java.util.Objects;
import java.util.function.Consumer;
import org.loommpm.engine.ChildListener;
import org.loommpm.engine.EngineStats;
import org.loommpm.server.ServerFeature;
import org.loommpm.spi.ExchangeObserver;

/**
 * Metrics: the engine's meters ({@link EngineMetrics}) and the request meters
 * ({@link RequestMetrics}) registered in a Micrometer registry (a {@code PrometheusMeterRegistry}
 * for {@link MetricsHandler}, or any other). Without this feature no meter exists and the request
 * path calls no observer; {@code LoomServer.stats()} and the status page work either way.
 */
public final class MetricsFeature implements ServerFeature {
    private final MeterRegistry registry;
    private final RequestMetrics requests;

    /**
     * Meters in {@code registry}.
     *
     * @param registry where the meters are registered
     */
    public MetricsFeature(MeterRegistry registry) {
        this.registry = Objects.requireNonNull(registry);
        this.requests = new RequestMetrics(registry);
    }

    @Override
    public ExchangeObserver observer() {
        return requests;
    }

    // "exports": the engine types are exported to loom-mpm's own modules only.
    @SuppressWarnings("exports")
    @Override
    public void beforeStart(EngineStats engine, Consumer<ChildListener> childListeners) {
        childListeners.accept(new EngineMetrics(registry, engine));
    }
}
