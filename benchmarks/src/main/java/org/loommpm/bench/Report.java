package org.loommpm.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Turns the raw wrk outputs of {@code benchmarks/run.sh} into the Markdown results table:
 * {@code java -cp loom-mpm-bench.jar org.loommpm.bench.Report RESULT_DIR OUT.md}.
 *
 * <p>Reads {@code RESULT_DIR/meta.txt} ({@code key: value} lines; {@code servers} and
 * {@code workloads} give the order) and {@code RESULT_DIR/wrk/W_SERVER_rN.txt}.
 */
public final class Report {
    private static final Map<String, String> WORKLOADS = new LinkedHashMap<>();

    static {
        WORKLOADS.put("a", "(a) keep-alive, `wrk -t1 -c50 --latency`");
        WORKLOADS.put("b", "(b) keep-alive, `wrk -t1 -c256 --latency`");
        WORKLOADS.put("c", "(c) new connection per request, `wrk -t1 -c50 --latency -H 'Connection: close'`");
        WORKLOADS.put("d", "(d) pipelined depth 16, `wrk -t1 -c256 --latency -s pipeline.lua -- 16`");
    }

    private static final Pattern FILE = Pattern.compile("([a-z])_([a-z0-9]+)_r(\\d+)\\.txt");
    private static final Pattern RPS = Pattern.compile("Requests/sec:\\s+([0-9.]+)");
    private static final Pattern PCT = Pattern.compile("^\\s+(50|99)%\\s+([0-9.]+)(us|ms|s|m)\\s*$", Pattern.MULTILINE);
    private static final Pattern SOCKET = Pattern.compile(
            "Socket errors: connect (\\d+), read (\\d+), write (\\d+), timeout (\\d+)");
    private static final Pattern NON2XX = Pattern.compile("Non-2xx or 3xx responses: (\\d+)");

    private Report() {
    }

    /** One wrk run. Latencies in ms; NaN when missing. */
    record Run(double rps, double p50, double p99, long connect, long read, long write, long timeout, long non2xx) {
    }

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args[0]);
        Path out = Path.of(args[1]);
        Map<String, String> meta = new LinkedHashMap<>();
        for (String line : Files.readAllLines(dir.resolve("meta.txt"))) {
            int c = line.indexOf(':');
            if (c > 0) {
                meta.put(line.substring(0, c).trim(), line.substring(c + 1).trim());
            }
        }
        List<String> servers = List.of(meta.getOrDefault("servers", "loom helidon jetty netty").split("\\s+"));
        List<String> workloads = List.of(meta.getOrDefault("workloads", "a b c d").split("\\s+"));

        // workload -> server -> runs
        Map<String, Map<String, List<Run>>> runs = new LinkedHashMap<>();
        try (Stream<Path> files = Files.list(dir.resolve("wrk"))) {
            for (Path f : files.sorted().toList()) {
                Matcher m = FILE.matcher(f.getFileName().toString());
                if (m.matches()) {
                    runs.computeIfAbsent(m.group(1), k -> new LinkedHashMap<>())
                            .computeIfAbsent(m.group(2), k -> new ArrayList<>())
                            .add(parse(Files.readString(f)));
                }
            }
        }

        StringBuilder md = new StringBuilder();
        md.append("# Side-by-side plaintext load results, ").append(meta.getOrDefault("date", "")).append("\n\n");
        md.append("Produced by `benchmarks/run.sh` (raw wrk outputs: `benchmarks/results/")
                .append(dir.getFileName()).append("/`, not committed).\n\n");
        md.append("| setting | value |\n| --- | --- |\n");
        for (var e : meta.entrySet()) {
            md.append("| ").append(e.getKey()).append(" | ").append(e.getValue().replace("|", "\\|")).append(" |\n");
        }
        md.append("\nEach cell is the median over the rounds, with min–max in parentheses. Ratios divide this")
                .append(" server's median req/s by Helidon's and by Netty's (— when that server was not run).")
                .append(" Errors are wrk's socket errors and non-2xx responses, summed over the rounds.\n");

        for (String w : workloads) {
            md.append("\n## ").append(WORKLOADS.getOrDefault(w, w)).append("\n\n");
            Map<String, List<Run>> byServer = runs.getOrDefault(w, Map.of());
            double helidon = median(byServer.get("helidon"), Run::rps);
            double netty = median(byServer.get("netty"), Run::rps);
            md.append("| server | rounds | req/s | p50 ms | p99 ms | vs Helidon | vs Netty | errors |\n");
            md.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n");
            for (String s : servers) {
                List<Run> rs = byServer.get(s);
                if (rs == null || rs.isEmpty()) {
                    md.append("| ").append(s).append(" | 0 | — | — | — | — | — | no output |\n");
                    continue;
                }
                double rps = median(rs, Run::rps);
                md.append("| ").append(s)
                        .append(" | ").append(rs.size())
                        .append(" | ").append(cell(rs, Run::rps, "%,.0f"))
                        .append(" | ").append(cell(rs, Run::p50, "%.2f"))
                        .append(" | ").append(cell(rs, Run::p99, "%.2f"))
                        .append(" | ").append(ratio(rps, helidon))
                        .append(" | ").append(ratio(rps, netty))
                        .append(" | ").append(errors(rs))
                        .append(" |\n");
            }
        }
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, md.toString());
        System.out.print(md);
    }

    static Run parse(String text) {
        double rps = find(RPS, text).map(m -> Double.parseDouble(m.group(1))).orElse(Double.NaN);
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
        return new Run(rps, p50, p99, sock[0], sock[1], sock[2], sock[3], non2xx);
    }

    private static java.util.Optional<Matcher> find(Pattern p, String text) {
        Matcher m = p.matcher(text);
        return m.find() ? java.util.Optional.of(m) : java.util.Optional.empty();
    }

    private static double median(List<Run> rs, java.util.function.ToDoubleFunction<Run> f) {
        if (rs == null || rs.isEmpty()) {
            return Double.NaN;
        }
        double[] v = rs.stream().mapToDouble(f).filter(d -> !Double.isNaN(d)).sorted().toArray();
        if (v.length == 0) {
            return Double.NaN;
        }
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    private static String cell(List<Run> rs, java.util.function.ToDoubleFunction<Run> f, String fmt) {
        double med = median(rs, f);
        if (Double.isNaN(med)) {
            return "—";
        }
        String s = String.format(Locale.ROOT, fmt, med);
        if (rs.size() > 1) {
            double[] v = rs.stream().mapToDouble(f).filter(d -> !Double.isNaN(d)).toArray();
            s += " (" + String.format(Locale.ROOT, fmt, Arrays.stream(v).min().orElse(med)) + "–"
                    + String.format(Locale.ROOT, fmt, Arrays.stream(v).max().orElse(med)) + ")";
        }
        return s;
    }

    private static String ratio(double a, double b) {
        return Double.isNaN(a) || Double.isNaN(b) || b == 0 ? "—" : String.format(Locale.ROOT, "%.2f×", a / b);
    }

    private static String errors(List<Run> rs) {
        long connect = 0;
        long read = 0;
        long write = 0;
        long timeout = 0;
        long non2xx = 0;
        boolean missing = false;
        for (Run r : rs) {
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
}
