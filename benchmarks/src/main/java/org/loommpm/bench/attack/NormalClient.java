package org.loommpm.bench.attack;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The well-behaved client measured while an attack runs: the JDK's HttpClient (HTTP/2, h2c by
 * upgrade on its first request, then every request a stream on that connection; or --http1)
 * sends GET URL at a fixed rate whatever the earlier requests did (open loop, so a stalled
 * server shows as latency and timeouts instead of fewer requests), each with a timeout.
 *
 * <pre>
 * java -cp loom-mpm-bench.jar org.loommpm.bench.attack.NormalClient --url http://127.0.0.1:18090/small.txt \
 *     [--rate 50] [--duration 20] [--timeout 5] [--delay 0] [--http1] [--one-connection] [--new-connection]
 * </pre>
 *
 * {@code --one-connection}: one HTTP/1.1 keep-alive connection, plaintext or TLS (an
 * {@code https://127.0.0.1:} URL, any certificate trusted), opened before measuring: the
 * established client of a TLS handshake flood ({@link OneConnectionClient}).
 * {@code --new-connection}: every request over HTTP/1.1 on a connection of its own
 * ({@code Connection: close}), so each one is a newcomer's first request: the latency includes
 * the wait to be accepted and the first request's wait for a worker (issue #50's fair admission).
 *
 * {@code --delay}: seconds between the first request and the measured ones, so that an attack
 * started together with this client is under way when measuring begins.
 *
 * <p>Percentiles are over every request sent, a timed-out or failed one counting as the timeout, so
 * a p99 equal to the timeout means at least 1 % got no answer. Last line: {@code NORMAL k=v ...}.
 */
public final class NormalClient {
    private NormalClient() {
    }

    public static void main(String[] args) throws Exception {
        String url = null;
        double rate = 50;
        double duration = 20;
        double timeout = 5;
        double delay = 0;
        HttpClient.Version version = HttpClient.Version.HTTP_2;
        boolean oneConnection = false;
        boolean newConnection = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--url" -> url = args[++i];
                case "--rate" -> rate = Double.parseDouble(args[++i]);
                case "--duration" -> duration = Double.parseDouble(args[++i]);
                case "--timeout" -> timeout = Double.parseDouble(args[++i]);
                case "--delay" -> delay = Double.parseDouble(args[++i]);
                case "--http1" -> version = HttpClient.Version.HTTP_1_1;
                case "--one-connection" -> oneConnection = true;
                case "--new-connection" -> newConnection = true;
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        boolean loopback = url != null && (url.startsWith("http://127.0.0.1:")
                || (oneConnection && url.startsWith("https://127.0.0.1:")));
        if (!loopback || rate <= 0 || duration <= 0 || duration > 600) {
            System.err.println("usage: NormalClient --url http://127.0.0.1:PORT/path [--rate R] [--duration S (<= 600)]"
                    + " [--timeout S] [--http1] [--one-connection (also https://127.0.0.1:PORT/path)] [--new-connection]");
            System.exit(2);
        }
        if (oneConnection) {
            new OneConnectionClient(URI.create(url), timeout).run(rate, duration, delay);
            System.exit(0);
        }
        if (newConnection) {
            // Read when the client class initializes: the Connection header is restricted otherwise.
            System.setProperty("jdk.httpclient.allowRestrictedHeaders", "connection");
            version = HttpClient.Version.HTTP_1_1;
        }
        HttpClient client = HttpClient.newBuilder().version(version).connectTimeout(Duration.ofSeconds(5)).build();
        Duration perRequest = Duration.ofMillis((long) (timeout * 1000));
        HttpRequest.Builder rb = HttpRequest.newBuilder(URI.create(url)).timeout(perRequest).GET();
        if (newConnection) {
            rb.header("Connection", "close");
        }
        HttpRequest request = rb.build();
        // One request first, so the h2c upgrade and class loading are not in the figures.
        String negotiated;
        try {
            negotiated = client.send(request, HttpResponse.BodyHandlers.discarding()).version().toString();
        } catch (java.io.IOException e) {
            negotiated = "first-request-failed:" + e.getClass().getSimpleName();
        }
        Thread.sleep((long) (delay * 1000));

        long timeoutNanos = perRequest.toNanos();
        int total = (int) Math.ceil(rate * duration);
        long[] latencies = new long[total];
        Arrays.fill(latencies, timeoutNanos); // one that never completes counts as timed out
        AtomicLong timeouts = new AtomicLong();
        AtomicLong failures = new AtomicLong();
        AtomicLong non200 = new AtomicLong();
        ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();
        CompletableFuture<?>[] all = new CompletableFuture<?>[total];
        long start = System.nanoTime();
        long maxLag = 0;
        for (int k = 0; k < total; k++) {
            long due = start + (long) (k * 1e9 / rate);
            long wait = due - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
            maxLag = Math.max(maxLag, System.nanoTime() - due);
            final int idx = k;
            // Latency is from the scheduled time, so a late send is not hidden (coordinated omission).
            all[k] = client.sendAsync(request, HttpResponse.BodyHandlers.discarding()).handle((res, err) -> {
                long took = System.nanoTime() - due;
                if (err != null) {
                    Throwable cause = err.getCause() != null ? err.getCause() : err;
                    if (cause instanceof HttpTimeoutException) {
                        timeouts.incrementAndGet();
                    } else {
                        failures.incrementAndGet();
                        if (errors.size() < 3) {
                            errors.add(cause.toString());
                        }
                    }
                    latencies[idx] = timeoutNanos;
                } else {
                    if (res.statusCode() != 200) {
                        non200.incrementAndGet();
                    }
                    latencies[idx] = Math.min(took, timeoutNanos);
                }
                return null;
            });
        }
        try {
            CompletableFuture.allOf(all).get((long) (timeout * 1000) + 5000, TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            System.err.println("some requests neither finished nor timed out: " + e);
        }
        long unfinished = Arrays.stream(all).filter(f -> !f.isDone()).count();
        timeouts.addAndGet(unfinished);
        long[] sorted = latencies.clone();
        Arrays.sort(sorted);
        for (String e : errors) {
            System.out.println("error: " + e);
        }
        if (unfinished > 0) {
            System.out.println("unfinished after the timeout + 5 s: " + unfinished + " (counted as timeouts)");
        }
        System.out.printf(Locale.ROOT,
                "NORMAL url=%s version=%s new_connection=%s rate=%.0f sent=%d timeouts=%d failures=%d non200=%d"
                        + " p50_ms=%.1f p90_ms=%.1f p99_ms=%.1f max_ms=%.1f send_lag_max_ms=%.1f%n",
                url, negotiated, newConnection, rate, total, timeouts.get(), failures.get(), non200.get(),
                pct(sorted, 0.50), pct(sorted, 0.90), pct(sorted, 0.99), sorted[total - 1] / 1e6, maxLag / 1e6);
        System.exit(0);
    }

    private static double pct(long[] sorted, double q) {
        int i = (int) Math.ceil(q * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))] / 1e6;
    }
}
