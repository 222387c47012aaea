package org.loommpm.health;

import org.loommpm.api.Handler;
import org.loommpm.api.ServerStats;
import org.loommpm.server.ServerFeature;

/**
 * Liveness and readiness probes at {@code prefix + "/live"} and {@code prefix + "/ready"} in
 * front of everything else (see {@link HealthHandler}): live answers 200 while the server
 * answers at all; ready answers 200 while new work should come here and 503 from the moment a
 * graceful stop begins (the listeners still accept for {@code GracefulStopDelay}), while drained,
 * and while admission control refuses (every child at its connection bound). Outermost of all features, so the probes are neither
 * observed nor counted: an orchestrator polls them every few seconds. Other paths cost one
 * {@code startsWith} more.
 *
 * <pre>{@code
 * LoomServer.builder().feature(new HealthFeature("/health")).handler(router).start();
 * }</pre>
 */
public final class HealthFeature implements ServerFeature {
    private final String prefix;

    /**
     * Probes under {@code prefix}.
     *
     * @param prefix a path starting with {@code /} and not ending with one, like {@code /health}
     * @throws IllegalArgumentException for a prefix not of that form
     */
    public HealthFeature(String prefix) {
        this.prefix = HealthHandler.checkPrefix(prefix);
    }

    @Override
    public int order() {
        return Integer.MAX_VALUE;
    }

    @Override
    public Handler wrap(Handler handler, ServerStats stats) {
        return HealthHandler.mount(prefix, stats, handler);
    }
}
