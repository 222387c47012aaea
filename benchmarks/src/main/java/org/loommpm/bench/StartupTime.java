package org.loommpm.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Process start to first {@code 200}: {@code java -cp loom-mpm-bench.jar org.loommpm.bench.StartupTime
 * [--path PATH] PORT COMMAND...} starts COMMAND (a server listening on PORT), then tries
 * {@code GET PATH} ({@code /plaintext} by default; {@code /} for {@code loom-mpm.jar}'s embedded
 * default, whose welcome page is there) every millisecond until one is answered with 200, prints
 * {@code STARTUP ms=... cpu_ms=...} (time from just before the process was spawned to the complete
 * answer, and the CPU time the process had used by then, all its threads: 10 ms resolution, and
 * steadier than the wall time on a shared machine; -1 where {@code /proc} is not readable),
 * and stops the process (TERM, then KILL after 10 s). Gives up after 60 s. This JVM is warm
 * before the clock starts, and a refused connection costs microseconds, so the probe adds about
 * a millisecond at most.
 */
public final class StartupTime {
    private static final long GIVE_UP_NANOS = TimeUnit.SECONDS.toNanos(60);

    private StartupTime() {
    }

    public static void main(String[] args) throws Exception {
        int first = 0;
        String path = "/plaintext";
        if (args.length > 1 && args[0].equals("--path")) {
            path = args[1];
            first = 2;
        }
        if (args.length < first + 2) {
            System.err.println("usage: StartupTime [--path PATH] PORT COMMAND...");
            System.exit(2);
        }
        int port = Integer.parseInt(args[first]);
        List<String> command = Arrays.asList(args).subList(first + 1, args.length);
        byte[] get = ("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nConnection: close\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
        probe(port, get); // loads and JIT-warms the probe path before the clock starts (refused)
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        long t0 = System.nanoTime();
        Process p = pb.start();
        try {
            while (probe(port, get) != 200) {
                if (!p.isAlive()) {
                    throw new IOException("server exited with " + p.exitValue() + " before answering");
                }
                if (System.nanoTime() - t0 > GIVE_UP_NANOS) {
                    throw new IOException("no 200 within 60 s");
                }
                Thread.sleep(1);
            }
            double ms = (System.nanoTime() - t0) / 1e6;
            long cpu = ProcCpu.nanos((int) p.pid());
            System.out.printf(Locale.ROOT, "STARTUP ms=%.1f cpu_ms=%d%n", ms, cpu < 0 ? -1 : cpu / 1_000_000);
        } finally {
            p.destroy();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor();
            }
        }
    }

    /** One attempt: the response status, or -1 when refused or cut off. */
    private static int probe(int port, byte[] get) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 1000);
            s.setSoTimeout(5000);
            OutputStream out = s.getOutputStream();
            out.write(get);
            out.flush();
            InputStream in = s.getInputStream();
            byte[] head = in.readNBytes(12); // "HTTP/1.1 200"
            if (head.length < 12) {
                return -1;
            }
            return Integer.parseInt(new String(head, 9, 3, StandardCharsets.US_ASCII));
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
    }
}
