package org.loommpm.bench;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import org.loommpm.metrics.MetricsFeature;
import org.loommpm.server.LoomServer;
import org.loommpm.api.Router;
import org.loommpm.metrics.MetricsHandler;
import org.loommpm.status.StatusHandler;

/**
 * The server of {@code benchmarks/metrics-cost.sh} and {@code benchmarks/screenshot-status.sh}:
 * {@code GET /plaintext} answers "Hello, World!", {@code /server-status} is the status page,
 * {@code /slow?ms=N} sleeps N ms (so the status page has requests in flight) and, with metrics
 * on, {@code /metrics} is the Prometheus endpoint.
 *
 * <pre>
 * java -cp ... org.loommpm.bench.MetricsCostServer PORT on|off [ThreadsPerChild] [StartServers]
 * </pre>
 * Prints {@code READY} once listening. Keep-alive settings as in the load harness (unlimited
 * requests per connection, 300 s idle).
 */
public final class MetricsCostServer {
    private MetricsCostServer() {
    }

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        boolean metrics = args[1].equals("on");
        int threads = args.length > 2 ? Integer.parseInt(args[2]) : 256;
        int children = args.length > 3 ? Integer.parseInt(args[3]) : 1;
        byte[] hello = "Hello, World!".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        LoomServer.Builder builder = LoomServer.builder().listen(BenchServer.bindAddress(), port)
                .configure(c -> c.maxKeepAliveRequests(0).keepAliveTimeout(Duration.ofSeconds(300))
                        .threadsPerChild(threads).startServers(children));
        Router router = new Router()
                .get("/plaintext", (req, res) -> {
                    res.header("Content-Type", "text/plain");
                    res.send(hello);
                })
                .get("/slow", (req, res) -> {
                    String ms = req.queryParam("ms");
                    Thread.sleep(ms != null ? Long.parseLong(ms) : 1000);
                    res.send("slept\n");
                })
                .get("/server-status", new StatusHandler(builder.stats()));
        if (metrics) {
            PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
            router.get("/metrics", new MetricsHandler(prometheus));
            builder.feature(new MetricsFeature(prometheus));
        }
        LoomServer server = builder.handler(router).start();
        System.out.println("READY " + server.port() + " metrics=" + (metrics ? "on" : "off"));
        Runtime.getRuntime().addShutdownHook(new Thread(server::close));
        server.awaitStop();
    }
}
