package org.loommpm.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One wrk run as {@code run.sh} records it: wrk's output plus a {@code # server_cpu_s=} line, a
 * {@code # server_jit_s=} line (the part of that CPU time the JVM's JIT compiler threads took) and
 * the {@code # client_cpu_s= wall_s=} line of {@code run_client} (common.sh).
 * Latencies in ms; {@code NaN} when missing. wrk 4.1 sometimes prints {@code 0.00us} for a
 * percentile its histogram lost (wg/wrk issues 236 and 354, mostly with pipelining): no response
 * takes zero time, so a zero percentile is read as missing, not as a latency.
 */
record WrkRun(double rps, double p50, double p99, long requests, double serverCpuSeconds, double jitSeconds,
              long connect, long read, long write, long timeout, long non2xx, double clientCpuPercent) {
    private static final Pattern RPS = Pattern.compile("Requests/sec:\\s+([0-9.]+)");
    private static final Pattern REQUESTS = Pattern.compile("(\\d+) requests in ");
    private static final Pattern CPU = Pattern.compile("# server_cpu_s=([0-9.]+)");
    private static final Pattern JIT = Pattern.compile("# server_jit_s=([0-9.]+)");
    private static final Pattern PCT = Pattern.compile("^\\s+(50|99)%\\s+([0-9.]+)(us|ms|s|m)\\s*$", Pattern.MULTILINE);
    private static final Pattern SOCKET = Pattern.compile(
            "Socket errors: connect (\\d+), read (\\d+), write (\\d+), timeout (\\d+)");
    private static final Pattern CLIENT = Pattern.compile("# client_cpu_s=([0-9.]+) wall_s=([0-9.]+)");
    private static final Pattern NON2XX = Pattern.compile("Non-2xx or 3xx responses: (\\d+)");

    static WrkRun parse(String text) {
        double rps = find(RPS, text).map(m -> Double.parseDouble(m.group(1))).orElse(Double.NaN);
        long requests = find(REQUESTS, text).map(m -> Long.parseLong(m.group(1))).orElse(0L);
        double cpu = find(CPU, text).map(m -> Double.parseDouble(m.group(1))).orElse(Double.NaN);
        double jit = find(JIT, text).map(m -> Double.parseDouble(m.group(1))).orElse(Double.NaN);
        double p50 = Double.NaN;
        double p99 = Double.NaN;
        Matcher m = PCT.matcher(text);
        while (m.find()) {
            double v = Double.parseDouble(m.group(2)) * switch (m.group(3)) {
                case "us" -> 0.001;
                case "ms" -> 1.0;
                case "s" -> 1000.0;
                default -> 60_000.0;
            };
            if (v == 0) {
                v = Double.NaN;
            }
            if (m.group(1).equals("50")) {
                p50 = v;
            } else {
                p99 = v;
            }
        }
        long[] sock = find(SOCKET, text)
                .map(s -> new long[] {Long.parseLong(s.group(1)), Long.parseLong(s.group(2)),
                        Long.parseLong(s.group(3)), Long.parseLong(s.group(4))})
                .orElse(new long[4]);
        long non2xx = find(NON2XX, text).map(s -> Long.parseLong(s.group(1))).orElse(0L);
        return new WrkRun(rps, p50, p99, requests, cpu, jit, sock[0], sock[1], sock[2], sock[3], non2xx,
                clientCpuPercent(text));
    }

    /**
     * The load tool's CPU time as a share of its wall time (one core = 100), from the
     * {@code # client_cpu_s= wall_s=} line {@code run_client} appends; {@code NaN} when missing.
     */
    static double clientCpuPercent(String text) {
        return find(CLIENT, text)
                .map(m -> Double.parseDouble(m.group(2)) > 0
                        ? 100 * Double.parseDouble(m.group(1)) / Double.parseDouble(m.group(2)) : Double.NaN)
                .orElse(Double.NaN);
    }

    /** Server CPU microseconds per completed request; {@code NaN} when not recorded. */
    double cpuMicrosPerRequest() {
        return requests == 0 ? Double.NaN : serverCpuSeconds * 1e6 / requests;
    }

    /**
     * The JIT compiler threads' CPU microseconds per completed request, part of
     * {@link #cpuMicrosPerRequest()}; {@code NaN} when not recorded (runs before 29 Nov 2026).
     */
    double jitMicrosPerRequest() {
        return requests == 0 ? Double.NaN : jitSeconds * 1e6 / requests;
    }

    /** The error column: socket errors and non-2xx summed over the runs, {@code 0} when none. */
    static String errors(List<WrkRun> rs) {
        long connect = 0;
        long read = 0;
        long write = 0;
        long timeout = 0;
        long non2xx = 0;
        boolean missing = false;
        for (WrkRun r : rs) {
            connect += r.connect();
            read += r.read();
            write += r.write();
            timeout += r.timeout();
            non2xx += r.non2xx();
            missing |= Double.isNaN(r.rps());
        }
        List<String> parts = new ArrayList<>();
        if (connect > 0) parts.add("connect " + connect);
        if (read > 0) parts.add("read " + read);
        if (write > 0) parts.add("write " + write);
        if (timeout > 0) parts.add("timeout " + timeout);
        if (non2xx > 0) parts.add("non-2xx " + non2xx);
        if (missing) parts.add("a run produced no result");
        return parts.isEmpty() ? "0" : String.join(", ", parts);
    }

    private static Optional<Matcher> find(Pattern p, String text) {
        Matcher m = p.matcher(text);
        return m.find() ? Optional.of(m) : Optional.empty();
    }
}
