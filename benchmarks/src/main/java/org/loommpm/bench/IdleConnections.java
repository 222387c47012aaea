package org.loommpm.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The client of {@code benchmarks/idle-memory.sh}:
 * {@code java -cp loom-mpm-bench.jar org.loommpm.bench.IdleConnections HOST PORT N CONTROL_DIR [ws|ws-h2]}.
 * With {@code ws}, each connection is a WebSocket instead: a handshake to {@code /ws} answered
 * {@code 101}, then nothing (an idle socket). With {@code ws-h2}, N WebSockets over HTTP/2
 * (RFC 8441): h2c connections with prior knowledge, each carrying up to {@value #STREAMS_PER_CONNECTION}
 * extended CONNECT streams to {@code /ws} answered {@code 200}, then nothing. On loopback, connections beyond the first 25,000
 * use the source addresses 127.0.0.2, 127.0.0.3, ... so the client's ephemeral ports suffice.
 *
 * <ol>
 *   <li>Warm-up: opens N keep-alive connections, sends one GET on each and reads its response,
 *       then closes them all (with a reset, so no TIME_WAIT). This lets the server reach the
 *       same heap/RSS high-water marks (eden pages, JIT code, pools) before the baseline is
 *       taken, so the baseline differs from the loaded state only by the open connections.
 *       Writes {@code CONTROL_DIR/warm}, then waits for {@code CONTROL_DIR/go}.
 *   <li>Opens N connections again the same way and keeps them open and idle; writes
 *       {@code CONTROL_DIR/open} (the count), then waits for {@code CONTROL_DIR/stop}.
 * </ol>
 * Exits non-zero if any connection fails or any response is not a 200.
 */
public final class IdleConnections {
    /** Per source address on loopback, well inside Linux's default ephemeral range (28,232 ports). */
    private static final int PER_SOURCE = 25_000;
    /** WebSocket handshakes instead of GETs. */
    private static boolean webSocket;
    /** WebSockets as HTTP/2 streams ({@code ws-h2}). */
    private static boolean http2;
    /** WebSocket streams per HTTP/2 connection (the server's default H2MaxConcurrentStreams). */
    private static final int STREAMS_PER_CONNECTION = 100;

    private IdleConnections() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 4 && !(args.length == 5 && (args[4].equals("ws") || args[4].equals("ws-h2")))) {
            System.err.println("usage: IdleConnections HOST PORT N CONTROL_DIR [ws|ws-h2]");
            System.exit(2);
        }
        if (args.length == 5 && args[4].equals("ws-h2")) {
            http2 = true;
        }
        InetSocketAddress target = new InetSocketAddress(args[0], Integer.parseInt(args[1]));
        int n = Integer.parseInt(args[2]);
        Path control = Path.of(args[3]);
        webSocket = args.length == 5;
        byte[] request = (webSocket
                ? "GET " + BenchServer.WS_PATH + " HTTP/1.1\r\nHost: " + args[0] + ":" + args[1] + "\r\nUpgrade: websocket\r\n"
                        + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
                : "GET / HTTP/1.1\r\nHost: " + args[0] + ":" + args[1] + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);

        long t0 = System.nanoTime();
        List<Socket> warm = open(target, n, request);
        for (Socket s : warm) {
            s.setSoLinger(true, 0);
            s.close();
        }
        warm = null;
        log("warm-up: %d connections opened, answered and reset in %.1f s", n, (System.nanoTime() - t0) / 1e9);
        Files.writeString(control.resolve("warm"), Integer.toString(n));
        await(control.resolve("go"));

        t0 = System.nanoTime();
        List<Socket> held = open(target, n, request);
        if (http2) {
            log("held: %d idle WebSockets over HTTP/2 on %d connections (%.1f s)", n, held.size(),
                    (System.nanoTime() - t0) / 1e9);
        } else {
            log("held: %d idle keep-alive connections open (%.1f s)", held.size(), (System.nanoTime() - t0) / 1e9);
        }
        Files.writeString(control.resolve("open"), Integer.toString(held.size()));
        await(control.resolve("stop"));

        int stillOpen = 0;
        for (Socket s : held) {
            // A server that closed the connection meanwhile shows EOF here.
            s.setSoTimeout(1);
            try {
                if (s.getInputStream().read() != -1) {
                    stillOpen++;
                }
            } catch (java.net.SocketTimeoutException e) {
                stillOpen++;
            } catch (IOException e) {
                // closed or reset
            }
            s.setSoLinger(true, 0);
            s.close();
        }
        log("at stop: %d of %d connections were still open", stillOpen, held.size());
    }

    private static List<Socket> open(InetSocketAddress target, int n, byte[] request) throws IOException {
        if (http2) {
            return H2WebSocketStreams.open(target, n, STREAMS_PER_CONNECTION);
        }
        List<Socket> sockets = new ArrayList<>(n);
        byte[] buf = new byte[8192];
        for (int i = 0; i < n; i++) {
            Socket s = new Socket();
            s.setTcpNoDelay(true);
            if (target.getAddress().isLoopbackAddress() && i >= PER_SOURCE) {
                s.bind(new InetSocketAddress("127.0.0." + (1 + i / PER_SOURCE), 0));
            }
            s.connect(target, 10_000);
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(request);
            out.flush();
            readResponse(s.getInputStream(), buf, i);
            sockets.add(s);
        }
        return sockets;
    }

    /** Reads one response with a Content-Length body; fails on anything but 200. */
    private static void readResponse(InputStream in, byte[] buf, int index) throws IOException {
        int len = 0;
        int headEnd = -1;
        while (headEnd < 0) {
            int r = in.read(buf, len, buf.length - len);
            if (r < 0) {
                throw new IOException("connection " + index + ": closed before the response head");
            }
            len += r;
            headEnd = indexOf(buf, len, "\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            if (headEnd < 0 && len == buf.length) {
                throw new IOException("connection " + index + ": response head too large");
            }
        }
        String head = new String(buf, 0, headEnd, StandardCharsets.ISO_8859_1);
        if (webSocket) {
            if (!head.startsWith("HTTP/1.1 101")) {
                throw new IOException("connection " + index + ": handshake refused: " + head.lines().findFirst().orElse(""));
            }
            return; // the server sends nothing more until the client does
        }
        if (!head.startsWith("HTTP/1.1 200")) {
            throw new IOException("connection " + index + ": unexpected response: " + head.lines().findFirst().orElse(""));
        }
        long contentLength = -1;
        for (String line : head.split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                contentLength = Long.parseLong(line.substring(15).trim());
            }
        }
        if (contentLength < 0) {
            throw new IOException("connection " + index + ": response without Content-Length");
        }
        long remaining = contentLength - (len - (headEnd + 4));
        while (remaining > 0) {
            int r = in.read(buf, 0, (int) Math.min(buf.length, remaining));
            if (r < 0) {
                throw new IOException("connection " + index + ": closed inside the body");
            }
            remaining -= r;
        }
    }

    private static int indexOf(byte[] a, int len, byte[] pattern) {
        outer:
        for (int i = 0; i + pattern.length <= len; i++) {
            for (int j = 0; j < pattern.length; j++) {
                if (a[i + j] != pattern[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    private static void await(Path file) throws InterruptedException {
        while (!Files.exists(file)) {
            Thread.sleep(100);
        }
    }

    private static void log(String format, Object... args) {
        System.out.println("IdleConnections: " + String.format(Locale.ROOT, format, args));
        System.out.flush();
    }
}
