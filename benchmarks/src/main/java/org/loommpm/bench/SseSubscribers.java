package org.loommpm.bench;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.ConcurrentHistogram;

/**
 * The client of {@code benchmarks/streaming.sh} (SSE):
 * {@code java -cp loom-mpm-bench.jar org.loommpm.bench.SseSubscribers HOST PORT N WARM_S MEASURE_S SERVER_PID}.
 *
 * <p>Opens N event streams ({@code GET /events}, HTTP/1.1, one virtual thread and one blocking
 * socket each), reads every event and records its delivery latency: the client's clock when the
 * event's data line was read minus the {@code t=} the server's broadcaster stamped just before
 * sending it to its first subscriber (same machine, same clock). After WARM_S seconds the
 * histogram and the counts are reset; after MEASURE_S more it prints events received and expected,
 * latency percentiles (µs) and the server's CPU over the window ({@code /proc/SERVER_PID/stat}).
 * The latency is that of the whole broadcast loop: the last subscriber of a tick waits for the
 * encoding and queueing of all before it, then for the pollers' writes.
 */
public final class SseSubscribers {
    private static final ConcurrentHistogram LATENCY = new ConcurrentHistogram(3_600_000_000L, 3);
    private static final LongAdder EVENTS = new LongAdder();
    private static final LongAdder FAILED = new LongAdder();
    private static volatile boolean recording;

    private SseSubscribers() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 6) {
            System.err.println("usage: SseSubscribers HOST PORT N WARM_S MEASURE_S SERVER_PID");
            System.exit(2);
        }
        InetSocketAddress target = new InetSocketAddress(args[0], Integer.parseInt(args[1]));
        int n = Integer.parseInt(args[2]);
        int warm = Integer.parseInt(args[3]);
        int measure = Integer.parseInt(args[4]);
        int serverPid = Integer.parseInt(args[5]);
        byte[] request = ("GET /events HTTP/1.1\r\nHost: " + args[0] + "\r\nAccept: text/event-stream\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
        List<Socket> sockets = new ArrayList<>(n);
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            Socket s = new Socket();
            s.connect(target, 10_000);
            s.getOutputStream().write(request);
            sockets.add(s);
            Thread.ofVirtual().start(() -> read(s));
        }
        System.out.printf(Locale.ROOT, "# connected %d subscribers in %.1f s%n", n, (System.nanoTime() - t0) / 1e9);
        Thread.sleep(warm * 1000L);
        LATENCY.reset();
        EVENTS.reset();
        recording = true;
        long cpu0 = ProcCpu.nanos(serverPid);
        long w0 = System.nanoTime();
        Thread.sleep(measure * 1000L);
        long cpu1 = ProcCpu.nanos(serverPid);
        long wall = System.nanoTime() - w0;
        recording = false;
        long events = EVENTS.sum();
        long expected = (long) n * measure * 10;
        System.out.printf(Locale.ROOT, "subscribers=%d window_s=%d events=%d expected=%d failed_streams=%d%n",
                n, measure, events, expected, FAILED.sum());
        System.out.printf(Locale.ROOT, "latency_us p50=%d p90=%d p99=%d p999=%d max=%d%n",
                LATENCY.getValueAtPercentile(50), LATENCY.getValueAtPercentile(90),
                LATENCY.getValueAtPercentile(99), LATENCY.getValueAtPercentile(99.9), LATENCY.getMaxValue());
        System.out.printf(Locale.ROOT, "server_cpu_s=%.2f server_cpu_pct=%.1f server_cpu_us_per_event=%.2f%n",
                (cpu1 - cpu0) / 1e9, 100.0 * (cpu1 - cpu0) / wall, events == 0 ? 0 : (cpu1 - cpu0) / 1e3 / events);
        for (Socket s : sockets) {
            s.setSoLinger(true, 0);
            s.close();
        }
    }

    /** Reads one stream line by line (chunk-size lines included), timing each {@code data: t=} line. */
    private static void read(Socket s) {
        try (InputStream in = new BufferedInputStream(s.getInputStream(), 4096)) {
            byte[] line = new byte[256];
            for (;;) {
                int len = 0;
                int c;
                while ((c = in.read()) >= 0 && c != '\n') {
                    if (len < line.length) {
                        line[len++] = (byte) c;
                    }
                }
                if (c < 0) {
                    FAILED.increment();
                    return;
                }
                if (len > 8 && line[0] == 'd' && line[5] == ' ' && line[6] == 't' && line[7] == '=') {
                    long sent = Long.parseLong(new String(line, 8, len - 8, StandardCharsets.US_ASCII).trim());
                    long now = ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
                    if (recording) {
                        LATENCY.recordValue(Math.max(0, now - sent));
                        EVENTS.increment();
                    }
                }
            }
        } catch (IOException e) {
            FAILED.increment();
        }
    }
}
