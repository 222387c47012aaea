/**
 * Liveness and readiness probes: {@link org.loommpm.health.HealthHandler}, mounted by
 * {@code LoomServer.Builder.health} or the jar's {@code SetHandler health}. Readiness is the
 * engine's {@code Readiness}: the supervisor's stop and drain, and its children's admission control.
 */
package org.loommpm.health;
