/**
 * Observability for loom-mpm, the only module that needs Micrometer:
 * {@link org.loommpm.metrics.MetricsFeature} and {@link org.loommpm.metrics.MetricsHandler}
 * (Micrometer meters, Prometheus exposition), {@link org.loommpm.status.StatusHandler} (the
 * status page), {@link org.loommpm.health.HealthFeature} (liveness and readiness probes) and
 * {@link org.loommpm.tracing.TracingFeature} (an observation per request).
 */
// "requires-automatic": Micrometer's jars have no module descriptor (Automatic-Module-Name only).
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module org.loommpm.observe {
    requires transitive org.loommpm.core;
    // MetricsFeature takes a MeterRegistry; TracingFeature an ObservationRegistry;
    // ServerRequestConvention returns Micrometer's KeyValues.
    requires transitive micrometer.core;
    requires transitive micrometer.observation;
    requires transitive micrometer.commons;
    // Only MetricsHandler needs it; an application that serves /metrics requires it itself.
    requires static micrometer.registry.prometheus;

    exports org.loommpm.metrics;
    exports org.loommpm.status;
    exports org.loommpm.health;
    exports org.loommpm.tracing;
}
