package org.loommpm.bench;

import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Constant-rate HTTP/1.1 load with coordinated-omission-free latencies (a wrk2 stand-in; see
 * {@link OpenLoopClient}):
 * <pre>
 * java -cp loom-mpm-bench.jar org.loommpm.bench.OpenLoop --port P [options] rate   R [--seconds S]
 * java -cp loom-mpm-bench.jar org.loommpm.bench.OpenLoop --port P [options] search [--start R] [--max R] [--p99-ms 10]
 * </pre>
 * Options: {@code --host} (127.0.0.1), {@code --path} (/plaintext), {@code --connections} opened
 * before the first run (50), {@code --max-connections} (same as --connections), {@code --deadline-ms}
 * (1000), {@code --warmup} seconds at the first rate (or at {@code --warmup-rate}), discarded (2),
 * {@code --server-pid} to report the server's CPU time per request.
 *
 * <p>{@code rate} prints one {@code RESULT} line. {@code search} looks for the highest rate the
 * server sustains with every request answered in time and p99 below the threshold: steps of
 * ×1.5 from {@code --start} until a step fails (or {@code --max}), then three geometric
 * bisections between the last passing and the first failing rate; each step runs
 * {@code --step-seconds} (3) after a 1 s pause that lets a failed step's backlog drain, and a
 * failing step is tried once more before it counts as failed. It prints
 * a {@code STEP} line per step and a final {@code MAX} line.
 */
public final class OpenLoop {
    private OpenLoop() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opt = new LinkedHashMap<>();
        String mode = null;
        double rate = 0;
        for (int i = 0; i < args.length; i++) {
            if (args[i].startsWith("--")) {
                opt.put(args[i].substring(2), args[++i]);
            } else if (mode == null) {
                mode = args[i];
                if (mode.equals("rate")) {
                    rate = Double.parseDouble(args[++i]);
                }
            }
        }
        if (mode == null || !(mode.equals("rate") || mode.equals("search")) || !opt.containsKey("port")) {
            System.err.println("usage: OpenLoop --port P [--host H] [--path /plaintext] [--connections 50]"
                    + " [--max-connections N] [--deadline-ms 1000] [--warmup 2] [--warmup-rate R] [--server-pid PID]"
                    + " (rate R [--seconds 8] | search [--start 5000] [--max 400000] [--step-seconds 3] [--p99-ms 10])");
            System.exit(2);
        }
        int connections = Integer.parseInt(opt.getOrDefault("connections", "50"));
        int maxConnections = Integer.parseInt(opt.getOrDefault("max-connections", Integer.toString(connections)));
        var target = new InetSocketAddress(opt.getOrDefault("host", "127.0.0.1"), Integer.parseInt(opt.get("port")));
        try (var client = new OpenLoopClient(target, opt.getOrDefault("path", "/plaintext"), maxConnections,
                Long.parseLong(opt.getOrDefault("deadline-ms", "1000")),
                Integer.parseInt(opt.getOrDefault("server-pid", "0")))) {
            client.connect(connections);
            double warmup = Double.parseDouble(opt.getOrDefault("warmup", "2"));
            if (mode.equals("rate")) {
                if (warmup > 0) {
                    client.run(Double.parseDouble(opt.getOrDefault("warmup-rate", Double.toString(rate))), warmup);
                }
                System.out.println(client.run(rate, Double.parseDouble(opt.getOrDefault("seconds", "8"))).line("RESULT"));
            } else {
                search(client, opt, warmup);
            }
        }
    }

    private static void search(OpenLoopClient client, Map<String, String> opt, double warmup) throws Exception {
        double start = Double.parseDouble(opt.getOrDefault("start", "5000"));
        double max = Double.parseDouble(opt.getOrDefault("max", "400000"));
        double step = Double.parseDouble(opt.getOrDefault("step-seconds", "3"));
        double p99Ms = Double.parseDouble(opt.getOrDefault("p99-ms", "10"));
        if (warmup > 0) {
            client.run(Double.parseDouble(opt.getOrDefault("warmup-rate", Double.toString(start))), warmup);
        }
        double pass = 0;
        double fail = Double.NaN;
        for (double r = start; r <= max; r *= 1.5) {
            if (passes(client, r, step, p99Ms)) {
                pass = r;
            } else {
                fail = r;
                break;
            }
        }
        if (pass > 0 && !Double.isNaN(fail)) {
            for (int i = 0; i < 3; i++) {
                double mid = Math.sqrt(pass * fail);
                if (passes(client, mid, step, p99Ms)) {
                    pass = mid;
                } else {
                    fail = mid;
                }
            }
        }
        System.out.printf(Locale.ROOT, "MAX rate=%.0f first_failing=%.0f p99_limit_ms=%.1f%n", pass, fail, p99Ms);
    }

    /**
     * One step; a failing step is repeated once, because on a shared machine a single stall
     * (another process, a GC) can fail a short step that the server would otherwise pass.
     */
    private static boolean passes(OpenLoopClient client, double rate, double seconds, double p99Ms) throws Exception {
        for (int attempt = 0; attempt < 2; attempt++) {
            Thread.sleep(1000);
            RunResult r = client.run(rate, seconds);
            boolean ok = r.failed() == 0 && r.latencyMs(99) < p99Ms;
            System.out.println(r.line("STEP") + " pass=" + ok);
            if (ok) {
                return true;
            }
        }
        return false;
    }
}
