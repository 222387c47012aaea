package org.loommpm.tracing;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.util.Objects;
import org.loommpm.api.Handler;
import org.loommpm.api.HttpException;
import org.loommpm.api.Request;
import org.loommpm.api.Response;
import org.loommpm.http.ExchangeRunner;

/**
 * Observes each request: an {@code http.server.requests} observation (a server span, with a
 * tracing bridge) is started before the application's handler, opened as the current one while
 * the handler runs (so the handler's own observations and logs join the trace), and stopped when
 * the handler returns or throws. The trace context comes from the request's headers through
 * {@link ServerRequestContext}'s getter: the bridge's propagator reads W3C {@code traceparent}
 * (and whatever else it is configured for), so the span is a child of the caller's.
 *
 * <p>{@link #wrap} puts it around a handler only for a registry that can observe anything: with
 * no registry (the default) or {@link ObservationRegistry#NOOP} the handler is returned as it
 * is, so tracing off costs the request path nothing (a {@code Router} still asks one
 * {@code instanceof} of the request). With a registry whose observations are off (no handler
 * registered, or a predicate says no) each request pays Micrometer's no-op check and one small
 * object.
 *
 * <p>The observation covers the handler, not the response's last flush after it returns (the
 * protocol's work). A failure is recorded as the observation's error, with the status the server
 * answers for it ({@link ExchangeRunner#statusFor}: an {@link HttpException}'s own when 400-599, 408
 * for a read timeout, otherwise 500), and
 * rethrown for the server to answer as usual.
 *
 * <p>Thread-safe: one instance per server generation, used by every worker; each request's
 * state is its own {@link ServerRequestContext}, confined to the worker serving it.
 */
public final class ObservedHandler implements Handler {
    /**
     * The default convention, in a holder: {@link #wrap} runs at every start, tracing or not, and
     * initializing the convention there would load Micrometer's observation classes and spin a
     * lambda class for a server that observes nothing.
     */
    private static final class Convention {
        static final ServerRequestConvention DEFAULT = new ServerRequestConvention();
    }

    private final ObservationRegistry registry;
    private final Handler next;

    private ObservedHandler(ObservationRegistry registry, Handler next) {
        this.registry = registry;
        this.next = next;
    }

    /**
     * {@code next} observed in {@code registry}; {@code next} itself when {@code registry} is
     * null or {@link ObservationRegistry#NOOP}. A registry without handlers yet is observed
     * (an application may register its handlers after the server starts): each request then
     * finds Micrometer's no-op observation and goes on.
     *
     * @param registry where requests are observed, or null
     * @param next the application's handler
     * @return the observing handler, or {@code next}
     */
    public static Handler wrap(ObservationRegistry registry, Handler next) {
        Objects.requireNonNull(next);
        if (registry == null || registry == ObservationRegistry.NOOP) {
            return next;
        }
        return new ObservedHandler(registry, next);
    }

    @Override
    public void handle(Request req, Response res) throws Exception {
        Observation observation = Observation.createNotStarted(null, Convention.DEFAULT, new Supply(req), registry);
        if (observation.isNoop()) {
            next.handle(req, res);
            return;
        }
        ServerRequestContext context = (ServerRequestContext) observation.getContext();
        observation.start();
        try (Observation.Scope scope = observation.openScope()) {
            next.handle(new ObservedRequest(req, context), res);
            context.status(res.status());
        } catch (Exception | Error e) {
            context.status(res.isCommitted() ? res.status() : ExchangeRunner.statusFor(e));
            observation.error(e);
            throw e;
        } finally {
            context.setResponse(res);
            observation.stop();
        }
    }

    /**
     * Creates the context when Micrometer asks for it: not at all when the observation is a
     * no-op (a class rather than a capturing lambda).
     */
    private record Supply(Request request) implements java.util.function.Supplier<ServerRequestContext> {
        @Override
        public ServerRequestContext get() {
            return new ServerRequestContext(request);
        }
    }
}
