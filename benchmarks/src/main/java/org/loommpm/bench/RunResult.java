package org.loommpm.bench;

import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * The outcome of one constant-rate run of {@link OpenLoopClient}. Latencies are measured from
 * each request's <em>scheduled</em> send time, so time a request spent waiting for a free
 * connection or behind a stalled server counts (no coordinated omission).
 *
 * @param rate offered requests per second
 * @param seconds the schedule's length
 * @param scheduled requests in the schedule
 * @param completed responses received (any status)
 * @param deadline requests never sent: no connection was free before the deadline
 * @param timeouts requests sent but not answered before the deadline (the connection is then aborted)
 * @param errors requests whose connection failed or closed before the response
 * @param non2xx responses with a status outside 200-299
 * @param connectErrors connection attempts that failed or timed out (the requests stay queued)
 * @param maxConnections the most connections open or opening at once
 * @param latency microseconds from scheduled send to complete response, completed requests only
 * @param service microseconds from the actual send to the complete response: the server's
 *     response time without the time the request queued in the client
 * @param sendLag microseconds from scheduled to actual send: waiting for a free connection, plus the client's own lateness
 * @param clientCpuNanos this process's CPU time during the run
 * @param wallNanos the run's length, from the first scheduled send to the last answer or deadline
 * @param clientBusyNanos the part of {@code wallNanos} the client's loop spent outside
 *     {@code select} (waiting for the network); near {@code wallNanos} means the client is the limit
 * @param serverCpuNanos the server process's CPU time during the run, -1 when not measured
 * @param serverJitNanos the part of {@code serverCpuNanos} its JIT compiler threads took, -1 when not measured
 */
record RunResult(double rate, double seconds, long scheduled, long completed, long deadline, long timeouts,
                 long errors, long non2xx, long connectErrors, int maxConnections, Histogram latency,
                 Histogram sendLag, Histogram service, long clientCpuNanos, long wallNanos, long clientBusyNanos,
                 long serverCpuNanos, long serverJitNanos) {

    /** Requests that did not get a 2xx answer in time. */
    long failed() {
        return deadline + timeouts + errors + non2xx;
    }

    /** Latency percentile in milliseconds ({@code NaN} when nothing completed). */
    double latencyMs(double percentile) {
        return latency.getTotalCount() == 0 ? Double.NaN : latency.getValueAtPercentile(percentile) / 1000.0;
    }

    /** Server CPU microseconds per completed request, {@code NaN} when not measured. */
    double serverCpuMicrosPerRequest() {
        return serverCpuNanos < 0 || completed == 0 ? Double.NaN : serverCpuNanos / 1000.0 / completed;
    }

    /** One {@code key=value} line; {@code Report} parses it. */
    String line(String tag) {
        return String.format(Locale.ROOT,
                "%s rate=%.0f seconds=%.1f scheduled=%d completed=%d achieved_rps=%.0f failed=%d deadline=%d"
                        + " timeouts=%d errors=%d non2xx=%d connect_errors=%d max_connections=%d"
                        + " p50_ms=%.3f p90_ms=%.3f p99_ms=%.3f p999_ms=%.3f max_ms=%.3f send_wait_p99_ms=%.3f service_p99_ms=%.3f"
                        + " client_cpu_pct=%.1f client_busy_pct=%.1f server_cpu_s=%.3f server_cpu_us_per_req=%.2f"
                        + " server_jit_us_per_req=%.2f",
                tag, rate, seconds, scheduled, completed, completed / seconds, failed(), deadline, timeouts, errors,
                non2xx, connectErrors, maxConnections, latencyMs(50), latencyMs(90), latencyMs(99), latencyMs(99.9),
                latency.getTotalCount() == 0 ? Double.NaN : latency.getMaxValue() / 1000.0,
                sendLag.getTotalCount() == 0 ? Double.NaN : sendLag.getValueAtPercentile(99) / 1000.0,
                service.getTotalCount() == 0 ? Double.NaN : service.getValueAtPercentile(99) / 1000.0,
                100.0 * clientCpuNanos / wallNanos, 100.0 * clientBusyNanos / wallNanos, serverCpuNanos < 0 ? Double.NaN : serverCpuNanos / 1e9,
                serverCpuMicrosPerRequest(),
                serverJitNanos < 0 || completed == 0 ? Double.NaN : serverJitNanos / 1000.0 / completed);
    }
}
