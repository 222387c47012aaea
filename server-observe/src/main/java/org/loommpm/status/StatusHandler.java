package org.loommpm.status;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.loommpm.api.Handler;
import org.loommpm.api.InvocationType;
import org.loommpm.server.LoomServer;
import org.loommpm.api.Request;
import org.loommpm.api.Response;
import org.loommpm.api.ServerStats;
import org.loommpm.engine.EngineStats;

/**
 * The server-status page (the API side of {@code SetHandler server-status}), in the spirit of
 * httpd's mod_status, rendered from the engine's own counters: it works whether or not metrics
 * are on.
 * <ul>
 *   <li>no query: an HTML page (uptime, totals, rates, workers, connections, the scoreboard
 *       grid and its key, one section per child, the requests being served);
 *       {@code ?refresh=N} adds a meta refresh every N seconds (1 to 3600; {@code ?refresh}
 *       alone means 1);</li>
 *   <li>{@code ?auto}: mod_status's machine-readable {@code Key: value} text;</li>
 *   <li>{@code ?json}: the same data as one JSON object.</li>
 * </ul>
 * Fields are described in docs/observability.md. {@code GET} and {@code HEAD} only.
 *
 * <p>The page shows client addresses, host names and paths: restrict who may read it (the
 * shipped configuration allows only loopback clients). Everything that came from a client is
 * escaped for HTML and JSON.
 *
 * <pre>{@code
 * LoomServer.Builder builder = LoomServer.builder();
 * Router router = new Router().get("/server-status", new StatusHandler(builder.stats()));
 * LoomServer server = builder.handler(router).start();
 * }</pre>
 */
public final class StatusHandler implements Handler {
    private static final int MAX_REFRESH = 3600;

    private final EngineStats stats;
    private final String version;
    /** Null when the page has none to show. */
    private final LogLineCounts logLines;

    /**
     * A status page for a server.
     *
     * @param stats the server's counts: {@link LoomServer#stats()}, or
     *              {@link LoomServer.Builder#stats()} when the handler is built before the server
     * @throws IllegalArgumentException if {@code stats} is not a server's (an implementation of
     *         {@link ServerStats} of the application's own has no per-child detail to show)
     */
    public StatusHandler(ServerStats stats) {
        this(stats, null);
    }

    /**
     * A status page for a server that also shows its error log's lines per log id.
     *
     * @param stats as for {@link #StatusHandler(ServerStats)}
     * @param logLines the error log's counts, or {@code null} for none
     */
    public StatusHandler(ServerStats stats, LogLineCounts logLines) {
        this.logLines = logLines;
        this.stats = EngineStats.of(Objects.requireNonNull(stats));
        String v = LoomServer.class.getPackage().getImplementationVersion();
        this.version = "loom-mpm/" + (v != null ? v : "dev");
    }

    /**
     * {@link InvocationType#NON_BLOCKING}: the page is rendered from counters in memory, so the
     * poller that read the request may answer it without a worker slot (plaintext HTTP/1.1 and
     * h2c), and the page answers while every slot is busy. Over TLS it waits for a slot like any
     * request, in the pool's newcomer lane when its connection is new.
     */
    @Override
    public InvocationType invocationType() {
        return InvocationType.NON_BLOCKING;
    }

    @Override
    public void handle(Request req, Response res) throws Exception {
        if (!req.method().equals("GET") && !req.method().equals("HEAD")) {
            res.status(405).header("Allow", "GET, HEAD").send("Method Not Allowed\n");
            return;
        }
        Map<String, List<String>> query = req.queryParams();
        StatusSnapshot snapshot = StatusSnapshot.take(stats, serverName(req), version,
                logLines == null ? null : logLines.byId());
        res.header("Cache-Control", "no-store");
        if (query.containsKey("auto")) {
            res.header("Content-Type", "text/plain; charset=UTF-8").send(StatusAuto.render(snapshot));
        } else if (query.containsKey("json")) {
            res.header("Content-Type", "application/json").send(StatusJson.render(snapshot));
        } else {
            res.header("Content-Type", "text/html; charset=UTF-8")
                    .send(StatusHtml.render(snapshot, refresh(query.get("refresh"))));
        }
    }

    /** The name the page is titled with: the Host the client asked for, else the local address. */
    private static String serverName(Request req) {
        String host = req.header("Host");
        if (host != null && !host.isEmpty()) {
            return host;
        }
        return req.localAddress().getAddress().getHostAddress();
    }

    /** The refresh interval asked for, clamped to 1..3600 seconds; 0 when absent or not a number. */
    static int refresh(List<String> values) {
        if (values == null || values.isEmpty()) {
            return 0;
        }
        String v = values.get(0);
        if (v.isEmpty()) {
            return 1;
        }
        try {
            return (int) Math.max(1, Math.min(MAX_REFRESH, Long.parseLong(v)));
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
