package org.loommpm.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * The client of {@code benchmarks/streaming.sh} (SSE):
 * {@code java -cp loom-mpm-bench.jar org.loommpm.bench.SseSubscribers HOST PORT N WARM_S MEASURE_S SERVER_PID}.
 *
 * <p>Opens N event streams ({@code GET /events}, HTTP/1.1) and reads them all from one thread
 * with one {@link Selector}, as a load tool should: a thread per stream would make the client's
 * own scheduling (100,000 wake-ups a second at 10,000 subscribers) the latency being measured.
 * Each event's delivery latency is the client's clock when the event's data line was read minus
 * the {@code t=} the server's broadcaster stamped just before sending it to its first subscriber
 * (same machine, same clock). After WARM_S seconds the histogram and the counts are reset; after
 * MEASURE_S more it prints events received and expected, latency percentiles (µs), the server's
 * CPU over the window ({@code /proc/SERVER_PID/stat}) and the client's own CPU share (near 100 %
 * means the client, not the server, bounds the latency). The latency is that of the whole
 * broadcast loop: the last subscriber of a tick waits for the encoding and queueing of all before
 * it, then for the pollers' writes.
 */
public final class SseSubscribers {
    private static final Histogram LATENCY = new Histogram(3_600_000_000L, 3);
    private static long events;
    private static long failed;
    private static boolean recording;

    private SseSubscribers() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 6) {
            System.err.println("usage: SseSubscribers HOST PORT N WARM_S MEASURE_S SERVER_PID");
            System.exit(2);
        }
        InetSocketAddress target = new InetSocketAddress(args[0], Integer.parseInt(args[1]));
        int n = Integer.parseInt(args[2]);
        long warmNanos = Integer.parseInt(args[3]) * 1_000_000_000L;
        long measureNanos = Integer.parseInt(args[4]) * 1_000_000_000L;
        int serverPid = Integer.parseInt(args[5]);
        int selfPid = (int) ProcessHandle.current().pid();
        ByteBuffer request = ByteBuffer.wrap(("GET /events HTTP/1.1\r\nHost: " + args[0]
                + "\r\nAccept: text/event-stream\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        List<SocketChannel> channels = new ArrayList<>(n);
        try (Selector selector = Selector.open()) {
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                SocketChannel ch = SocketChannel.open(target);
                ch.write(request.duplicate());
                ch.configureBlocking(false);
                ch.register(selector, SelectionKey.OP_READ, new LineReader());
                channels.add(ch);
            }
            System.out.printf(Locale.ROOT, "# connected %d subscribers in %.1f s%n", n, (System.nanoTime() - t0) / 1e9);
            ByteBuffer buf = ByteBuffer.allocateDirect(64 * 1024);
            readUntil(selector, buf, System.nanoTime() + warmNanos);
            LATENCY.reset();
            events = 0;
            recording = true;
            long cpu0 = ProcCpu.nanos(serverPid);
            long self0 = ProcCpu.nanos(selfPid);
            long w0 = System.nanoTime();
            readUntil(selector, buf, w0 + measureNanos);
            long cpu1 = ProcCpu.nanos(serverPid);
            long self1 = ProcCpu.nanos(selfPid);
            long wall = System.nanoTime() - w0;
            long expected = (long) n * (measureNanos / 100_000_000L);
            System.out.printf(Locale.ROOT, "subscribers=%d window_s=%d events=%d expected=%d failed_streams=%d%n",
                    n, measureNanos / 1_000_000_000L, events, expected, failed);
            System.out.printf(Locale.ROOT, "latency_us p50=%d p90=%d p99=%d p999=%d max=%d%n",
                    LATENCY.getValueAtPercentile(50), LATENCY.getValueAtPercentile(90),
                    LATENCY.getValueAtPercentile(99), LATENCY.getValueAtPercentile(99.9), LATENCY.getMaxValue());
            System.out.printf(Locale.ROOT, "server_cpu_s=%.2f server_cpu_pct=%.1f server_cpu_us_per_event=%.2f client_cpu_pct=%.1f%n",
                    (cpu1 - cpu0) / 1e9, 100.0 * (cpu1 - cpu0) / wall, events == 0 ? 0 : (cpu1 - cpu0) / 1e3 / events,
                    100.0 * (self1 - self0) / wall);
        }
        for (SocketChannel ch : channels) {
            ch.setOption(java.net.StandardSocketOptions.SO_LINGER, 0);
            ch.close();
        }
    }

    /** Reads every ready stream until {@code deadline} ({@link System#nanoTime()}). */
    private static void readUntil(Selector selector, ByteBuffer buf, long deadline) throws IOException {
        for (long left; (left = deadline - System.nanoTime()) > 0; ) {
            selector.select(Math.max(1, left / 1_000_000));
            for (var it = selector.selectedKeys().iterator(); it.hasNext(); ) {
                SelectionKey key = it.next();
                it.remove();
                SocketChannel ch = (SocketChannel) key.channel();
                buf.clear();
                int got;
                try {
                    got = ch.read(buf);
                } catch (IOException e) {
                    got = -1;
                }
                if (got < 0) {
                    failed++;
                    key.cancel();
                    continue;
                }
                buf.flip();
                ((LineReader) key.attachment()).feed(buf);
            }
        }
    }

    /** One stream's line assembly (chunk-size lines included), timing each {@code data: t=} line. */
    private static final class LineReader {
        private final byte[] line = new byte[256];
        private int len;

        void feed(ByteBuffer in) {
            while (in.hasRemaining()) {
                byte c = in.get();
                if (c != '\n') {
                    if (len < line.length) {
                        line[len++] = c;
                    }
                    continue;
                }
                if (len > 8 && line[0] == 'd' && line[5] == ' ' && line[6] == 't' && line[7] == '=') {
                    long sent = Long.parseLong(new String(line, 8, len - 8, StandardCharsets.US_ASCII).trim());
                    long now = ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
                    if (recording) {
                        LATENCY.recordValue(Math.max(0, now - sent));
                        events++;
                    }
                }
                len = 0;
            }
        }
    }
}
