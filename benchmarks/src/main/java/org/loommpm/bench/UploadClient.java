package org.loommpm.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * The upload row's client of {@code benchmarks/toolkit.sh}:
 * <pre>
 * java -cp loom-mpm-bench.jar org.loommpm.bench.UploadClient --port P --server-pid PID
 *     [--host 127.0.0.1] [--conns 4] [--file-bytes 10000000] [--warmup 5] [--seconds 10]
 *     [--settle-pct 3] [--settle-step 3] [--settle-max 60] [--timeout 60] [--server-core N]
 * </pre>
 * Builds one {@code multipart/form-data} request once, in a direct buffer: a small text field
 * {@code note} and a file part {@code file} ({@code upload.bin}, {@code --file-bytes} of
 * pseudo-random bytes from a fixed seed, so nothing compresses and every run sends the same bytes).
 * {@code --conns} keep-alive connections, one platform thread each, send it back to back (closed
 * loop; the whole buffer handed to the kernel, no copy on the client's side) and read each answer
 * (Content-Length or chunked). Every answer is checked: status 200 and, in its JSON, the size and
 * SHA-256 of both parts as computed here; a 200 with a wrong digest counts as a bad answer, not as an
 * upload. The first answer is printed ({@code ANSWER}).
 *
 * <p>After {@code --warmup} seconds it keeps uploading in {@code --settle-step} s steps while the
 * server's JIT compiler threads took more than {@code --settle-pct} % of its CPU in the last step
 * (at most {@code --settle-max} s; each step printed as {@code # settle}), as run.sh settles its
 * wrk workloads. Then {@code --seconds} measured, and one line:
 * {@code RESULT uploads=N mb_per_s=.. uploads_per_s=.. server_cpu_ms_per_mb=.. server_jit_ms_per_mb=..
 * client_cpu_pct=.. p50_ms=.. p99_ms=.. max_ms=.. errors=.. bad_answers=.. timeouts=..}, where MB is
 * 10^6 bytes of request body (the multipart body, framing included) and the server's CPU is
 * utime + stime of {@code PID} from /proc over the measured window. An upload in flight longer than
 * {@code --timeout} s has its connection closed (a timeout, counted as an error). With
 * {@code --server-core N} (the core the server is pinned to) it also reports how much of that
 * core the server had ({@code server_core_pct}) and how much other processes took
 * ({@code others_core_pct}, from /proc/stat): on a shared machine the second explains a low rate.
 */
public final class UploadClient {
    static final String NOTE = "loom-mpm toolkit upload benchmark";
    static final String FILENAME = "upload.bin";

    private UploadClient() {
    }

    /** The request (head and body, read-only), what the answer must report, and the body's length. */
    record Upload(ByteBuffer request, long bodyBytes, long noteSize, String noteSha, long fileSize, String fileSha) {
    }

    /** The answer to one upload: status, body, and whether the server will close the connection. */
    record Answer(int status, byte[] body, boolean close) {
    }

    /** The multipart request, built once. */
    static Upload build(String host, int port, int fileBytes) {
        byte[] data = new byte[fileBytes];
        new SplittableRandom(54).nextBytes(data);
        String boundary = "loom-bench-" + HexFormat.of().formatHex(Toolkit.sha256().digest(data), 0, 12);
        byte[] delimiter = ("\r\n--" + boundary).getBytes(StandardCharsets.US_ASCII);
        if (indexOf(data, delimiter) >= 0) {
            throw new IllegalStateException("the file's bytes contain the boundary");
        }
        byte[] note = NOTE.getBytes(StandardCharsets.UTF_8);
        byte[] beforeFile = ("--" + boundary + "\r\n"
                + "Content-Disposition: form-data; name=\"note\"\r\n\r\n"
                + NOTE + "\r\n"
                + "--" + boundary + "\r\n"
                + "Content-Disposition: form-data; name=\"file\"; filename=\"" + FILENAME + "\"\r\n"
                + "Content-Type: application/octet-stream\r\n\r\n").getBytes(StandardCharsets.UTF_8);
        byte[] afterFile = ("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.US_ASCII);
        long bodyBytes = (long) beforeFile.length + data.length + afterFile.length;
        byte[] head = ("POST " + Toolkit.UPLOAD_PATH + " HTTP/1.1\r\n"
                + "Host: " + host + ":" + port + "\r\n"
                + "Content-Type: multipart/form-data; boundary=" + boundary + "\r\n"
                + "Content-Length: " + bodyBytes + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        ByteBuffer request = ByteBuffer.allocateDirect((int) (head.length + bodyBytes));
        request.put(head).put(beforeFile).put(data).put(afterFile).flip();
        return new Upload(request.asReadOnlyBuffer(), bodyBytes, note.length, sha(note), data.length, sha(data));
    }

    private static String sha(byte[] b) {
        return Toolkit.hex(Toolkit.sha256().digest(b));
    }

    static int indexOf(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    /**
     * Whether an answer's JSON reports both parts as sent: {@code note} (no filename) and
     * {@code file} ({@code upload.bin}) with their sizes and SHA-256s; other fields are ignored,
     * part order is not checked.
     */
    static boolean verify(Upload u, byte[] json) {
        try {
            JsonNode root = Toolkit.MAPPER.readTree(json);
            if (root == null || !root.isArray()) {
                return false;
            }
            boolean note = false;
            boolean file = false;
            for (JsonNode part : root) {
                String name = part.path("name").asText(null);
                long size = part.path("size").asLong(-1);
                String sha = part.path("sha256").asText("");
                if ("note".equals(name)) {
                    note = size == u.noteSize() && sha.equalsIgnoreCase(u.noteSha());
                } else if ("file".equals(name)) {
                    file = size == u.fileSize() && sha.equalsIgnoreCase(u.fileSha())
                            && FILENAME.equals(part.path("filename").asText(null));
                }
            }
            return note && file && root.size() == 2;
        } catch (IOException e) {
            return false;
        }
    }

    /** Reads one HTTP/1.1 response from {@code ch}, {@code buf} holding what was read ahead (read mode). */
    static Answer read(ReadableByteChannel ch, ByteBuffer buf) throws IOException {
        String status = line(ch, buf);
        if (!status.startsWith("HTTP/1.")) {
            throw new IOException("not an HTTP/1.x response: " + status);
        }
        int code = Integer.parseInt(status.substring(9, 12));
        long length = -1;
        boolean chunked = false;
        boolean close = status.startsWith("HTTP/1.0");
        for (String h; !(h = line(ch, buf)).isEmpty(); ) {
            int colon = h.indexOf(':');
            if (colon < 0) {
                continue;
            }
            String name = h.substring(0, colon).trim().toLowerCase(Locale.ROOT);
            String value = h.substring(colon + 1).trim().toLowerCase(Locale.ROOT);
            switch (name) {
                case "content-length" -> length = Long.parseLong(value);
                case "transfer-encoding" -> chunked = value.endsWith("chunked");
                case "connection" -> close = value.contains("close") || (close && !value.contains("keep-alive"));
                default -> { }
            }
        }
        byte[] body;
        if (chunked) {
            var out = new java.io.ByteArrayOutputStream();
            while (true) {
                String size = line(ch, buf);
                int semi = size.indexOf(';');
                int n = Integer.parseInt((semi < 0 ? size : size.substring(0, semi)).trim(), 16);
                if (n == 0) {
                    while (!line(ch, buf).isEmpty()) {
                        // trailer fields: none expected, skipped
                    }
                    break;
                }
                out.writeBytes(bytes(ch, buf, n));
                if (!line(ch, buf).isEmpty()) {
                    throw new IOException("chunk not followed by CRLF");
                }
            }
            body = out.toByteArray();
        } else if (length >= 0) {
            body = bytes(ch, buf, Math.toIntExact(length));
        } else if (code == 204 || code == 304 || code / 100 == 1) {
            body = new byte[0];
        } else { // to the end of the connection
            var out = new java.io.ByteArrayOutputStream();
            while (fill(ch, buf)) {
                out.write(buf.array(), buf.arrayOffset() + buf.position(), buf.remaining());
                buf.position(buf.limit());
            }
            body = out.toByteArray();
            close = true;
        }
        return new Answer(code, body, close);
    }

    private static String line(ReadableByteChannel ch, ByteBuffer buf) throws IOException {
        StringBuilder sb = new StringBuilder();
        while (true) {
            while (buf.hasRemaining()) {
                byte b = buf.get();
                if (b == '\n') {
                    int n = sb.length();
                    if (n > 0 && sb.charAt(n - 1) == '\r') {
                        sb.setLength(n - 1);
                    }
                    return sb.toString();
                }
                if (sb.length() > 65_536) {
                    throw new IOException("line too long");
                }
                sb.append((char) (b & 0xFF));
            }
            if (!fill(ch, buf)) {
                throw new EOFException("connection closed in a response");
            }
        }
    }

    private static byte[] bytes(ReadableByteChannel ch, ByteBuffer buf, int n) throws IOException {
        byte[] out = new byte[n];
        int got = 0;
        while (got < n) {
            if (!buf.hasRemaining() && !fill(ch, buf)) {
                throw new EOFException("connection closed in a response body");
            }
            int k = Math.min(n - got, buf.remaining());
            buf.get(out, got, k);
            got += k;
        }
        return out;
    }

    /** Refills {@code buf} (read mode, empty) from the channel; false at its end. */
    private static boolean fill(ReadableByteChannel ch, ByteBuffer buf) throws IOException {
        buf.clear();
        int n = ch.read(buf);
        buf.flip();
        return n >= 0 && (n > 0 || fill(ch, buf));
    }

    /** One connection's loop. */
    private static final class Worker implements Runnable {
        final InetSocketAddress target;
        final Upload upload;
        final Shared shared;
        volatile SocketChannel channel;
        /** When the upload in flight started, 0 between uploads. */
        volatile long since;

        Worker(InetSocketAddress target, Upload upload, Shared shared) {
            this.target = target;
            this.upload = upload;
            this.shared = shared;
        }

        @Override
        public void run() {
            ByteBuffer in = ByteBuffer.allocate(64 << 10).flip();
            while (!shared.stop.get()) {
                try {
                    SocketChannel ch = channel;
                    if (ch == null || !ch.isOpen()) {
                        ch = SocketChannel.open();
                        ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                        ch.connect(target);
                        channel = ch;
                        in.clear().flip();
                    }
                    ByteBuffer req = upload.request().duplicate();
                    long t0 = System.nanoTime();
                    since = t0;
                    while (req.hasRemaining()) {
                        ch.write(req);
                    }
                    Answer a = read(ch, in);
                    long t1 = System.nanoTime();
                    since = 0;
                    shared.first.compareAndSet(null, a);
                    if (a.status() != 200) {
                        shared.errors.increment();
                        shared.lastError.set("status " + a.status());
                    } else if (!verify(upload, a.body())) {
                        shared.bad.increment();
                    } else {
                        shared.completed.increment();
                        if (shared.measuring) {
                            shared.latencies.add(t1 - t0);
                        }
                    }
                    if (a.close()) {
                        ch.close();
                    }
                } catch (IOException | RuntimeException e) {
                    since = 0;
                    closeQuietly();
                    if (!shared.stop.get()) {
                        shared.errors.increment();
                        shared.lastError.set(e.toString());
                        try {
                            Thread.sleep(100);
                        } catch (InterruptedException ie) {
                            return;
                        }
                    }
                }
            }
            closeQuietly();
        }

        void closeQuietly() {
            SocketChannel ch = channel;
            if (ch != null) {
                try {
                    ch.close();
                } catch (IOException e) {
                    // closing anyway
                }
            }
        }
    }

    private static final class Shared {
        final AtomicBoolean stop = new AtomicBoolean();
        final LongAdder completed = new LongAdder();
        final LongAdder errors = new LongAdder();
        final LongAdder bad = new LongAdder();
        final LongAdder timeouts = new LongAdder();
        final AtomicReference<Answer> first = new AtomicReference<>();
        final AtomicReference<String> lastError = new AtomicReference<>();
        final ConcurrentLinkedQueue<Long> latencies = new ConcurrentLinkedQueue<>();
        volatile boolean measuring;
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opt = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (!args[i].startsWith("--")) {
                usage();
            }
            opt.put(args[i].substring(2), args[i + 1]);
        }
        if (!opt.containsKey("port") || args.length % 2 != 0) {
            usage();
        }
        String host = opt.getOrDefault("host", "127.0.0.1");
        int port = Integer.parseInt(opt.get("port"));
        int serverPid = Integer.parseInt(opt.getOrDefault("server-pid", "0"));
        int conns = Integer.parseInt(opt.getOrDefault("conns", "4"));
        int fileBytes = Integer.parseInt(opt.getOrDefault("file-bytes", "10000000"));
        double warmup = Double.parseDouble(opt.getOrDefault("warmup", "5"));
        double seconds = Double.parseDouble(opt.getOrDefault("seconds", "10"));
        double settlePct = Double.parseDouble(opt.getOrDefault("settle-pct", "3"));
        double settleStep = Double.parseDouble(opt.getOrDefault("settle-step", "3"));
        double settleMax = Double.parseDouble(opt.getOrDefault("settle-max", "60"));
        long timeoutNanos = (long) (Double.parseDouble(opt.getOrDefault("timeout", "60")) * 1e9);
        int serverCore = Integer.parseInt(opt.getOrDefault("server-core", "-1"));

        Upload upload = build(host, port, fileBytes);
        System.out.printf(Locale.ROOT, "# body: %d bytes (file part %d bytes, sha256 %s; note %d bytes); %d connection(s)%n",
                upload.bodyBytes(), upload.fileSize(), upload.fileSha(), upload.noteSize(), conns);
        Shared shared = new Shared();
        InetSocketAddress target = new InetSocketAddress(host, port);
        List<Worker> workers = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < conns; i++) {
            Worker w = new Worker(target, upload, shared);
            workers.add(w);
            threads.add(Thread.ofPlatform().name("upload-" + i).daemon().start(w));
        }
        Thread watchdog = Thread.ofPlatform().name("upload-watchdog").daemon().start(() -> {
            while (!shared.stop.get()) {
                long now = System.nanoTime();
                for (Worker w : workers) {
                    long s = w.since;
                    if (s != 0 && now - s > timeoutNanos) {
                        shared.timeouts.increment();
                        w.closeQuietly();
                    }
                }
                try {
                    Thread.sleep(500);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });

        sleep(warmup);
        double spent = 0;
        while (serverPid > 0 && spent < settleMax) {
            long c0 = ProcCpu.nanos(serverPid);
            long j0 = ProcCpu.jitNanos(serverPid);
            sleep(settleStep);
            long c1 = ProcCpu.nanos(serverPid);
            long j1 = ProcCpu.jitNanos(serverPid);
            spent += settleStep;
            System.out.printf(Locale.ROOT, "# settle %.0f s: JIT %d of %d ticks%n", spent, (j1 - j0) / 10_000_000L,
                    (c1 - c0) / 10_000_000L);
            if (c1 < 0 || j1 < 0 || c1 - c0 <= 0 || 100.0 * (j1 - j0) <= settlePct * (c1 - c0)) {
                break;
            }
        }
        long self = ProcessHandle.current().pid();
        long errors0 = shared.errors.sum();
        long bad0 = shared.bad.sum();
        long timeouts0 = shared.timeouts.sum();
        shared.latencies.clear();
        shared.measuring = true;
        long n0 = shared.completed.sum();
        long cpu0 = ProcCpu.nanos(serverPid);
        long jit0 = ProcCpu.jitNanos(serverPid);
        long me0 = ProcCpu.nanos((int) self);
        long[] core0 = coreTicks(serverCore);
        long t0 = System.nanoTime();
        sleep(seconds);
        long n1 = shared.completed.sum();
        long cpu1 = ProcCpu.nanos(serverPid);
        long jit1 = ProcCpu.jitNanos(serverPid);
        long me1 = ProcCpu.nanos((int) self);
        long[] core1 = coreTicks(serverCore);
        long t1 = System.nanoTime();
        shared.measuring = false;
        long errors = shared.errors.sum() - errors0;
        long bad = shared.bad.sum() - bad0;
        long timeouts = shared.timeouts.sum() - timeouts0;
        shared.stop.set(true);
        for (Thread t : threads) {
            t.join(Math.max(1, timeoutNanos / 1_000_000));
        }
        for (Worker w : workers) {
            w.closeQuietly();
        }
        watchdog.interrupt();

        Answer first = shared.first.get();
        if (first != null) {
            System.out.println("ANSWER status=" + first.status() + " "
                    + new String(first.body(), 0, Math.min(first.body().length, 2000), StandardCharsets.UTF_8)
                    .replace('\n', ' '));
        }
        if (shared.lastError.get() != null) {
            System.out.println("# last error: " + shared.lastError.get());
        }
        long n = n1 - n0;
        double wall = (t1 - t0) / 1e9;
        double mb = n * (double) upload.bodyBytes() / 1e6;
        long[] lat = shared.latencies.stream().mapToLong(Long::longValue).sorted().toArray();
        System.out.printf(Locale.ROOT,
                "RESULT uploads=%d seconds=%.2f mb_per_s=%.1f uploads_per_s=%.2f server_cpu_ms_per_mb=%s"
                        + " server_jit_ms_per_mb=%s client_cpu_pct=%.0f p50_ms=%.1f p99_ms=%.1f max_ms=%.1f"
                        + " errors=%d bad_answers=%d timeouts=%d body_bytes=%d conns=%d%s%n",
                n, wall, mb / wall, n / wall,
                perMb(cpu0, cpu1, mb), perMb(jit0, jit1, mb),
                me0 < 0 ? -1 : 100.0 * (me1 - me0) / (t1 - t0),
                pct(lat, 50), pct(lat, 99), lat.length == 0 ? 0 : lat[lat.length - 1] / 1e6,
                errors, bad, timeouts, upload.bodyBytes(), conns, coreShares(core0, core1, cpu0, cpu1));
    }

    /** {busy, total} clock ticks of core {@code n} from /proc/stat; null when unknown. */
    static long[] coreTicks(int n) {
        if (n < 0) {
            return null;
        }
        try {
            for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/stat"))) {
                if (line.startsWith("cpu" + n + " ")) {
                    String[] f = line.trim().split("\\s+");
                    long busy = 0;
                    long total = 0;
                    for (int i = 1; i <= 8 && i < f.length; i++) { // user nice system idle iowait irq softirq steal
                        long v = Long.parseLong(f[i]);
                        total += v;
                        if (i != 4 && i != 5 && i != 8) {
                            busy += v;
                        }
                    }
                    return new long[] {busy, total};
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or unreadable: no shares
        }
        return null;
    }

    /** " server_core_pct=S others_core_pct=O" over the window, or "" without the core's ticks. */
    private static String coreShares(long[] a, long[] b, long cpu0, long cpu1) {
        if (a == null || b == null || b[1] <= a[1] || cpu0 < 0 || cpu1 < 0) {
            return "";
        }
        double total = b[1] - a[1];
        double server = (cpu1 - cpu0) / 10_000_000.0; // ns to clock ticks
        double others = Math.max(0, (b[0] - a[0]) - server);
        return String.format(Locale.ROOT, " server_core_pct=%.0f others_core_pct=%.0f", 100 * server / total, 100 * others / total);
    }

    private static String perMb(long a, long b, double mb) {
        return a < 0 || b < 0 || mb <= 0 ? "-1" : String.format(Locale.ROOT, "%.3f", (b - a) / 1e6 / mb);
    }

    private static double pct(long[] sorted, int p) {
        if (sorted.length == 0) {
            return 0;
        }
        int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))] / 1e6;
    }

    private static void sleep(double seconds) throws InterruptedException {
        Thread.sleep((long) (seconds * 1000));
    }

    private static void usage() {
        System.err.println("usage: UploadClient --port P [--server-pid PID] [--host 127.0.0.1] [--conns 4]"
                + " [--file-bytes 10000000] [--warmup 5] [--seconds 10] [--settle-pct 3] [--settle-step 3]"
                + " [--settle-max 60] [--timeout 60] [--server-core N]");
        System.exit(2);
    }

    /** For tests: the request as bytes. */
    static byte[] bytes(Upload u) {
        ByteBuffer b = u.request().duplicate();
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }
}
