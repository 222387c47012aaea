package org.loommpm.tracing;

import io.micrometer.observation.ObservationRegistry;
import java.util.Objects;
import org.loommpm.api.Handler;
import org.loommpm.api.ServerStats;
import org.loommpm.server.ServerFeature;

/**
 * Tracing: each request is observed in an {@link ObservationRegistry} as an
 * {@code http.server.requests} observation (see {@link ObservedHandler}). With
 * micrometer-tracing and a bridge (OpenTelemetry, Brave) registered on it, every request gets a
 * server span named after its {@code Router} template, with OpenTelemetry's HTTP attributes, as a
 * child of the caller's W3C {@code traceparent}. Without this feature nothing of it is on the
 * request path. Outside the application's own features ({@link #order()} 1000), inside the
 * health probes, which are not observed.
 */
public final class TracingFeature implements ServerFeature {
    private final ObservationRegistry registry;

    /**
     * Observations in {@code registry}.
     *
     * @param registry where requests are observed
     */
    public TracingFeature(ObservationRegistry registry) {
        this.registry = Objects.requireNonNull(registry);
    }

    @Override
    public int order() {
        return 1000;
    }

    @Override
    public Handler wrap(Handler handler, ServerStats stats) {
        return ObservedHandler.wrap(registry, handler);
    }
}
