package org.loommpm.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * The client of {@code benchmarks/streaming.sh} (long poll):
 * {@code java -cp loom-mpm-bench.jar org.loommpm.bench.LongPollLoad HOST PORT N PROBES RATE MEASURE_S SERVER_PID}.
 *
 * <p>Opens N connections that each send {@code GET /poll} and wait (the server suspends them:
 * no worker slot held), waits until the server's status page counts N suspended exchanges, then
 * runs PROBES probe connections, each sending {@code GET /plaintext} at RATE requests per second
 * for MEASURE_S seconds; latency is measured from each request's scheduled send time (so a
 * stalled server cannot hide behind a waiting client: no coordinated omission). Prints the
 * probes' percentiles (µs), errors, and the server's counts before and after (status page
 * {@code ?auto}: suspended exchanges, busy workers, connections; threads from /proc).
 */
public final class LongPollLoad {
    private LongPollLoad() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 7) {
            System.err.println("usage: LongPollLoad HOST PORT N PROBES RATE MEASURE_S SERVER_PID");
            System.exit(2);
        }
        String host = args[0];
        InetSocketAddress target = new InetSocketAddress(host, Integer.parseInt(args[1]));
        int n = Integer.parseInt(args[2]);
        int probes = Integer.parseInt(args[3]);
        int rate = Integer.parseInt(args[4]);
        int measure = Integer.parseInt(args[5]);
        int serverPid = Integer.parseInt(args[6]);
        byte[] poll = ("GET /poll?hold=600 HTTP/1.1\r\nHost: " + host + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        List<Socket> held = new ArrayList<>(n);
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            Socket s = new Socket();
            s.connect(target, 30_000);
            s.getOutputStream().write(poll);
            held.add(s);
        }
        long deadline = System.nanoTime() + 120_000_000_000L;
        Map<String, String> status = status(target);
        while (Long.parseLong(status.getOrDefault("LoomSuspendedExchanges", "0")) < n && System.nanoTime() < deadline) {
            Thread.sleep(200);
            status = status(target);
        }
        System.out.printf(Locale.ROOT, "# %d long polls sent in %.1f s; server: suspended=%s busy=%s conns=%s threads=%s%n",
                n, (System.nanoTime() - t0) / 1e9, status.get("LoomSuspendedExchanges"), status.get("BusyWorkers"),
                status.get("ConnsTotal"), threads(serverPid));
        Histogram all = new Histogram(60_000_000_000L, 3);
        long[] errors = new long[1];
        List<Thread> probeThreads = new ArrayList<>();
        List<Histogram> hs = new ArrayList<>();
        long cpu0 = ProcCpu.nanos(serverPid);
        long w0 = System.nanoTime();
        for (int p = 0; p < probes; p++) {
            Histogram h = new Histogram(60_000_000_000L, 3);
            hs.add(h);
            probeThreads.add(Thread.ofPlatform().start(() -> probe(target, host, rate, measure, h, errors)));
        }
        for (Thread t : probeThreads) {
            t.join();
        }
        long cpu1 = ProcCpu.nanos(serverPid);
        long wall = System.nanoTime() - w0;
        for (Histogram h : hs) {
            all.add(h);
        }
        status = status(target);
        System.out.printf(Locale.ROOT, "held=%d probes=%d rate_per_probe=%d window_s=%d requests=%d errors=%d%n",
                n, probes, rate, measure, all.getTotalCount(), errors[0]);
        System.out.printf(Locale.ROOT, "probe_latency_us p50=%d p90=%d p99=%d p999=%d max=%d%n",
                all.getValueAtPercentile(50), all.getValueAtPercentile(90), all.getValueAtPercentile(99),
                all.getValueAtPercentile(99.9), all.getMaxValue());
        System.out.printf(Locale.ROOT, "after: suspended=%s busy=%s idle=%s conns=%s threads=%s server_cpu_pct=%.1f%n",
                status.get("LoomSuspendedExchanges"), status.get("BusyWorkers"), status.get("IdleWorkers"),
                status.get("ConnsTotal"), threads(serverPid), 100.0 * (cpu1 - cpu0) / wall);
        for (Socket s : held) {
            s.setSoLinger(true, 0);
            s.close();
        }
    }

    /** One probe connection: GET /plaintext every 1/RATE s, latency from the scheduled time. */
    private static void probe(InetSocketAddress target, String host, int rate, int seconds, Histogram h, long[] errors) {
        byte[] req = ("GET /plaintext HTTP/1.1\r\nHost: " + host + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        long period = 1_000_000_000L / rate;
        try (Socket s = new Socket()) {
            s.setTcpNoDelay(true);
            s.connect(target, 30_000);
            s.setSoTimeout(30_000);
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            byte[] buf = new byte[4096];
            long start = System.nanoTime();
            long end = start + seconds * 1_000_000_000L;
            for (long next = start; next < end; next += period) {
                long wait = next - System.nanoTime();
                if (wait > 0) {
                    Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
                }
                out.write(req);
                int got = 0;
                // Hello, World! with its head: read until the body's last byte.
                while (got < 13 || buf[got - 1] != '!') {
                    int r = in.read(buf, got, buf.length - got);
                    if (r < 0) {
                        throw new IOException("closed");
                    }
                    got += r;
                }
                h.recordValue((System.nanoTime() - next) / 1000);
            }
        } catch (IOException | InterruptedException e) {
            synchronized (errors) {
                errors[0]++;
            }
        }
    }

    private static Map<String, String> status(InetSocketAddress target) throws IOException {
        Map<String, String> m = new TreeMap<>();
        try (Socket s = new Socket()) {
            s.connect(target, 10_000);
            s.setSoTimeout(10_000);
            s.getOutputStream().write(("GET /server-status?auto HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            BufferedReader r = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII));
            String line;
            while ((line = r.readLine()) != null) {
                int c = line.indexOf(": ");
                if (c > 0) {
                    m.put(line.substring(0, c), line.substring(c + 2).trim());
                }
            }
        }
        return m;
    }

    private static String threads(int pid) {
        try {
            for (String l : Files.readAllLines(Path.of("/proc", Integer.toString(pid), "status"))) {
                if (l.startsWith("Threads:")) {
                    return l.substring(8).trim();
                }
            }
        } catch (IOException e) {
            // not on Linux, or the process is gone
        }
        return "?";
    }
}
