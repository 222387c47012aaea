package org.loommpm.it;

import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.stream.Stream;
import org.loommpm.api.Router;
import org.loommpm.multipart.MultipartLimits;
import org.loommpm.multipart.MultipartReader;
import org.loommpm.multipart.Part;
import org.loommpm.server.LoomServer;

/**
 * The server of {@code LargeUploadTest}, run in a JVM of its own with a small heap: prints
 * {@code PORT n}, serves until its standard input closes. Routes:
 * <ul>
 * <li>{@code POST /stream}: each part streamed ({@code next()}), hashed; answers
 *     {@code name size sha256} per part and the heap figures;</li>
 * <li>{@code POST /spool}: every part stored ({@code readAll()}: spooled to the directory given
 *     as the first argument), then hashed from its file; also how many files the spool held;</li>
 * <li>{@code POST /count}: parts counted while streaming, with no part limit of the defaults'
 *     size (a million): the heap in use after a full GC at the 1,000th part and at the end.</li>
 * </ul>
 */
public final class UploadServerMain {
    private UploadServerMain() {
    }

    public static void main(String[] args) throws Exception {
        Path spool = Path.of(args[0]);
        MultipartLimits stored = MultipartLimits.DEFAULTS.withSpoolDirectory(spool);
        MultipartLimits manyParts = MultipartLimits.DEFAULTS.withMaxParts(1_000_000);
        Router router = new Router()
                .post("/stream", (req, res) -> {
                    resetPeaks();
                    StringBuilder b = new StringBuilder();
                    MultipartReader r = req.multipart();
                    for (Part p; (p = r.next()) != null; ) {
                        b.append(hash(p)).append('\n');
                    }
                    res.send(b.append(heap()).toString());
                })
                .post("/spool", (req, res) -> {
                    resetPeaks();
                    StringBuilder b = new StringBuilder();
                    var parts = req.multipart(stored).readAll();
                    long files;
                    try (Stream<Path> s = Files.list(spool)) {
                        files = s.count();
                    }
                    for (Part p : parts) {
                        b.append(hash(p)).append('\n');
                    }
                    res.send(b.append("spooled files ").append(files).append('\n').append(heap()).toString());
                })
                .post("/count", (req, res) -> {
                    resetPeaks();
                    MultipartReader r = req.multipart(manyParts);
                    long parts = 0;
                    long bytes = 0;
                    long usedAt1000 = -1;
                    byte[] buf = new byte[64];
                    for (Part p; (p = r.next()) != null; ) {
                        InputStream in = p.content();
                        for (int n; (n = in.read(buf)) >= 0; ) {
                            bytes += n;
                        }
                        if (++parts == 1000) {
                            usedAt1000 = usedAfterGc();
                        }
                    }
                    res.send("parts " + parts + " bytes " + bytes + "\nused after GC at part 1000 " + usedAt1000
                            + " at the end " + usedAfterGc() + "\n" + heap());
                });
        LoomServer server = LoomServer.builder()
                .listen("127.0.0.1", 0)
                .configure(c -> c.limitRequestBody(0).gracefulShutdownTimeout(Duration.ofSeconds(2)))
                .handler(router)
                .start();
        System.out.println("PORT " + server.port());
        System.out.flush();
        while (System.in.read() >= 0) {
            // until the test closes our standard input
        }
        server.close();
    }

    private static String hash(Part p) throws Exception {
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        byte[] buf = new byte[64 * 1024];
        long size = 0;
        try (InputStream in = p.content()) {
            for (int n; (n = in.read(buf)) >= 0; ) {
                sha.update(buf, 0, n);
                size += n;
            }
        }
        return p.name() + " " + size + " " + HexFormat.of().formatHex(sha.digest());
    }

    private static void resetPeaks() {
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            pool.resetPeakUsage();
        }
    }

    /** The maximum heap and, as an upper bound of the heap used during the request, the sum of the heap pools' peaks. */
    private static String heap() {
        long peaks = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                peaks += pool.getPeakUsage().getUsed();
            }
        }
        return "max heap " + Runtime.getRuntime().maxMemory() + " peak heap pools " + peaks;
    }

    private static long usedAfterGc() {
        System.gc();
        Runtime rt = Runtime.getRuntime();
        return rt.totalMemory() - rt.freeMemory();
    }
}
