package org.loommpm.bench.attack;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * HTTP/1.1 and TLS attack client for the attack campaign (issue #21, {@code benchmarks/attack.sh}):
 * N connections to 127.0.0.1:PORT, each on a virtual thread, for a bounded time; then a report of
 * what the server did with them. Only loopback targets.
 *
 * <pre>
 * java -cp loom-mpm-bench.jar org.loommpm.bench.attack.H1Attack --port 18090 --attack slowloris \
 *     [--conns 1000] [--duration 30] [--interval 3] [--path /plaintext]
 * </pre>
 *
 * Attacks:
 * <ul>
 *   <li>{@code slowloris}: a request head, one byte every {@code --interval} s, never finished;
 *   <li>{@code slow-body}: a whole head with {@code Content-Length: 1048576}, then one body byte
 *       every {@code --interval} s (POST to {@code --path}, a handler that reads its body);
 *   <li>{@code idle}: connections that send nothing (file-descriptor exhaustion, silent connections);
 *   <li>{@code tls-hold}: on a TLS port, the first half of a ClientHello, then nothing;
 *   <li>{@code malformed}: each {@link Probe} once to warm up, then once measured (status, time to
 *       the answer, time to the close),
 *       then all of them round-robin on {@code --conns} connections until the time is up (memory);
 *   <li>{@code tls-probes}: the same for a TLS port: a TLS 1.0-only ClientHello, garbage, plain HTTP.
 * </ul>
 * For the first four, each connection notes when the server answered (the status line, if any)
 * and when it closed; the last output line starts with {@code H1ATTACK} and holds the totals as
 * key=value (read by attack.sh).
 */
public final class H1Attack {
    private static final long NANOS = 1_000_000_000L;

    private H1Attack() {
    }

    /** One connection's fate. */
    private record Fate(double openedS, double closedS, String status, long sent, String error) {
    }

    public static void main(String[] args) throws Exception {
        int port = -1;
        int conns = 100;
        double duration = 30;
        double interval = 3;
        String attack = null;
        String path = "/plaintext";
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--port" -> port = Integer.parseInt(args[++i]);
                case "--conns" -> conns = Integer.parseInt(args[++i]);
                case "--duration" -> duration = Double.parseDouble(args[++i]);
                case "--interval" -> interval = Double.parseDouble(args[++i]);
                case "--attack" -> attack = args[++i];
                case "--path" -> path = args[++i];
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        if (port <= 0 || attack == null || duration <= 0 || duration > 600 || conns <= 0 || conns > 5000) {
            System.err.println("usage: H1Attack --port P --attack slowloris|slow-body|idle|tls-hold|malformed|tls-probes"
                    + " [--conns N (<= 5000)] [--duration S (<= 600)] [--interval S] [--path P]");
            System.exit(2);
        }
        switch (attack) {
            case "malformed" -> probes(port, Probe.http(path), conns, duration);
            case "tls-probes" -> probes(port, Probe.tls(), conns, duration);
            default -> hold(port, attack, conns, duration, interval, path);
        }
        System.exit(0);
    }

    /** Slowloris, slow bodies, idle and half-handshakes: N connections held as long as the server lets them. */
    private static void hold(int port, String attack, int conns, double duration, double interval, String path)
            throws InterruptedException {
        byte[] head;
        byte[] drip;
        switch (attack) {
            case "slowloris" -> {
                head = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n".getBytes(StandardCharsets.US_ASCII);
                drip = "X-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n"
                        .repeat(50).getBytes(StandardCharsets.US_ASCII);
            }
            case "slow-body" -> {
                head = ("POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1048576\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII);
                drip = new byte[1 << 20];
                Arrays.fill(drip, (byte) 'b');
            }
            case "idle" -> {
                head = new byte[0];
                drip = null;
            }
            case "tls-hold" -> {
                byte[] hello = Probe.clientHello(0x0303);
                head = Arrays.copyOf(hello, hello.length / 2);
                drip = null;
            }
            default -> throw new IllegalArgumentException("unknown attack " + attack);
        }
        long t0 = System.nanoTime();
        long end = t0 + (long) (duration * NANOS);
        List<Fate> fates = new ArrayList<>();
        AtomicInteger open = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        Map<String, Integer> connectErrors = new ConcurrentHashMap<>();
        try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<java.util.concurrent.Future<Fate>> futures = new ArrayList<>();
            for (int c = 0; c < conns; c++) {
                futures.add(pool.submit(() -> {
                    double opened = (System.nanoTime() - t0) / 1e9;
                    long sent = 0;
                    try (Socket s = new Socket()) {
                        s.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
                        open.incrementAndGet();
                        s.setSoLinger(true, 0); // ours end with a reset: no TIME_WAIT pile-up
                        OutputStream out = s.getOutputStream();
                        InputStream in = s.getInputStream();
                        out.write(head);
                        sent += head.length;
                        byte[] buf = new byte[512];
                        int next = 0;
                        while (System.nanoTime() < end) {
                            long left = end - System.nanoTime();
                            s.setSoTimeout((int) Math.max(1, Math.min(left, (long) (interval * NANOS)) / 1_000_000));
                            try {
                                int n = in.read(buf);
                                double at = (System.nanoTime() - t0) / 1e9;
                                String status = n > 0 ? statusLine(buf, n) : "closed";
                                return new Fate(opened, at, status, sent, "");
                            } catch (SocketTimeoutException e) {
                                if (drip != null && next < drip.length) {
                                    out.write(drip[next++]);
                                    sent++;
                                }
                            }
                        }
                        return new Fate(opened, -1, "", sent, "");
                    } catch (IOException e) {
                        double at = (System.nanoTime() - t0) / 1e9;
                        if (sent == 0) {
                            refused.incrementAndGet();
                            connectErrors.merge(e.getClass().getSimpleName() + ": " + e.getMessage(), 1, Integer::sum);
                        }
                        return new Fate(opened, at, "error", sent, e.toString());
                    } finally {
                        open.decrementAndGet();
                    }
                }));
                if (c % 100 == 99) {
                    Thread.sleep(10); // 10,000 connections a second at most: the backlog is not the test
                }
            }
            for (var f : futures) {
                try {
                    fates.add(f.get());
                } catch (java.util.concurrent.ExecutionException e) {
                    fates.add(new Fate(0, -1, "error", 0, e.getCause().toString()));
                }
            }
        }
        List<Double> lifetimes = new ArrayList<>();
        Map<String, Integer> statuses = new TreeMap<>();
        int survived = 0;
        long maxSent = 0;
        for (Fate f : fates) {
            maxSent = Math.max(maxSent, f.sent());
            if (f.closedS() < 0) {
                survived++;
            } else {
                lifetimes.add(f.closedS() - f.openedS());
                statuses.merge(f.status(), 1, Integer::sum);
            }
        }
        lifetimes.sort(null);
        connectErrors.forEach((k, v) -> System.out.println("connect error x" + v + ": " + k));
        System.out.printf(Locale.ROOT,
                "H1ATTACK attack=%s conns=%d duration_s=%.0f open_at_end=%d closed_by_server=%d connect_failed=%d"
                        + " life_p50_s=%.1f life_max_s=%.1f max_bytes_sent=%d statuses=%s%n",
                attack, conns, duration, survived, lifetimes.size() - refused.get(), refused.get(),
                pct(lifetimes, 0.5), pct(lifetimes, 1.0), maxSent, statuses.toString().replace(' ', '_'));
    }

    /** Each probe once, reported; then round-robin on {@code conns} connections until the time is up. */
    private static void probes(int port, List<Probe> list, int conns, double duration) throws Exception {
        for (Probe p : list) {
            p.run(port); // warm-up: the first TLS handshake and the JIT are not what is measured
        }
        System.out.println("| probe | bytes sent | answer | answer after ms | closed after ms |");
        System.out.println("| --- | --- | --- | --- | --- |");
        for (Probe p : list) {
            System.out.println(p.run(port).row(p.name()));
        }
        long end = System.nanoTime() + (long) (duration * NANOS);
        AtomicInteger runs = new AtomicInteger();
        AtomicInteger unclosed = new AtomicInteger();
        try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int c = 0; c < conns; c++) {
                int first = c;
                pool.submit(() -> {
                    for (int k = first; System.nanoTime() < end; k++) {
                        Probe.Result r = list.get(k % list.size()).run(port);
                        runs.incrementAndGet();
                        if (r.closedMs() < 0) {
                            unclosed.incrementAndGet();
                        }
                    }
                    return null;
                });
            }
            pool.shutdown();
            pool.awaitTermination((long) duration + 60, TimeUnit.SECONDS);
        }
        System.out.printf(Locale.ROOT, "H1ATTACK attack=probes conns=%d duration_s=%.0f probes_run=%d left_open=%d%n",
                conns, duration, runs.get(), unclosed.get());
    }

    private static String statusLine(byte[] b, int n) {
        String s = new String(b, 0, n, StandardCharsets.ISO_8859_1);
        int eol = s.indexOf('\r');
        s = eol > 0 ? s.substring(0, eol) : s;
        if (s.startsWith("HTTP/1.1 ")) {
            return s.substring(9, Math.min(s.length(), 12));
        }
        return (b[0] & 0xff) == 0x15 ? "tls-alert" : "bytes";
    }

    private static double pct(List<Double> sorted, double q) {
        if (sorted.isEmpty()) {
            return Double.NaN;
        }
        int i = (int) Math.ceil(q * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, i)));
    }
}
