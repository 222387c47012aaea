package org.loommpm.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Turns the raw outputs of {@code benchmarks/run.sh} into the Markdown results and an SVG chart:
 * {@code java -cp loom-mpm-bench.jar org.loommpm.bench.Report RESULT_DIR OUT.md} (the chart is
 * written next to it as {@code OUT.svg}).
 *
 * <p>Reads {@code RESULT_DIR/meta.txt} ({@code key: value} lines; {@code servers} and
 * {@code workloads} give the order), {@code wrk/W_SERVER_rN.txt} (workloads a-d),
 * {@code open/W_SERVER_rN.txt} (e-g, {@link OpenLoop} output), {@code startup/SERVER_rN.txt} (h)
 * and {@code h2/i_SERVER_rN.txt} (i, h2load output).
 */
public final class Report {
    private static final Map<String, String> TITLES = Map.of(
            "a", "(a) keep-alive, `wrk -t1 -c50 --latency`",
            "b", "(b) keep-alive, `wrk -t1 -c256 --latency`",
            "c", "(c) new connection per request, `wrk -t1 -c50 --latency -H 'Connection: close'`",
            "d", "(d) pipelined depth 16, `wrk -t1 -c256 --latency -s pipeline.lua -- 16`",
            "e", "(e) open loop: highest rate with every request answered and p99 below the limit",
            "f", "(f) server CPU time per request at a fixed offered rate (open loop, 50 connections)",
            "g", "(g) overload: `GET /slow` (20 ms handler) offered 4× what loom sustains",
            "h", "(h) start-up: process start to first 200",
            "i", "(i) HTTP/2 (h2c) multiplexed, `h2load -c16 -m32`");
    private static final Map<String, String> CHART_TITLES = Map.of(
            "a", "(a) keep-alive, 50 connections",
            "b", "(b) keep-alive, 256 connections",
            "c", "(c) new connection per request, 50 at a time",
            "d", "(d) pipelined depth 16, 256 connections");
    /** The peers every row is divided by, in this order, when they were run. */
    private static final List<String> REFERENCES = List.of("helidon", "netty", "undertow");
    /** The load tool's share of its core at or above which a row measured the client, not the server. */
    private static final double CLIENT_SATURATED_PCT = 90;
    private static final Pattern FILE = Pattern.compile("(?:([a-z])_)?([a-z0-9-]+)_r(\\d+)\\.txt");

    private final Path dir;
    private final Map<String, String> meta;
    private final List<String> servers;
    private final StringBuilder md = new StringBuilder();
    private final List<Chart.Panel> panels = new ArrayList<>();

    private Report(Path dir) throws IOException {
        this.dir = dir;
        this.meta = new LinkedHashMap<>();
        for (String line : Files.readAllLines(dir.resolve("meta.txt"))) {
            int c = line.indexOf(':');
            if (c > 0) {
                meta.put(line.substring(0, c).trim(), line.substring(c + 1).trim());
            }
        }
        this.servers = List.of(meta.getOrDefault("servers", "loom helidon jetty netty").split("\\s+"));
    }

    public static void main(String[] args) throws IOException {
        Path out = Path.of(args[1]);
        Report r = new Report(Path.of(args[0]));
        String svgName = out.getFileName().toString().replaceFirst("\\.md$", "") + ".svg";
        r.render(svgName);
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, r.md.toString());
        Files.writeString(out.resolveSibling(svgName),
                Chart.svg("loom-mpm vs Helidon, Jetty, Netty, Undertow — " + r.meta.getOrDefault("date", ""), r.panels));
        System.out.print(r.md);
    }

    private void render(String svgName) throws IOException {
        md.append("# Side-by-side plaintext load results, ").append(meta.getOrDefault("date", "")).append("\n\n");
        md.append("Produced by `benchmarks/run.sh` (raw outputs: `benchmarks/results/")
                .append(dir.getFileName()).append("/`, not committed). Chart: [").append(svgName).append("](")
                .append(svgName).append(").\n\n");
        md.append("| setting | value |\n| --- | --- |\n");
        for (var e : meta.entrySet()) {
            md.append("| ").append(e.getKey()).append(" | ").append(e.getValue().replace("|", "\\|")).append(" |\n");
        }
        md.append("\nEach cell is the median over the rounds, with min–max in parentheses. Ratios divide this")
                .append(" server's median by Helidon's, Netty's and Undertow's (columns only for those run).")
                .append(" Client CPU % is the load tool's CPU time over its wall time (one core = 100 %): at ")
                .append(String.format(java.util.Locale.ROOT, "%.0f", CLIENT_SATURATED_PCT))
                .append(" % or more the client, not the server, set the pace, and the row's rate is marked as a")
                .append(" lower bound.\n");
        for (String w : meta.getOrDefault("workloads", "a b c d").split("\\s+")) {
            md.append("\n## ").append(TITLES.getOrDefault(w, w)).append("\n\n");
            switch (w) {
                case "a", "b", "c", "d" -> wrkSection(w);
                case "e" -> searchSection();
                case "f" -> cpuSection();
                case "g" -> overloadSection();
                case "h" -> startupSection();
                case "i" -> h2Section();
                default -> md.append("(unknown workload)\n");
            }
        }
    }

    // ---- a-d: wrk ----

    private void wrkSection(String w) throws IOException {
        Map<String, List<WrkRun>> runs = new LinkedHashMap<>();
        for (var e : texts("wrk", w).entrySet()) {
            runs.put(e.getKey(), e.getValue().stream().map(WrkRun::parse).toList());
        }
        md.append("Server CPU µs/req = the server's CPU time (utime + stime) during the run / requests completed;")
                .append(" JIT µs/req = the part of it the JVM's JIT compiler threads took (the server was still compiling;")
                .append(" run.sh warms up until that is at most JIT_SETTLE_PCT % of its CPU, — where not recorded).")
                .append(" Errors are wrk's socket errors and non-2xx responses, summed over the rounds. Ratios:")
                .append(" req/s, then server CPU per request.\n\n");
        List<String> refs = references();
        md.append("| server | rounds | req/s | p50 ms | p99 ms | server CPU µs/req | JIT µs/req | wrk CPU % |");
        refs.forEach(r -> md.append(" vs ").append(name(r)).append(" (req/s, CPU) |"));
        md.append(" errors |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
        refs.forEach(r -> md.append(" ---: |"));
        md.append(" --- |\n");
        Map<String, double[]> chart = new LinkedHashMap<>();
        Map<String, double[]> cpuChart = new LinkedHashMap<>();
        for (String s : servers) {
            List<WrkRun> rs = runs.getOrDefault(s, List.of());
            double[] rps = Stats.values(rs, WrkRun::rps);
            chart.put(s, rps);
            cpuChart.put(s, Stats.values(rs, WrkRun::cpuMicrosPerRequest));
            double[] client = Stats.values(rs, WrkRun::clientCpuPercent);
            md.append("| ").append(s).append(" | ").append(rs.size())
                    .append(" | ").append(Stats.cell(rps, "%,.0f")).append(clientBound(client))
                    .append(" | ").append(Stats.cell(Stats.values(rs, WrkRun::p50), "%.2f"))
                    .append(" | ").append(Stats.cell(Stats.values(rs, WrkRun::p99), "%.2f"))
                    .append(" | ").append(Stats.cell(Stats.values(rs, WrkRun::cpuMicrosPerRequest), "%.1f"))
                    .append(" | ").append(Stats.cell(Stats.values(rs, WrkRun::jitMicrosPerRequest), "%.1f"))
                    .append(" | ").append(Stats.cell(client, "%.0f"));
            for (String r : refs) {
                List<WrkRun> other = runs.getOrDefault(r, List.of());
                md.append(" | ").append(Stats.ratio(Stats.median(rps), Stats.median(Stats.values(other, WrkRun::rps))))
                        .append(", ").append(Stats.ratio(Stats.median(Stats.values(rs, WrkRun::cpuMicrosPerRequest)),
                                Stats.median(Stats.values(other, WrkRun::cpuMicrosPerRequest))));
            }
            md.append(" | ").append(WrkRun.errors(rs)).append(" |\n");
        }
        panels.add(new Chart.Panel(CHART_TITLES.get(w), "req/s", true, chart));
        panels.add(new Chart.Panel(CHART_TITLES.get(w) + ": server CPU per request", "µs/req", false, cpuChart));
    }

    // ---- i: h2load ----

    /** One h2load run: req/s, succeeded and failed requests, the server's CPU seconds. */
    record H2loadRun(double rps, double succeeded, double failed, double cpuSeconds, double clientCpuPercent) {
        private static final Pattern FINISHED = Pattern.compile("finished in [^,]+, ([0-9.]+) req/s");
        private static final Pattern REQUESTS = Pattern.compile(
                "requests: \\d+ total, \\d+ started, \\d+ done, (\\d+) succeeded, (\\d+) failed");
        private static final Pattern CPU = Pattern.compile("# server_cpu_s=([0-9.]+)");

        static H2loadRun parse(String text) {
            return new H2loadRun(group(FINISHED, text), group(REQUESTS, text), group2(REQUESTS, text), group(CPU, text),
                    WrkRun.clientCpuPercent(text));
        }

        double cpuMicrosPerRequest() {
            return succeeded > 0 ? cpuSeconds * 1e6 / succeeded : Double.NaN;
        }

        private static double group(Pattern p, String text) {
            Matcher m = p.matcher(text);
            return m.find() ? Double.parseDouble(m.group(1)) : Double.NaN;
        }

        private static double group2(Pattern p, String text) {
            Matcher m = p.matcher(text);
            return m.find() ? Double.parseDouble(m.group(2)) : Double.NaN;
        }
    }

    private void h2Section() throws IOException {
        md.append("h2c with prior knowledge, 16 connections × 32 concurrent streams, GET /plaintext, after a")
                .append(" warm-up (").append(meta.getOrDefault("i", "")).append("). Only servers whose")
                .append(" benchmark app speaks h2c are run.\n\n");
        md.append("| server | rounds | req/s | server CPU µs/req | h2load CPU % | failed |\n");
        md.append("| --- | ---: | ---: | ---: | ---: | ---: |\n");
        Map<String, double[]> chart = new LinkedHashMap<>();
        for (var e : texts("h2", "i").entrySet()) {
            List<H2loadRun> rs = e.getValue().stream().map(H2loadRun::parse).toList();
            double[] rps = Stats.values(rs, H2loadRun::rps);
            chart.put(e.getKey(), rps);
            double[] client = Stats.values(rs, H2loadRun::clientCpuPercent);
            md.append("| ").append(e.getKey()).append(" | ").append(rs.size())
                    .append(" | ").append(Stats.cell(rps, "%,.0f")).append(clientBound(client))
                    .append(" | ").append(Stats.cell(Stats.values(rs, H2loadRun::cpuMicrosPerRequest), "%.1f"))
                    .append(" | ").append(Stats.cell(client, "%.0f"))
                    .append(" | ").append(Stats.cell(Stats.values(rs, H2loadRun::failed), "%.0f")).append(" |\n");
        }
        panels.add(new Chart.Panel("(i) HTTP/2 h2c, h2load -c16 -m32", "req/s", true, chart));
    }

    // ---- e: open-loop search ----

    private void searchSection() throws IOException {
        Map<String, List<KeyValues>> max = lines("e", "MAX");
        Map<String, double[]> rates = new LinkedHashMap<>();
        for (String s : servers) {
            rates.put(s, Stats.values(max.get(s), kv -> kv.number("rate")));
        }
        double limit = max.values().stream().flatMap(List::stream).mapToDouble(kv -> kv.number("p99_limit_ms"))
                .findFirst().orElse(Double.NaN);
        md.append("`OpenLoop search`: 50 connections, steps of ×1.5 then three bisections; a step passes when")
                .append(" every request is answered within 1 s and p99 < ").append(limit).append(" ms (latency from")
                .append(" the scheduled send time). Client busy is the share of the last passing step the load")
                .append(" generator's loop spent working rather than waiting for the network: near 100 % means the")
                .append(" client, not the server, set the limit.\n\n");
        List<String> refs = references();
        md.append("| server | rounds | max rate req/s | p99 ms at max | server CPU µs/req at max | client busy % at max | client CPU % at max |");
        refs.forEach(r -> md.append(" vs ").append(name(r)).append(" |"));
        md.append("\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
        refs.forEach(r -> md.append(" ---: |"));
        md.append("\n");
        for (String s : servers) {
            List<KeyValues> best = passingSteps(s);
            double[] busy = Stats.values(best, kv -> kv.number("client_busy_pct"));
            md.append("| ").append(s).append(" | ").append(rates.get(s).length)
                    .append(" | ").append(Stats.cell(rates.get(s), "%,.0f")).append(clientBound(busy))
                    .append(" | ").append(Stats.cell(Stats.values(best, kv -> kv.number("p99_ms")), "%.2f"))
                    .append(" | ").append(Stats.cell(Stats.values(best, kv -> kv.number("server_cpu_us_per_req")), "%.2f"))
                    .append(" | ").append(Stats.cell(busy, "%.0f"))
                    .append(" | ").append(Stats.cell(Stats.values(best, kv -> kv.number("client_cpu_pct")), "%.0f"));
            for (String r : refs) {
                md.append(" | ").append(Stats.ratio(Stats.median(rates.get(s)), Stats.median(rates.get(r))));
            }
            md.append(" |\n");
        }
        panels.add(new Chart.Panel("(e) open-loop max rate, p99 < " + limit + " ms", "req/s", true, rates));
    }

    /** Per round, the STEP line at the rate the search settled on. */
    private List<KeyValues> passingSteps(String server) throws IOException {
        List<KeyValues> out = new ArrayList<>();
        for (String text : texts("open", "e").getOrDefault(server, List.of())) {
            KeyValues max = KeyValues.last(text, "MAX");
            for (String line : text.split("\n")) {
                KeyValues step = KeyValues.last(line, "STEP");
                if (max != null && step != null && Math.abs(step.number("rate") - max.number("rate")) < 1) {
                    out.add(step);
                }
            }
        }
        return out;
    }

    // ---- f: CPU per request ----

    private void cpuSection() throws IOException {
        Map<String, List<KeyValues>> res = lines("f", "RESULT");
        md.append("`OpenLoop rate`: 50 connections, the same offered rate for every server; server CPU µs/req =")
                .append(" the server's CPU time during the run / requests completed (JIT µs/req: the part its JIT")
                .append(" compiler threads took). Lower is better; the ratios")
                .append(" divide CPU per request, so below 1.00× means cheaper than that server. Client CPU % is")
                .append(" near 100 at high rates by design: the client polls (`selectNow`) whenever its next send")
                .append(" is due within 50 µs rather than sleep past it; client busy % (its loop's time outside")
                .append(" `select`) is its load, and the schedule held while achieved = offered.\n\n");
        List<String> refs = references();
        md.append("| server | rounds | offered req/s | achieved req/s | server CPU µs/req | JIT µs/req | p99 ms | failed | client busy % | client CPU % |");
        refs.forEach(r -> md.append(" vs ").append(name(r)).append(" |"));
        md.append("\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
        refs.forEach(r -> md.append(" ---: |"));
        md.append("\n");
        Map<String, double[]> cpu = new LinkedHashMap<>();
        for (String s : servers) {
            cpu.put(s, Stats.values(res.get(s), kv -> kv.number("server_cpu_us_per_req")));
        }
        for (String s : servers) {
            List<KeyValues> rs = res.getOrDefault(s, List.of());
            md.append("| ").append(s).append(" | ").append(rs.size())
                    .append(" | ").append(Stats.cell(Stats.values(rs, kv -> kv.number("rate")), "%,.0f"))
                    .append(" | ").append(Stats.cell(Stats.values(rs, kv -> kv.number("achieved_rps")), "%,.0f"))
                    .append(" | ").append(Stats.cell(cpu.get(s), "%.2f"))
                    .append(" | ").append(Stats.cell(Stats.values(rs, kv -> kv.number("server_jit_us_per_req")), "%.2f"))
                    .append(" | ").append(Stats.cell(Stats.values(rs, kv -> kv.number("p99_ms")), "%.2f"))
                    .append(" | ").append(Stats.cell(Stats.values(rs, kv -> kv.number("failed")), "%.0f"))
                    .append(" | ").append(Stats.cell(Stats.values(rs, kv -> kv.number("client_busy_pct")), "%.0f"))
                    .append(" | ").append(Stats.cell(Stats.values(rs, kv -> kv.number("client_cpu_pct")), "%.0f"));
            for (String r : refs) {
                md.append(" | ").append(Stats.ratio(Stats.median(cpu.get(s)), Stats.median(cpu.get(r))));
            }
            md.append(" |\n");
        }
        panels.add(new Chart.Panel("(f) server CPU per request at a fixed rate", "µs/req", false, cpu));
    }

    // ---- g: overload ----

    private void overloadSection() throws IOException {
        Map<String, List<KeyValues>> res = lines("g", "RESULT");
        md.append("`OpenLoop rate` on `/slow`; connections (opened as requests queue): ")
                .append(meta.getOrDefault("g connections", "2048"))
                .append("; deadline 1 s from the scheduled time. Failed =")
                .append(" never sent before the deadline + sent but unanswered at the deadline + connection errors")
                .append(" + non-2xx. p50/p99 are over completed requests, from the scheduled time (what a user")
                .append(" waits, including time queued in the client for a connection); \"p99 from send\" starts at")
                .append(" the write (the server's own response time). loom-noac is loom with `AdmissionControl Off`.\n\n");
        md.append("| server | rounds | offered req/s | completed req/s | p50 ms | p99 ms | p99 ms from send | failed | connect errors | peak connections | server CPU µs/completed req |\n");
        md.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        List<String> rows = new ArrayList<>(servers);
        if (res.containsKey("loom-noac")) {
            rows.add(rows.indexOf("loom") + 1, "loom-noac");
        }
        Map<String, double[]> p99 = new LinkedHashMap<>();
        Map<String, double[]> completed = new LinkedHashMap<>();
        for (String s : rows) {
            List<KeyValues> rs = res.getOrDefault(s, List.of());
            p99.put(s, Stats.values(rs, kv -> kv.number("p99_ms")));
            completed.put(s, Stats.values(rs, kv -> kv.number("achieved_rps")));
            md.append("| ").append(s).append(" | ").append(rs.size())
                    .append(" | ").append(Stats.cell(Stats.values(rs, kv -> kv.number("rate")), "%,.0f"))
                    .append(" | ").append(Stats.cell(completed.get(s), "%,.0f"))
                    .append(" | ").append(Stats.cell(Stats.values(rs, kv -> kv.number("p50_ms")), "%.1f"))
                    .append(" | ").append(Stats.cell(p99.get(s), "%.1f"))
                    .append(" | ").append(Stats.cell(Stats.values(rs, kv -> kv.number("service_p99_ms")), "%.1f"))
                    .append(" | ").append(Stats.cell(Stats.values(rs, kv -> kv.number("failed")), "%,.0f"))
                    .append(" | ").append(Stats.cell(Stats.values(rs, kv -> kv.number("connect_errors")), "%,.0f"))
                    .append(" | ").append(Stats.cell(Stats.values(rs, kv -> kv.number("max_connections")), "%.0f"))
                    .append(" | ").append(Stats.cell(Stats.values(rs, kv -> kv.number("server_cpu_us_per_req")), "%.1f"))
                    .append(" |\n");
        }
        panels.add(new Chart.Panel("(g) overload: requests completed in time at 4× loom's capacity", "req/s", true,
                completed));
    }

    // ---- h: start-up ----

    private void startupSection() throws IOException {
        Map<String, List<KeyValues>> res = lines(null, "STARTUP");
        md.append("`StartupTime`: from just before the process is spawned (same JVM flags, pinned like the")
                .append(" load runs) to a complete `200` for `GET /plaintext` (`GET /` for `loom-jar`, the")
                .append(" product jar `java -jar loom-mpm.jar` with its embedded default, and `loom-jar-aot`, the")
                .append(" same with the AOT cache a training run made; `loom-jar-nopreload` without its start-up")
                .append(" class preloading), probing every millisecond; servers interleaved, a fresh process each")
                .append(" time. `jdk` starts from a jar of its own (`jdk-httpserver-bench.jar`), the other")
                .append(" servers of the bench app from `loom-mpm-bench.jar`. Issue #20's target for `java -jar")
                .append(" loom-mpm.jar`: ≤ 250 ms median and ≤ the JDK's own `com.sun.net.httpserver` (`jdk`).\n\n");
        List<String> hServers = meta.containsKey("h servers")
                ? List.of(meta.get("h servers").split("\\s+")) : servers;
        List<String> refs = new ArrayList<>();
        if (hServers.contains("jdk")) {
            refs.add("jdk");
        }
        REFERENCES.stream().filter(hServers::contains).forEach(refs::add);
        md.append("| server | runs | median ms (min–max) | CPU ms to the first 200 (all threads) |");
        refs.forEach(r -> md.append(" vs ").append(name(r)).append(" |"));
        md.append("\n| --- | ---: | ---: | ---: |");
        refs.forEach(r -> md.append(" ---: |"));
        md.append("\n");
        Map<String, double[]> ms = new LinkedHashMap<>();
        for (String s : hServers) {
            ms.put(s, Stats.values(res.get(s), kv -> kv.number("ms")));
        }
        for (String s : hServers) {
            double[] cpu = Stats.values(res.get(s), kv -> kv.number("cpu_ms") < 0 ? Double.NaN : kv.number("cpu_ms"));
            md.append("| ").append(s).append(" | ").append(ms.get(s).length)
                    .append(" | ").append(Stats.cell(ms.get(s), "%.0f"))
                    .append(" | ").append(Stats.cell(cpu, "%.0f"));
            for (String r : refs) {
                md.append(" | ").append(Stats.ratio(Stats.median(ms.get(s)), Stats.median(ms.get(r))));
            }
            md.append(" |\n");
        }
        panels.add(new Chart.Panel("(h) start to first 200", "ms", false, ms));
    }

    /** The reference peers that were run, in {@link #REFERENCES} order. */
    private List<String> references() {
        return REFERENCES.stream().filter(servers::contains).toList();
    }

    private static String name(String server) {
        if (server.equals("jdk")) {
            return "JDK httpserver";
        }
        return Character.toUpperCase(server.charAt(0)) + server.substring(1);
    }

    /** A note after a rate when the load tool's median share of its core says the client was the limit. */
    private static String clientBound(double[] clientPercent) {
        return Stats.median(clientPercent) >= CLIENT_SATURATED_PCT ? " (client saturated: lower bound)" : "";
    }

    // ---- raw files ----

    /** server → texts of {@code sub/W_SERVER_rN.txt} (or {@code startup/SERVER_rN.txt} when w is null), by round. */
    private Map<String, List<String>> texts(String sub, String w) throws IOException {
        Map<String, List<String>> out = new LinkedHashMap<>();
        Path d = dir.resolve(sub);
        if (!Files.isDirectory(d)) {
            return out;
        }
        try (Stream<Path> files = Files.list(d)) {
            for (Path f : files.sorted().toList()) {
                Matcher m = FILE.matcher(f.getFileName().toString());
                if (m.matches() && (w == null ? m.group(1) == null : w.equals(m.group(1)))) {
                    out.computeIfAbsent(m.group(2), k -> new ArrayList<>()).add(Files.readString(f));
                }
            }
        }
        return out;
    }

    /** server → the last {@code tag} line of each round's open-loop (or start-up) output. */
    private Map<String, List<KeyValues>> lines(String w, String tag) throws IOException {
        Map<String, List<KeyValues>> out = new LinkedHashMap<>();
        for (var e : texts(w == null ? "startup" : "open", w).entrySet()) {
            out.put(e.getKey(), e.getValue().stream().map(t -> KeyValues.last(t, tag))
                    .filter(Objects::nonNull).toList());
        }
        return out;
    }
}
