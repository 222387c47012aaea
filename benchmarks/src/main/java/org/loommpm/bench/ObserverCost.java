package org.loommpm.bench;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.loommpm.metrics.RequestMetrics;

/**
 * What metrics add to one request, in isolation: nanoseconds per
 * {@link RequestMetrics#exchangeCompleted} call (the only work metrics put on the request path)
 * with a Prometheus registry, single-threaded, after warm-up. Complements
 * {@code benchmarks/metrics-cost.sh}, whose throughput figures a shared machine makes noisy.
 *
 * <pre>java -cp ... org.loommpm.bench.ObserverCost [rounds]</pre>
 */
public final class ObserverCost {
    private ObserverCost() {
    }

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        RequestMetrics metrics = new RequestMetrics(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
        int n = 5_000_000;
        double best = Double.MAX_VALUE;
        for (int r = 0; r < rounds; r++) {
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                metrics.exchangeCompleted("HTTP/1.1", "GET", 200, 40, 130, 20_000 + (i & 1023));
            }
            double ns = (System.nanoTime() - t0) / (double) n;
            best = Math.min(best, ns);
            System.out.printf("round %d: %.1f ns per exchange%n", r + 1, ns);
        }
        System.out.printf("best: %.1f ns per exchange%n", best);
    }
}
