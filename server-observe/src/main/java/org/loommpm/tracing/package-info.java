/**
 * Request tracing through Micrometer's Observation API: {@link org.loommpm.tracing.ObservedHandler}
 * puts one {@code http.server.requests} observation around each request's handler, as a
 * {@link io.micrometer.observation.transport.RequestReplyReceiverContext} whose header getter
 * lets a tracing bridge (micrometer-tracing with OpenTelemetry or Brave) extract the W3C
 * {@code traceparent}; {@link org.loommpm.tracing.ServerRequestConvention} names the span and its
 * attributes after OpenTelemetry's HTTP semantic conventions. On only when the application gives
 * {@code LoomServer.Builder.observationRegistry} a registry: otherwise none of this is on the
 * request path.
 */
package org.loommpm.tracing;
