package org.loommpm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.testsupport.MultipartBody;
import org.loommpm.testsupport.RawHttp;

/**
 * Issue 54's memory bounds, proven in a JVM with a 64 MiB heap ({@link UploadServerMain}, started
 * with the same java and class path): a 1 GiB upload streamed through {@code Request.multipart()}
 * arrives whole (size and SHA-256 as the client sent it), a 256 MiB one stored through
 * {@code readAll()} is spooled to disk and the spool is empty afterwards, and 100,000 tiny parts
 * leave the heap as it was (the heap in use after a full GC at the 1,000th part and at the last).
 * The client generates its bodies as it sends them, storing nothing. Tagged {@code large-upload}
 * (it runs in the normal build; about 10-20 s on loopback, most of it hashing).
 */
@Tag("large-upload")
class LargeUploadTest {
    private static final long GIB = 1L << 30;
    private static final Pattern PEAK = Pattern.compile("max heap (\\d+) peak heap pools (\\d+)");

    @TempDir
    static Path spool;

    private static Process server;
    private static int port;

    @BeforeAll
    static void start() throws Exception {
        server = new ProcessBuilder(ProcessHandle.current().info().command().orElseThrow(), "-Xmx64m",
                "-cp", System.getProperty("java.class.path"), UploadServerMain.class.getName(), spool.toString())
                .redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
        for (String line; (line = out.readLine()) != null; ) {
            if (line.startsWith("PORT ")) {
                port = Integer.parseInt(line.substring(5).trim());
                break;
            }
        }
        assertTrue(port > 0, "the upload server did not start");
        // Its log goes on to nowhere but must not fill the pipe.
        Thread.ofVirtual().start(() -> {
            try {
                out.transferTo(java.io.Writer.nullWriter());
            } catch (IOException ignored) {
                // the process ended
            }
        });
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.getOutputStream().close();
            if (!server.waitFor(10, TimeUnit.SECONDS)) {
                server.destroyForcibly();
            }
        }
    }

    @Test
    void aGibibyteUploadStreamsThroughA64MiBHeap() throws Exception {
        long start = System.nanoTime();
        Upload up = upload("/stream", GIB, 1);
        double seconds = (System.nanoTime() - start) / 1e9;
        assertEquals(200, up.response.status(), up.response.text());
        List<String> lines = up.response.text().lines().toList();
        assertEquals("title 5 " + sha("hello".getBytes(StandardCharsets.UTF_8)), lines.get(0));
        assertEquals("file " + GIB + " " + up.sha256, lines.get(1));
        long max = peak(up.response.text(), 1);
        long peak = peak(up.response.text(), 2);
        System.out.printf("LargeUploadTest: 1 GiB streamed in %.1f s (%.0f MB/s), server max heap %d MiB, "
                + "peak of its heap pools %d MiB%n", seconds, GIB / seconds / 1e6, max >> 20, peak >> 20);
        assertTrue(max <= 64L << 20, "the server runs with -Xmx64m: " + max);
    }

    @Test
    void a256MiBUploadIsSpooledAndTheSpoolIsEmptyAfterwards() throws Exception {
        long size = 256L << 20;
        Upload up = upload("/spool", size, 2);
        assertEquals(200, up.response.status(), up.response.text());
        List<String> lines = up.response.text().lines().toList();
        assertEquals("file " + size + " " + up.sha256, lines.get(1));
        assertEquals("spooled files 1", lines.get(2), "the file part alone went to disk");
        System.out.printf("LargeUploadTest: 256 MiB stored (spooled), peak of the heap pools %d MiB%n",
                peak(up.response.text(), 2) >> 20);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (files() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(0, files(), "the spool directory is empty once the exchange ended");
    }

    @Test
    void aHundredThousandTinyPartsLeaveTheHeapFlat() throws Exception {
        String part = "--" + MultipartBody.BOUNDARY + "\r\nContent-Disposition: form-data; name=\"p\"\r\n\r\nxy\r\n";
        byte[] one = part.getBytes(StandardCharsets.US_ASCII);
        byte[] end = ("--" + MultipartBody.BOUNDARY + "--\r\n").getBytes(StandardCharsets.US_ASCII);
        int parts = 100_000;
        long length = (long) one.length * parts + end.length;
        try (Socket s = connect()) {
            OutputStream out = s.getOutputStream();
            out.write(head("/count", length));
            byte[] batch = new byte[one.length * 1000];
            for (int i = 0; i < 1000; i++) {
                System.arraycopy(one, 0, batch, i * one.length, one.length);
            }
            for (int i = 0; i < parts / 1000; i++) {
                out.write(batch);
            }
            out.write(end);
            out.flush();
            RawHttp.Response r = new RawHttp(s, 120_000).read();
            assertEquals(200, r.status(), r.text());
            Matcher m = Pattern.compile("parts (\\d+) bytes (\\d+)\nused after GC at part 1000 (\\d+) at the end (\\d+)")
                    .matcher(r.text());
            assertTrue(m.find(), r.text());
            assertEquals(parts, Long.parseLong(m.group(1)));
            assertEquals(2L * parts, Long.parseLong(m.group(2)));
            long at1000 = Long.parseLong(m.group(3));
            long atEnd = Long.parseLong(m.group(4));
            System.out.printf("LargeUploadTest: 100,000 parts, heap in use after GC at part 1,000 %d KiB, "
                    + "at the end %d KiB%n", at1000 >> 10, atEnd >> 10);
            assertTrue(atEnd - at1000 < 2 << 20, "the heap grew by " + (atEnd - at1000) + " bytes over 99,000 parts");
        }
    }

    private record Upload(RawHttp.Response response, String sha256) {
    }

    /**
     * Posts a form with a field {@code title=hello} and a file part of {@code size} pseudo-random
     * bytes, generated and hashed as they are sent.
     */
    private static Upload upload(String path, long size, long seed) throws Exception {
        byte[] before = ("--" + MultipartBody.BOUNDARY + "\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nhello\r\n"
                + "--" + MultipartBody.BOUNDARY + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big.bin\"\r\n"
                + "Content-Type: application/octet-stream\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        byte[] after = ("\r\n--" + MultipartBody.BOUNDARY + "--\r\n").getBytes(StandardCharsets.US_ASCII);
        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        byte[] block = new byte[1 << 20];
        new Random(seed).nextBytes(block);
        try (Socket s = connect()) {
            OutputStream out = s.getOutputStream();
            out.write(head(path, before.length + size + after.length));
            out.write(before);
            for (long sent = 0, i = 0; sent < size; i++) {
                // Each block differs from the last (its first 8 bytes are its index): no period to hide a bug in.
                for (int k = 0; k < 8; k++) {
                    block[k] = (byte) (i >>> (8 * k));
                }
                int n = (int) Math.min(block.length, size - sent);
                sha.update(block, 0, n);
                out.write(block, 0, n);
                sent += n;
            }
            out.write(after);
            out.flush();
            return new Upload(new RawHttp(s, 120_000).read(), HexFormat.of().formatHex(sha.digest()));
        }
    }

    private static byte[] head(String path, long length) {
        return ("POST " + path + " HTTP/1.1\r\nHost: x\r\nContent-Type: " + new MultipartBody().contentType()
                + "\r\nContent-Length: " + length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    private static Socket connect() throws IOException {
        Socket s = new Socket();
        s.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        return s;
    }

    private static long peak(String text, int group) {
        Matcher m = PEAK.matcher(text);
        assertTrue(m.find(), text);
        return Long.parseLong(m.group(group));
    }

    private static String sha(byte[] b) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
    }

    private static long files() throws IOException {
        try (Stream<Path> s = Files.list(spool)) {
            return s.count();
        }
    }
}
