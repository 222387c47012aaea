/**
 * Micrometer meters for the engine and the request path, and the Prometheus endpoint.
 *
 * <p>This is the only package of server-core that uses Micrometer: the engine and the HTTP/1.1
 * layer know only their own counters and the {@link org.loommpm.spi.ExchangeObserver} hook,
 * which is {@code null} when no registry is configured.
 * {@link org.loommpm.metrics.EngineMetrics} binds the engine's counters,
 * {@link org.loommpm.metrics.RequestMetrics} records exchanges, and
 * {@link org.loommpm.metrics.MetricsHandler} serves the Prometheus text format.
 */
package org.loommpm.metrics;
