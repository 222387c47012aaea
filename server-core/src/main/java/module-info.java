/**
 * loom-mpm's engine, HTTP/1.1 and the application API.
 *
 * <p>Applications use {@link org.loommpm.api} and {@link org.loommpm.config}; protocol
 * implementations the {@link org.loommpm.spi}; {@code org.loommpm.status} and
 * {@code org.loommpm.metrics} hold the status page's and the Prometheus endpoint's handlers,
 * {@code org.loommpm.health} the liveness and readiness probes, {@code org.loommpm.tracing} the
 * request observation (tracing through Micrometer's Observation API), {@code org.loommpm.proxy} the
 * reverse proxy handler.
 * Everything else is the implementation: exported only to loom-mpm's own modules, which are
 * built and released with this one.
 */
// "module": the qualified exports name modules compiled after this one; "requires-automatic":
// Micrometer's jars have no module descriptor (Automatic-Module-Name only).
@SuppressWarnings({"module", "requires-automatic", "requires-transitive-automatic"})
module org.loommpm.core {
    // LoomServer.Builder.meterRegistry takes a Micrometer MeterRegistry (an automatic module).
    requires transitive micrometer.core;
    // LoomServer.Builder.observationRegistry takes an ObservationRegistry; ServerRequestConvention
    // returns Micrometer's KeyValues (both automatic modules, brought by micrometer-core).
    requires transitive micrometer.observation;
    requires transitive micrometer.commons;
    // Only MetricsHandler needs it; an application that serves /metrics requires it itself.
    requires static micrometer.registry.prometheus;
    requires io.helidon.common.buffers;
    // Brotli for compress.CompressionFilter, when the application (or the jar) has it.
    requires static com.aayushatharva.brotli4j;

    exports org.loommpm.api;
    exports org.loommpm.config;
    exports org.loommpm.spi;
    exports org.loommpm.status;
    exports org.loommpm.metrics;
    exports org.loommpm.proxy;
    exports org.loommpm.health;
    exports org.loommpm.tracing;
    exports org.loommpm.compress;

    exports org.loommpm.engine to org.loommpm.cli;
    exports org.loommpm.http to org.loommpm.h2, org.loommpm.cli;
    exports org.loommpm.http.syntax to org.loommpm.h2;
    exports org.loommpm.protocol to org.loommpm.h2;
    exports org.loommpm.tls to org.loommpm.cli;

    // HTTP/2 is found on first need (protocol.Http2Lookup); server-h2 provides it.
    uses org.loommpm.protocol.Http2ProtocolProvider;
}
