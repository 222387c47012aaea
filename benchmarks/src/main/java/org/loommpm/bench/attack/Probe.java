package org.loommpm.bench.attack;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * One malformed or oversized input of the attack campaign: the bytes a hostile client sends on a
 * fresh connection. {@link #run} sends them (on a thread of their own, so a server that answers
 * and closes early does not leave the client blocked in a write) and notes the answer and when
 * the connection closed, 10 s at most.
 */
record Probe(String name, byte[] bytes) {
    private static final int WAIT_MS = 10_000;

    /** The outcome: the status line's code (or what came), ms to the first byte and to the close (-1: none). */
    record Result(long sent, String answer, long answerMs, long closedMs) {
        String row(String name) {
            return String.format(Locale.ROOT, "| %s | %d | %s | %s | %s |", name, sent, answer,
                    answerMs < 0 ? "-" : Long.toString(answerMs), closedMs < 0 ? "not within 10 s" : Long.toString(closedMs));
        }
    }

    /** The HTTP/1.1 inputs of issue #21; {@code post} is a path whose handler reads its body. */
    static List<Probe> http(String post) {
        String h = "Host: 127.0.0.1\r\n";
        String chunked = "POST " + post + " HTTP/1.1\r\n" + h + "Transfer-Encoding: chunked\r\n\r\n";
        return List.of(
                p("request line 1 MB", "GET /" + "a".repeat(1 << 20) + " HTTP/1.1\r\n" + h + "\r\n"),
                p("header 100 KB", "GET / HTTP/1.1\r\n" + h + "X-Big: " + "b".repeat(100 << 10) + "\r\n\r\n"),
                p("10,000 headers", "GET / HTTP/1.1\r\n" + h + "X-Many: v\r\n".repeat(10_000) + "\r\n"),
                p("Content-Length 2^62", "POST " + post + " HTTP/1.1\r\n" + h + "Content-Length: 4611686018427387904\r\n\r\nabc"),
                p("Content-Length overflow", "POST " + post + " HTTP/1.1\r\n" + h
                        + "Content-Length: 99999999999999999999999\r\n\r\n"),
                p("chunk size 16 hex digits", chunked + "ffffffffffffffff\r\nabc"),
                p("chunk size 17 hex digits", chunked + "10000000000000000\r\nabc"),
                p("chunk extension 1 MB", chunked + "1;" + "e".repeat(1 << 20) + "\r\na\r\n0\r\n\r\n"),
                p("endless trailers (1 MB)", chunked + "0\r\n" + "X-T: v\r\n".repeat(1 << 17)),
                p("NUL in a header value", "GET / HTTP/1.1\r\n" + h + "X-Nul: a\0b\r\n\r\n"),
                p("NUL in the target", "GET /a\0b HTTP/1.1\r\n" + h + "\r\n"),
                p("CL + TE", "POST " + post + " HTTP/1.1\r\n" + h + "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"),
                p("conflicting Content-Lengths", "POST " + post + " HTTP/1.1\r\n" + h
                        + "Content-Length: 1\r\nContent-Length: 2\r\n\r\nab"),
                p("chunk line with bare LF", chunked + "1\na\r\n0\r\n\r\n"),
                p("HTTP/0.9 request", "GET /\r\n"),
                p("obs-fold", "GET / HTTP/1.1\r\n" + h + "X-Fold: a\r\n b\r\n\r\n"),
                new Probe("TLS ClientHello on cleartext", clientHello(0x0303)));
    }

    /** Inputs for a TLS port. */
    static List<Probe> tls() {
        byte[] garbage = new byte[4096];
        new Random(21).nextBytes(garbage);
        return List.of(
                new Probe("TLS 1.0-only ClientHello", clientHello(0x0301)),
                new Probe("4 KB of random bytes", garbage),
                p("plain HTTP on the TLS port", "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"));
    }

    private static Probe p(String name, String text) {
        return new Probe(name, text.getBytes(StandardCharsets.ISO_8859_1));
    }

    Result run(int port) {
        long t0 = System.nanoTime();
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
            s.setSoLinger(true, 0);
            OutputStream out = s.getOutputStream();
            long[] sent = {0};
            Thread writer = Thread.ofVirtual().start(() -> {
                try {
                    for (int off = 0; off < bytes.length; off += 16384) {
                        int n = Math.min(16384, bytes.length - off);
                        out.write(bytes, off, n);
                        sent[0] += n;
                    }
                } catch (IOException e) {
                    // The server answered and closed before reading everything: the point.
                }
            });
            InputStream in = s.getInputStream();
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            long answerMs = -1;
            long closedMs = -1;
            byte[] buf = new byte[4096];
            s.setSoTimeout(200);
            while (ms(t0) < WAIT_MS) {
                int n;
                try {
                    n = in.read(buf);
                } catch (SocketTimeoutException e) {
                    continue;
                } catch (IOException e) {
                    closedMs = ms(t0); // reset by the server
                    break;
                }
                if (n < 0) {
                    closedMs = ms(t0);
                    break;
                }
                if (answerMs < 0) {
                    answerMs = ms(t0);
                }
                if (got.size() < 256) {
                    got.write(buf, 0, Math.min(n, 256));
                }
            }
            writer.join(1000);
            return new Result(sent[0], describe(got.toByteArray()), answerMs, closedMs);
        } catch (IOException e) {
            return new Result(0, "connect failed: " + e.getMessage(), -1, -1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(0, "interrupted", -1, -1);
        }
    }

    private static long ms(long t0) {
        return (System.nanoTime() - t0) / 1_000_000;
    }

    private static String describe(byte[] b) {
        if (b.length == 0) {
            return "none";
        }
        if (b[0] == 0x15 && b.length >= 7) {
            return "TLS alert " + (b[6] & 0xff) + (b[6] == 70 ? " (protocol_version)" : "");
        }
        String s = new String(b, StandardCharsets.ISO_8859_1);
        int eol = s.indexOf('\r');
        return s.startsWith("HTTP/") && eol > 0 ? s.substring(0, eol) : b.length + " bytes, first 0x" + Integer.toHexString(b[0] & 0xff);
    }

    /**
     * A ClientHello offering only {@code version} (0x0301: TLS 1.0, 0x0303: TLS 1.2) with common
     * ECDHE/RSA AES-GCM and CBC suites, SNI-less, without extensions beyond supported groups and
     * signature algorithms: enough for a server to pick or refuse.
     */
    static byte[] clientHello(int version) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.write(version >> 8);
        body.write(version);
        byte[] random = new byte[32];
        new Random(version).nextBytes(random);
        body.writeBytes(random);
        body.write(0); // no session id
        int[] suites = {0xc02f, 0xc030, 0xc013, 0xc014, 0x002f, 0x0035};
        u16(body, suites.length * 2);
        for (int s : suites) {
            u16(body, s);
        }
        body.write(1);
        body.write(0); // null compression
        ByteArrayOutputStream ext = new ByteArrayOutputStream();
        u16(ext, 0x000a); // supported_groups: x25519, secp256r1
        u16(ext, 6);
        u16(ext, 4);
        u16(ext, 0x001d);
        u16(ext, 0x0017);
        u16(ext, 0x000b); // ec_point_formats: uncompressed
        u16(ext, 2);
        ext.write(1);
        ext.write(0);
        u16(ext, 0x000d); // signature_algorithms: rsa_pss_rsae_sha256, ecdsa_secp256r1_sha256, rsa_pkcs1_sha256
        u16(ext, 8);
        u16(ext, 6);
        u16(ext, 0x0804);
        u16(ext, 0x0403);
        u16(ext, 0x0401);
        u16(body, ext.size());
        body.writeBytes(ext.toByteArray());
        ByteArrayOutputStream rec = new ByteArrayOutputStream();
        rec.write(0x16);
        u16(rec, 0x0301);
        u16(rec, body.size() + 4);
        rec.write(1); // ClientHello
        rec.write(0);
        u16(rec, body.size());
        rec.writeBytes(body.toByteArray());
        return rec.toByteArray();
    }

    private static void u16(ByteArrayOutputStream o, int v) {
        o.write(v >> 8);
        o.write(v);
    }
}
