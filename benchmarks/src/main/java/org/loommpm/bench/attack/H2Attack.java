package org.loommpm.bench.attack;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * HTTP/2 attack client for issue #23: N connections to 127.0.0.1:PORT run one {@link Attack}
 * for a bounded time, reconnecting when the server closes them (unless --no-reconnect), then a
 * report of what each connection slot sent and what the server answered.
 *
 * <pre>
 * java -cp loom-mpm-bench.jar org.loommpm.bench.attack.H2Attack --port 18090 --attack zero-window \
 *     [--conns 10] [--duration 20] [--path /big.bin] [--updates 4000] [--no-reconnect]
 * </pre>
 *
 * attacks: zero-window, made-you-reset, wu-conn, wu-stream, rst-closed, hpack-size, rapid-reset,
 * settings-flood, ping-flood, empty-data, continuation, upload (100 MB POSTs), slow-upload (100
 * POSTs per connection, each sent a body byte a second, replaced as they end), big-huffman
 * (~120 KiB Huffman-coded header blocks, each answered 431). The last
 * output line starts with {@code ATTACK} and holds the totals as key=value (read by h2attack.sh).
 */
public final class H2Attack {
    private H2Attack() {
    }

    /** What one connection slot did over the run, summed over its reconnections. */
    private static final class Slot {
        final AtomicReference<H2Conn> current = new AtomicReference<>();
        int connections;
        int serverCloses;
        long firstCloseNanos = -1;
        long frames;
        long bytes;
        long streams;
        long rsts;
        long goaways;
        long ended;
        long dataBytes;
        long framesReceived;
        String lastGoaway = "";
        String error = "";

        void add(H2Conn c) {
            frames += c.framesSent.get();
            bytes += c.bytesSent.get();
            streams += c.streamsOpened;
            rsts += c.rstReceived.get();
            goaways += c.goawayReceived.get();
            ended += c.streamsEnded.get();
            dataBytes += c.dataBytes.get();
            framesReceived += c.framesReceived.get();
            if (c.goawayCode >= 0) {
                lastGoaway = "code " + c.goawayCode + (c.goawayDebug.isEmpty() ? "" : " \"" + c.goawayDebug + "\"");
            }
            if (c.serverClosedAt >= 0) {
                serverCloses++;
                if (firstCloseNanos < 0) {
                    firstCloseNanos = c.serverClosedAt;
                }
            }
        }
    }

    public static void main(String[] args) throws Exception {
        int port = -1;
        int conns = 10;
        double duration = 20;
        String attackName = null;
        String path = null;
        int updates = 4000;
        boolean reconnect = true;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--port" -> port = Integer.parseInt(args[++i]);
                case "--conns" -> conns = Integer.parseInt(args[++i]);
                case "--duration" -> duration = Double.parseDouble(args[++i]);
                case "--attack" -> attackName = args[++i];
                case "--path" -> path = args[++i];
                case "--updates" -> updates = Integer.parseInt(args[++i]);
                case "--no-reconnect" -> reconnect = false;
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        if (port <= 0 || attackName == null || conns < 1 || duration <= 0 || duration > 600) {
            System.err.println("usage: H2Attack --port P --attack NAME [--conns N] [--duration S (<= 600)]"
                    + " [--path P] [--updates N] [--no-reconnect]");
            System.exit(2);
        }
        Attack attack = Attack.of(attackName);
        String target = path != null ? path : attack.defaultPath;
        long t0 = System.nanoTime();
        long deadline = t0 + (long) (duration * 1e9);
        AtomicBoolean stop = new AtomicBoolean();
        List<Slot> slots = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int n = 0; n < conns; n++) {
            Slot slot = new Slot();
            slots.add(slot);
            final int p = port;
            final int u = updates;
            final boolean again = reconnect;
            threads.add(Thread.ofPlatform().name("h2attack-" + n).start(() -> {
                do {
                    H2Conn c = null;
                    try {
                        c = attack.connect(p, t0);
                        slot.current.set(c);
                        slot.connections++;
                        attack.run(c, p, target, u, () -> !stop.get() && System.nanoTime() < deadline);
                    } catch (IOException e) {
                        if (slot.error.isEmpty() && !stop.get()) {
                            slot.error = e.toString();
                        }
                        if (c == null) {
                            sleepQuietly(10); // cannot connect: do not spin on a dead server
                        }
                    } finally {
                        if (c != null) {
                            c.close();
                            slot.add(c);
                        }
                    }
                } while (again && System.nanoTime() < deadline && !stop.get());
                // Without reconnection a closed connection leaves this slot idle until the end.
            }));
        }
        long sleep = deadline - System.nanoTime();
        while (sleep > 0) {
            Thread.sleep(Math.max(1, sleep / 1_000_000));
            sleep = deadline - System.nanoTime();
        }
        stop.set(true);
        for (Slot s : slots) {
            H2Conn c = s.current.get();
            if (c != null) {
                c.close(); // unblocks a writer stuck on a server that stopped reading
            }
        }
        for (Thread t : threads) {
            t.join(10_000);
        }
        report(attack, target, conns, (System.nanoTime() - t0) / 1e9, slots);
        System.exit(0);
    }

    private static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void report(Attack attack, String path, int conns, double seconds, List<Slot> slots) {
        System.out.printf(Locale.ROOT, "attack %s on %s, %d connection slots, %.1f s%n",
                attack.label, path == null ? "-" : path, conns, seconds);
        System.out.println("slot  conns  closes  first-close-s  frames-sent  MB-sent  streams  server-RST  GOAWAY  ended  DATA-MB  frames-recv  last-goaway / error");
        Slot total = new Slot();
        for (int i = 0; i < slots.size(); i++) {
            Slot s = slots.get(i);
            System.out.printf(Locale.ROOT, "%4d  %5d  %6d  %13s  %11d  %7.1f  %7d  %10d  %6d  %5d  %7.1f  %11d  %s%n",
                    i, s.connections, s.serverCloses,
                    s.firstCloseNanos < 0 ? "-" : String.format(Locale.ROOT, "%.2f", s.firstCloseNanos / 1e9),
                    s.frames, s.bytes / 1e6, s.streams, s.rsts, s.goaways, s.ended, s.dataBytes / 1e6,
                    s.framesReceived, (s.lastGoaway + " " + s.error).trim());
            total.connections += s.connections;
            total.serverCloses += s.serverCloses;
            total.frames += s.frames;
            total.bytes += s.bytes;
            total.streams += s.streams;
            total.rsts += s.rsts;
            total.goaways += s.goaways;
            total.ended += s.ended;
            total.dataBytes += s.dataBytes;
            total.framesReceived += s.framesReceived;
            if (s.firstCloseNanos >= 0 && (total.firstCloseNanos < 0 || s.firstCloseNanos < total.firstCloseNanos)) {
                total.firstCloseNanos = s.firstCloseNanos;
            }
            if (!s.lastGoaway.isEmpty()) {
                total.lastGoaway = s.lastGoaway;
            }
            if (!s.error.isEmpty()) {
                total.error = s.error;
            }
        }
        System.out.printf(Locale.ROOT,
                "ATTACK attack=%s conns=%d connections=%d server_closes=%d first_close_s=%s frames=%d"
                        + " frames_per_s=%.0f streams=%d server_rst=%d goaway=%d ended=%d data_mb=%.1f frames_recv=%d"
                        + " last_goaway=%s error=%s%n",
                attack.label, conns, total.connections, total.serverCloses,
                total.firstCloseNanos < 0 ? "-" : String.format(Locale.ROOT, "%.2f", total.firstCloseNanos / 1e9),
                total.frames, total.frames / seconds, total.streams, total.rsts, total.goaways, total.ended,
                total.dataBytes / 1e6, total.framesReceived, total.lastGoaway.isEmpty() ? "-" : total.lastGoaway.replace(' ', '_'),
                total.error.isEmpty() ? "-" : total.error.replace(' ', '_'));
    }
}
