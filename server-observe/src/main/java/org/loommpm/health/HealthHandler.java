package org.loommpm.health;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.loommpm.api.Handler;
import org.loommpm.api.InvocationType;
import org.loommpm.server.LoomServer;
import org.loommpm.api.Request;
import org.loommpm.api.Response;
import org.loommpm.api.ServerStats;
import org.loommpm.engine.EngineStats;
import org.loommpm.engine.Readiness;

/**
 * Health probes (the API side of {@code SetHandler health}), for a load balancer or an
 * orchestrator such as Kubernetes:
 * <ul>
 *   <li>a path ending in {@code /live}: {@code 200} whenever the server answers at all (a
 *       liveness probe must not fail while the server drains, or the orchestrator kills it
 *       mid-stop);</li>
 *   <li>a path ending in {@code /ready}: {@code 200} while new work should come here,
 *       {@code 503} from the moment a graceful stop begins (during {@code GracefulStopDelay} the
 *       listeners still accept, so the balancer takes the server out before it refuses anyone),
 *       while it is drained for another process, before it has started, and while admission
 *       control has stopped every child accepting (each holds {@code OpenConnectionsPerChild}
 *       connections; busy workers alone never stop it);</li>
 *   <li>anything else: {@code 404}.</li>
 * </ul>
 * The body is one small JSON object in MicroProfile Health's words, {@code {"status":"UP"}} or
 * {@code {"status":"DOWN","reason":"stopping"}} (reasons: {@code starting},
 * {@code admission-control}, {@code stopping}, {@code draining}), never cached. {@code GET} and {@code HEAD} only. The answer is read from flags and counts the engine
 * keeps anyway; the handler allocates only its response.
 *
 * <p>The probes reveal nothing but the server's state, so unlike the status page they are
 * usually left open to every client.
 *
 * <pre>{@code
 * LoomServer server = LoomServer.builder().feature(new HealthFeature("/health")).handler(router).start();
 * // GET /health/live, GET /health/ready
 * }</pre>
 */
public final class HealthHandler implements Handler {
    private static final byte[] UP = "{\"status\":\"UP\"}\n".getBytes(StandardCharsets.US_ASCII);

    private final EngineStats stats;

    /**
     * A handler answering both probes from {@code stats}.
     *
     * @param stats the server's counts: {@link LoomServer#stats()}, or
     *              {@link LoomServer.Builder#stats()} when the handler is built before the server
     * @throws IllegalArgumentException if {@code stats} is not a server's
     */
    public HealthHandler(ServerStats stats) {
        this.stats = EngineStats.of(Objects.requireNonNull(stats));
    }

    /**
     * {@link InvocationType#NON_BLOCKING}: the probes read flags and counts, so the poller may
     * answer them without a worker slot, and they answer while every slot is busy.
     */
    @Override
    public InvocationType invocationType() {
        return InvocationType.NON_BLOCKING;
    }

    @Override
    public void handle(Request req, Response res) throws Exception {
        String path = req.path();
        boolean live = path.endsWith("/live");
        if (!live && !path.endsWith("/ready")) {
            res.status(404).header("Cache-Control", "no-store").send("Not Found\n");
            return;
        }
        if (!req.method().equals("GET") && !req.method().equals("HEAD")) {
            res.status(405).header("Allow", "GET, HEAD").send("Method Not Allowed\n");
            return;
        }
        res.header("Cache-Control", "no-store").header("Content-Type", "application/json");
        Readiness r = live ? Readiness.READY : stats.readiness();
        if (r.ready()) {
            res.status(200).send(UP);
        } else {
            res.status(503).send(("{\"status\":\"DOWN\",\"reason\":\"" + r.reason() + "\"}\n")
                    .getBytes(StandardCharsets.US_ASCII));
        }
    }

    /**
     * Routes {@code prefix + "/live"} and {@code prefix + "/ready"} to the probes and everything
     * else to {@code next}: what {@link HealthFeature} puts in front of the
     * application's handler. The cost for other requests is one {@code startsWith}.
     *
     * @param prefix a path starting with {@code /}, without a trailing {@code /} ({@code /health})
     * @param stats the server's counts (as for the constructor)
     * @param next the application's handler
     * @return the probes in front of {@code next}
     * @throws IllegalArgumentException for a prefix not of that form
     */
    public static Handler mount(String prefix, ServerStats stats, Handler next) {
        return new Mount(checkPrefix(prefix), new HealthHandler(stats), Objects.requireNonNull(next));
    }

    /**
     * Checks a probes' prefix as {@link #mount} takes it.
     *
     * @param prefix a path starting with {@code /}, without a trailing {@code /} ({@code /health})
     * @return {@code prefix}
     * @throws IllegalArgumentException for a prefix not of that form
     */
    public static String checkPrefix(String prefix) {
        if (!prefix.startsWith("/") || prefix.endsWith("/") || prefix.indexOf('?') >= 0) {
            throw new IllegalArgumentException("health prefix must start with / and not end with / (like /health): "
                    + prefix);
        }
        return prefix;
    }

    /** The probes in front of an application's handler. */
    private static final class Mount implements Handler {
        private final String live;
        private final String ready;
        private final HealthHandler health;
        private final Handler next;

        Mount(String prefix, HealthHandler health, Handler next) {
            this.live = prefix + "/live";
            this.ready = prefix + "/ready";
            this.health = health;
            this.next = next;
        }

        /** Non-blocking when the application's handler is; else it depends on the path. */
        @Override
        public InvocationType invocationType() {
            return next.invocationType() == InvocationType.NON_BLOCKING ? InvocationType.NON_BLOCKING
                    : InvocationType.BY_REQUEST;
        }

        @Override
        public InvocationType invocationType(String method, String path) {
            return path.equals(live) || path.equals(ready) ? InvocationType.NON_BLOCKING
                    : next.invocationType(method, path);
        }

        /** The probes on the poller; the application's handler when it says so for the path. */
        @Override
        public Handler nonBlockingHandler(String method, String path) {
            return path.equals(live) || path.equals(ready) ? health : next.nonBlockingHandler(method, path);
        }

        @Override
        public void handle(Request req, Response res) throws Exception {
            String path = req.path();
            if (path.equals(live) || path.equals(ready)) {
                health.handle(req, res);
            } else {
                next.handle(req, res);
            }
        }
    }
}
