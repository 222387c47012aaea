package org.loommpm.server;

import java.util.function.Consumer;
import org.loommpm.api.Handler;
import org.loommpm.api.ServerStats;
import org.loommpm.engine.ChildListener;
import org.loommpm.engine.EngineStats;
import org.loommpm.spi.ExchangeObserver;

/**
 * Something a {@link LoomServer} serves around the application without the core knowing it:
 * metrics, tracing, health probes (module server-observe), or an application's own. Given to
 * {@link LoomServer.Builder#feature}; protocols (HTTP/2, WebSocket) are not features but
 * {@link java.util.ServiceLoader} providers that the core finds on first need.
 *
 * <p>Every method has a default that does nothing, so a feature implements only its part. They
 * are called on the thread that builds or restarts the server, never on the request path:
 * {@link #beforeStart} once, {@link #wrap} and {@link #observer} once per generation.
 */
// "exports": beforeStart takes engine types, exported to loom-mpm's own modules only.
@SuppressWarnings("exports")
public interface ServerFeature {
    /**
     * Where this feature's handler goes among the others: features wrap the application in
     * ascending order, so the highest is outermost (it sees a request first). Default 0.
     *
     * @return the feature's place
     */
    default int order() {
        return 0;
    }

    /**
     * Wraps the handler of a generation (the application's, or the wrap of a lower feature).
     *
     * @param handler what this feature wraps
     * @param stats the server's counts (an empty server until the server has started)
     * @return the handler to serve instead, or {@code handler}
     */
    default Handler wrap(Handler handler, ServerStats stats) {
        return handler;
    }

    /**
     * The observer of every exchange, if this feature has one.
     *
     * @return what sees every exchange (request metrics), or {@code null}; one per server
     */
    default ExchangeObserver observer() {
        return null;
    }

    /**
     * Called once the engine exists, before any child starts.
     *
     * @param engine the engine's counts, live
     * @param childListeners adds a listener told of every child started and exited
     */
    default void beforeStart(EngineStats engine, Consumer<ChildListener> childListeners) {
    }
}
