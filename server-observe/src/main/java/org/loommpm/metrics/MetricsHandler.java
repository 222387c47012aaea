package org.loommpm.metrics;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.util.Locale;
import org.loommpm.api.Handler;
import org.loommpm.api.Request;
import org.loommpm.api.Response;

/**
 * Serves a Prometheus registry's meters for scraping (the API side of {@code SetHandler metrics}):
 * the Prometheus text format 0.0.4, or OpenMetrics 1.0 when the scraper's {@code Accept} asks
 * for {@code application/openmetrics-text}. {@code GET} and {@code HEAD} only.
 *
 * <p>Needs {@code io.micrometer:micrometer-registry-prometheus} on the class path (an optional
 * dependency of server-observe). Give the same registry to a {@link MetricsFeature} so the
 * engine and request meters are in it:
 * <pre>{@code
 * PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
 * Router router = new Router().get("/metrics", new MetricsHandler(prometheus));
 * LoomServer.builder().feature(new MetricsFeature(prometheus)).handler(router).start();
 * }</pre>
 * The exposition is public information about the server: restrict who may read it (the shipped
 * configuration allows only loopback clients).
 */
// "exports": org.loommpm.observe requires the Prometheus registry statically (only this class needs
// it), so an application that builds a MetricsHandler requires micrometer.registry.prometheus.
@SuppressWarnings("exports")
public final class MetricsHandler implements Handler {
    /** The Prometheus text format's media type (what the registry writes for it). */
    public static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";
    /** The OpenMetrics text format's media type. */
    public static final String OPENMETRICS_TEXT = "application/openmetrics-text; version=1.0.0; charset=utf-8";

    private final PrometheusMeterRegistry registry;

    /**
     * A handler serving the meters of {@code registry}.
     * @param registry the registry to expose
     *
     */
    public MetricsHandler(PrometheusMeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void handle(Request req, Response res) throws Exception {
        if (!req.method().equals("GET") && !req.method().equals("HEAD")) {
            res.status(405).header("Allow", "GET, HEAD").send("Method Not Allowed\n");
            return;
        }
        String contentType = wantsOpenMetrics(req.header("Accept"))
                ? OPENMETRICS_TEXT
                : PROMETHEUS_TEXT;
        ByteArrayOutputStream body = new ByteArrayOutputStream(16 * 1024);
        registry.scrape(body, contentType);
        res.header("Content-Type", contentType);
        res.header("Cache-Control", "no-store");
        res.send(body.toByteArray());
    }

    private static boolean wantsOpenMetrics(String accept) {
        return accept != null && accept.toLowerCase(Locale.ROOT).contains("application/openmetrics-text");
    }
}
