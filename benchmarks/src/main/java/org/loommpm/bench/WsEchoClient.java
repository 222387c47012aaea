package org.loommpm.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * The client of {@code benchmarks/ws-echo.sh}:
 * {@code java -cp loom-mpm-bench.jar org.loommpm.bench.WsEchoClient HOST PORT CONNECTIONS WARMUP_S SECONDS SIZE SERVER_PID}.
 *
 * <p>Opens CONNECTIONS WebSockets to {@code /ws} (no extension offered: the figure is framing and
 * dispatch, not compression), then on each, closed loop: send one masked text message of SIZE
 * bytes, read its echo, repeat. One virtual thread per connection with blocking sockets. After
 * WARMUP_S seconds it counts for SECONDS seconds and prints one line:
 * {@code msgs_per_s=... server_cpu_us_per_msg=... errors=...} (server CPU from /proc/SERVER_PID/stat).
 */
public final class WsEchoClient {
    private WsEchoClient() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 7) {
            System.err.println("usage: WsEchoClient HOST PORT CONNECTIONS WARMUP_S SECONDS SIZE SERVER_PID");
            System.exit(2);
        }
        InetSocketAddress target = new InetSocketAddress(args[0], Integer.parseInt(args[1]));
        int connections = Integer.parseInt(args[2]);
        long warmup = Long.parseLong(args[3]);
        long seconds = Long.parseLong(args[4]);
        int size = Integer.parseInt(args[5]);
        int serverPid = Integer.parseInt(args[6]);
        byte[] frame = maskedText(size);
        LongAdder messages = new LongAdder();
        LongAdder errors = new LongAdder();
        AtomicBoolean stop = new AtomicBoolean();
        List<Socket> sockets = new ArrayList<>();
        for (int i = 0; i < connections; i++) {
            sockets.add(open(target));
        }
        List<Thread> threads = new ArrayList<>();
        for (Socket s : sockets) {
            threads.add(Thread.ofVirtual().start(() -> loop(s, frame, size, messages, errors, stop)));
        }
        Thread.sleep(warmup * 1000);
        long m0 = messages.sum();
        long c0 = ProcCpu.nanos(serverPid);
        long t0 = System.nanoTime();
        Thread.sleep(seconds * 1000);
        long m1 = messages.sum();
        long c1 = ProcCpu.nanos(serverPid);
        long t1 = System.nanoTime();
        stop.set(true);
        for (Socket s : sockets) {
            s.close();
        }
        for (Thread t : threads) {
            t.join(5_000);
        }
        double rate = (m1 - m0) / ((t1 - t0) / 1e9);
        double cpuUs = c0 < 0 ? -1 : (c1 - c0) / 1e3 / Math.max(1, m1 - m0);
        System.out.printf("msgs_per_s=%.0f server_cpu_us_per_msg=%.2f errors=%d%n", rate, cpuUs, errors.sum());
    }

    private static void loop(Socket s, byte[] frame, int size, LongAdder messages, LongAdder errors, AtomicBoolean stop) {
        try {
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            byte[] echo = new byte[size + 14];
            int expect = size < 126 ? 2 + size : size <= 0xFFFF ? 4 + size : 10 + size;
            while (!stop.get()) {
                out.write(frame);
                int got = 0;
                while (got < expect) {
                    int n = in.read(echo, got, expect - got);
                    if (n < 0) {
                        throw new IOException("server closed");
                    }
                    got += n;
                }
                if ((echo[0] & 0xFF) != 0x81) {
                    throw new IOException("unexpected frame " + Integer.toHexString(echo[0] & 0xFF));
                }
                messages.increment();
            }
        } catch (IOException e) {
            if (!stop.get()) {
                errors.increment();
            }
        }
    }

    /** A handshake to /ws (no extensions), checked for its 101. */
    private static Socket open(InetSocketAddress target) throws IOException {
        Socket s = new Socket();
        s.setTcpNoDelay(true);
        s.connect(target, 10_000);
        s.setSoTimeout(30_000);
        String req = "GET " + BenchServer.WS_PATH + " HTTP/1.1\r\nHost: " + target.getHostString() + ":" + target.getPort()
                + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                + "Sec-WebSocket-Version: 13\r\n\r\n";
        s.getOutputStream().write(req.getBytes(StandardCharsets.US_ASCII));
        InputStream in = s.getInputStream();
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed during the handshake: " + head);
            }
            head.append((char) b);
        }
        if (!head.toString().startsWith("HTTP/1.1 101")) {
            throw new IOException("handshake refused: " + head.toString().lines().findFirst().orElse(""));
        }
        return s;
    }

    /** A masked text frame of {@code size} ASCII bytes (the same bytes every time: a fixed mask is still a mask). */
    static byte[] maskedText(int size) {
        int head = size < 126 ? 2 : size <= 0xFFFF ? 4 : 10;
        byte[] f = new byte[head + 4 + size];
        f[0] = (byte) 0x81;
        if (size < 126) {
            f[1] = (byte) (0x80 | size);
        } else {
            f[1] = (byte) (0x80 | 126);
            f[2] = (byte) (size >>> 8);
            f[3] = (byte) size;
        }
        byte[] mask = {0x37, (byte) 0xfa, 0x21, 0x3d};
        System.arraycopy(mask, 0, f, head, 4);
        for (int i = 0; i < size; i++) {
            f[head + 4 + i] = (byte) (('a' + i % 26) ^ mask[i & 3]);
        }
        return f;
    }
}
