package org.loommpm.bench.attack;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * A TLS handshake flood (issue #50 item 9, {@code benchmarks/attack.sh tls-flood}): new TLS
 * connections to 127.0.0.1:PORT at {@code --rate} a second (open loop, each on a virtual thread,
 * at most {@code --max-inflight} at once), every one a full handshake: each names a server of its
 * own (a session cache key never seen before), so the JDK client never resumes a session. After
 * the handshake it sends one {@code GET --path} and reads the answer ({@code --request}), or
 * closes at once. Only loopback targets.
 *
 * <pre>
 * java -cp loom-mpm-bench.jar org.loommpm.bench.attack.TlsFlood --port 18443 [--rate 200] [--duration 20]
 *     [--request] [--path /small.txt] [--timeout 5] [--max-inflight 2000]
 * </pre>
 *
 * Last line: {@code TLSFLOOD attempted= completed= refused= timeouts= skipped= unfinished= hs_p50_ms=
 * hs_p99_ms=}: refused counts handshakes the server ended (closed or reset), timeouts those with no
 * answer within {@code --timeout}, skipped the connections not started because {@code --max-inflight}
 * were under way, unfinished those still under way {@code --timeout} + 5 s after the last was
 * started (the client itself was starved).
 */
public final class TlsFlood {
    private TlsFlood() {
    }

    public static void main(String[] args) throws Exception {
        int port = -1;
        double rate = 200;
        double duration = 20;
        double timeout = 5;
        boolean request = false;
        String path = "/small.txt";
        int maxInflight = 2000;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--port" -> port = Integer.parseInt(args[++i]);
                case "--rate" -> rate = Double.parseDouble(args[++i]);
                case "--duration" -> duration = Double.parseDouble(args[++i]);
                case "--timeout" -> timeout = Double.parseDouble(args[++i]);
                case "--request" -> request = true;
                case "--path" -> path = args[++i];
                case "--max-inflight" -> maxInflight = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        if (port <= 0 || rate <= 0 || duration <= 0 || duration > 600) {
            System.err.println("usage: TlsFlood --port PORT [--rate R] [--duration S (<= 600)] [--request] [--path P]"
                    + " [--timeout S] [--max-inflight N]");
            System.exit(2);
        }
        SSLContext tls = trustAll();
        int total = (int) Math.ceil(rate * duration);
        long[] handshakeNanos = new long[total];
        Arrays.fill(handshakeNanos, -1);
        AtomicInteger completed = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        AtomicInteger timeouts = new AtomicInteger();
        AtomicInteger skipped = new AtomicInteger();
        AtomicLong connectionId = new AtomicLong();
        Semaphore inflight = new Semaphore(maxInflight);
        int soTimeout = (int) (timeout * 1000);
        byte[] get = ("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                .getBytes(StandardCharsets.ISO_8859_1);
        boolean sendRequest = request;
        int target = port;
        long start = System.nanoTime();
        for (int k = 0; k < total; k++) {
            long due = start + (long) (k * 1e9 / rate);
            long wait = due - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
            if (!inflight.tryAcquire()) {
                skipped.incrementAndGet();
                continue;
            }
            int idx = k;
            Thread.ofVirtual().start(() -> {
                long t0 = System.nanoTime();
                try (Socket plain = new Socket()) {
                    plain.connect(new InetSocketAddress("127.0.0.1", target), soTimeout);
                    plain.setSoTimeout(soTimeout);
                    // A server name never used before: no cached session, so a full handshake.
                    String name = "flood-" + connectionId.incrementAndGet() + ".invalid";
                    try (SSLSocket s = (SSLSocket) tls.getSocketFactory().createSocket(plain, name, target, false)) {
                        s.startHandshake();
                        handshakeNanos[idx] = System.nanoTime() - t0;
                        completed.incrementAndGet();
                        if (sendRequest) {
                            OutputStream out = s.getOutputStream();
                            out.write(get);
                            out.flush();
                            InputStream in = s.getInputStream();
                            byte[] buf = new byte[4096];
                            while (in.read(buf) >= 0) {
                                // read to the close the request asked for
                            }
                        }
                    }
                } catch (SocketTimeoutException e) {
                    if (handshakeNanos[idx] < 0) {
                        timeouts.incrementAndGet();
                    }
                } catch (IOException e) {
                    if (handshakeNanos[idx] < 0) {
                        refused.incrementAndGet();
                    }
                } finally {
                    inflight.release();
                }
            });
        }
        // Every connection ended, or the report goes out anyway: a starved client's stragglers
        // count as unfinished.
        boolean allEnded = inflight.tryAcquire(maxInflight, (long) (timeout * 1000) + 5000, TimeUnit.MILLISECONDS);
        int unfinished = allEnded ? 0 : maxInflight - inflight.availablePermits();
        long[] done = Arrays.stream(handshakeNanos).filter(n -> n >= 0).sorted().toArray();
        System.out.printf(Locale.ROOT, "TLSFLOOD attempted=%d completed=%d refused=%d timeouts=%d skipped=%d"
                        + " unfinished=%d hs_p50_ms=%.1f hs_p99_ms=%.1f rate=%.0f request=%s%n", total - skipped.get(),
                completed.get(), refused.get(), timeouts.get(), skipped.get(), unfinished, pct(done, 0.50),
                pct(done, 0.99), rate, sendRequest);
        System.exit(0);
    }

    private static double pct(long[] sorted, double q) {
        if (sorted.length == 0) {
            return 0;
        }
        int i = (int) Math.ceil(q * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))] / 1e6;
    }

    /** Trusts any certificate: the target is the campaign's own server on loopback, with a throwaway key. */
    static SSLContext trustAll() throws Exception {
        SSLContext ctx = SSLContext.getInstance("TLS");
        // Extended, so the JDK adds no endpoint check of its own around it.
        ctx.init(null, new TrustManager[] {new X509ExtendedTrustManager() {
            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType) {
            }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType) {
            }

            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {
            }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {
            }

            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
            }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
            }

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return new X509Certificate[0];
            }
        }}, new SecureRandom());
        return ctx;
    }
}
