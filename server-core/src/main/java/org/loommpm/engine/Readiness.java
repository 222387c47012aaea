package org.loommpm.engine;

/**
 * Whether a server should be sent new work, as a readiness probe asks: the one answer behind
 * {@code SetHandler health}'s {@code /ready}. Computed on demand from flags and counts the engine
 * keeps anyway (volatile reads, no lock), so asking costs the request path nothing.
 */
public enum Readiness {
    /** Not bound yet, or no child of the current generation has started. */
    STARTING("starting"),
    /** A child of the current generation is accepting. */
    READY("ready"),
    /** Every child of the current generation has stopped accepting: each holds its connection bound (admission control). */
    REFUSING("admission-control"),
    /** A graceful stop has begun: during {@code GracefulStopDelay} still accepting, then finishing in-flight work. */
    STOPPING("stopping"),
    /** Drained for another process to take over ({@code LoomServer.drain}): finishing, accepting nothing. */
    DRAINING("draining");

    private final String reason;

    Readiness(String reason) {
        this.reason = reason;
    }

    /** Whether a readiness probe should pass. */
    public boolean ready() {
        return this == READY;
    }

    /** A short lower-case word for a probe's body and the log. */
    public String reason() {
        return reason;
    }
}
