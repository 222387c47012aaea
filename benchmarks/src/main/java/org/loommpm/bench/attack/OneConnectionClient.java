package org.loommpm.bench.attack;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;
import javax.net.ssl.SSLSocket;

/**
 * {@link NormalClient}'s {@code --one-connection} mode: the client of an established keep-alive
 * connection (HTTP/1.1, plaintext or TLS), what a TLS handshake flood must not take from the
 * server. One connection, opened (and its handshake done) before the measured requests; GET URL
 * at a fixed rate on it, each request sent when it is due or when the previous answer came,
 * whichever is later, its latency counted from when it was due (an answer that is late delays
 * the next ones, and they count it). A request with no answer within the timeout counts as a
 * timeout and the connection is opened again (a new handshake), as it is after an answer with
 * {@code Connection: close} (the server's MaxKeepAliveRequests). Last line as NormalClient's, with
 * {@code reconnects}.
 */
final class OneConnectionClient {
    private final URI url;
    private final int timeoutMs;
    private final byte[] request;
    private Socket socket;
    private InputStream in;
    private OutputStream out;
    /** Connections opened after the first (each a new handshake on TLS). */
    private int reconnects;
    /** Whether the last answer carried {@code Connection: close}. */
    private boolean closeAsked;

    OneConnectionClient(URI url, double timeoutSeconds) {
        this.url = url;
        this.timeoutMs = (int) (timeoutSeconds * 1000);
        this.request = ("GET " + url.getRawPath() + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1);
    }

    void run(double rate, double duration, double delay) throws Exception {
        String negotiated;
        try {
            open();
            negotiated = "HTTP_1_1-one-connection" + (socket instanceof SSLSocket s ? "-" + s.getSession().getProtocol() : "");
            exchange();
        } catch (IOException e) {
            negotiated = "first-request-failed:" + e.getClass().getSimpleName();
        }
        Thread.sleep((long) (delay * 1000));
        long timeoutNanos = timeoutMs * 1_000_000L;
        int total = (int) Math.ceil(rate * duration);
        long[] latencies = new long[total];
        int timeouts = 0;
        int failures = 0;
        int non200 = 0;
        String firstError = null;
        long start = System.nanoTime();
        for (int k = 0; k < total; k++) {
            long due = start + (long) (k * 1e9 / rate);
            long wait = due - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
            try {
                if (socket == null) {
                    open();
                }
                int status = exchange();
                latencies[k] = Math.min(System.nanoTime() - due, timeoutNanos);
                if (status != 200) {
                    non200++;
                }
                if (closeAsked) {
                    close(); // MaxKeepAliveRequests: the next request opens a new connection
                }
            } catch (SocketTimeoutException e) {
                timeouts++;
                latencies[k] = timeoutNanos;
                close();
            } catch (IOException e) {
                failures++;
                latencies[k] = timeoutNanos;
                if (firstError == null) {
                    firstError = e.toString();
                }
                close();
            }
        }
        close();
        long[] sorted = latencies.clone();
        Arrays.sort(sorted);
        if (firstError != null) {
            System.out.println("error: " + firstError);
        }
        System.out.printf(Locale.ROOT,
                "NORMAL url=%s version=%s rate=%.0f sent=%d timeouts=%d failures=%d non200=%d"
                        + " p50_ms=%.1f p90_ms=%.1f p99_ms=%.1f max_ms=%.1f reconnects=%d%n",
                url, negotiated, rate, total, timeouts, failures, non200,
                pct(sorted, 0.50), pct(sorted, 0.90), pct(sorted, 0.99), sorted[total - 1] / 1e6, reconnects);
    }

    private void open() throws Exception {
        if (in != null) {
            reconnects++;
        }
        Socket plain = new Socket();
        plain.connect(new InetSocketAddress("127.0.0.1", url.getPort()), timeoutMs);
        plain.setTcpNoDelay(true);
        plain.setSoTimeout(timeoutMs);
        if ("https".equals(url.getScheme())) {
            SSLSocket s = (SSLSocket) TlsFlood.trustAll().getSocketFactory()
                    .createSocket(plain, "127.0.0.1", url.getPort(), true);
            s.startHandshake();
            socket = s;
        } else {
            socket = plain;
        }
        in = socket.getInputStream();
        out = socket.getOutputStream();
    }

    private void close() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException e) {
                // gone already
            }
            socket = null;
        }
    }

    /** One GET and its answer (Content-Length framed); the status. */
    private int exchange() throws IOException {
        out.write(request);
        out.flush();
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int state = 0;
        while (state < 4) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("the server closed the connection");
            }
            head.write(b);
            state = (b == '\r' && (state == 0 || state == 2)) || (b == '\n' && (state == 1 || state == 3)) ? state + 1 : 0;
        }
        String h = head.toString(StandardCharsets.ISO_8859_1);
        int status = Integer.parseInt(h.substring(9, 12));
        long length = 0;
        closeAsked = false;
        for (String line : h.split("\r\n")) {
            if (line.regionMatches(true, 0, "content-length:", 0, 15)) {
                length = Long.parseLong(line.substring(15).trim());
            } else if (line.regionMatches(true, 0, "connection:", 0, 11)
                    && line.substring(11).trim().equalsIgnoreCase("close")) {
                closeAsked = true;
            }
        }
        for (long left = length; left > 0; ) {
            long n = in.skip(left);
            if (n <= 0) {
                if (in.read() < 0) {
                    throw new IOException("the body ended early");
                }
                n = 1;
            }
            left -= n;
        }
        return status;
    }

    private static double pct(long[] sorted, double q) {
        int i = (int) Math.ceil(q * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))] / 1e6;
    }
}
