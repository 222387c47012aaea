package org.loommpm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.server.LoomServer;
import org.loommpm.api.Router;
import org.loommpm.testsupport.TestServers;

/**
 * 50 MB bodies in both directions, streamed: the upload is consumed by the handler while the
 * client is still sending it (proved by a client that stops sending until the handler has read
 * part of it), downloads go out chunked from a stream and with a Content-Length from a file.
 */
class LargeBodyTest {
    private static final long SIZE = 50L << 20;
    private static final long PAUSE_AFTER = 10L << 20;
    private static final long HANDLER_MUST_HAVE_READ = 5L << 20;
    private static final long SEED = 0x5EED_CAFEL;

    @TempDir
    static Path dir;
    private static Path file;
    private static LoomServer server;
    private static HttpClient client;
    private static final AtomicLong handlerRead = new AtomicLong();
    private static volatile CountDownLatch readEnough = new CountDownLatch(1);

    @BeforeAll
    static void start() throws Exception {
        file = dir.resolve("fifty.bin");
        try (OutputStream out = Files.newOutputStream(file); InputStream in = new Generator(SEED, SIZE)) {
            in.transferTo(out);
        }
        Router router = new Router()
                .post("/upload", (req, res) -> {
                    CRC32 crc = new CRC32();
                    byte[] buf = new byte[8192];
                    long count = 0;
                    InputStream body = req.body();
                    for (int n; (n = body.read(buf, 0, buf.length)) >= 0; ) {
                        crc.update(buf, 0, n);
                        count += n;
                        handlerRead.set(count);
                        if (count >= HANDLER_MUST_HAVE_READ) {
                            readEnough.countDown();
                        }
                    }
                    res.send("count=" + count + " crc=" + crc.getValue());
                })
                .get("/stream", (req, res) -> {
                    byte[] block = new byte[64 * 1024];
                    try (InputStream in = new Generator(SEED, SIZE); OutputStream out = res.outputStream()) {
                        for (int n; (n = in.readNBytes(block, 0, block.length)) > 0; ) {
                            out.write(block, 0, n);
                        }
                    }
                })
                .get("/file", (req, res) -> {
                    res.header("Content-Type", "application/octet-stream");
                    res.sendFile(file);
                });
        server = TestServers.start(router);
        client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    }

    @AfterAll
    static void stop() {
        client.close();
        server.close();
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void fiftyMegabyteChunkedUploadIsStreamedThroughTheHandler() throws Exception {
        readEnough = new CountDownLatch(1);
        handlerRead.set(0);
        CRC32 sent = new CRC32();
        long[] sentCount = {0};
        boolean[] waited = {false};
        InputStream generator = new Generator(SEED, SIZE) {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (sentCount[0] >= PAUSE_AFTER && !waited[0]) {
                    // Hold back the remaining 40 MB until the handler has consumed 5 MB. A server
                    // that buffered the whole body before calling the handler never gets there.
                    try {
                        if (!readEnough.await(20, TimeUnit.SECONDS)) {
                            throw new IOException("handler read only " + handlerRead.get()
                                    + " bytes while the client had sent " + sentCount[0] + ": body not streamed");
                        }
                    } catch (InterruptedException e) {
                        throw new IOException(e);
                    }
                    waited[0] = true;
                }
                int max = (int) Math.min(len, waited[0] ? len : PAUSE_AFTER - sentCount[0]);
                int n = super.read(b, off, max);
                if (n > 0) {
                    sent.update(b, off, n);
                    sentCount[0] += n;
                }
                return n;
            }
        };
        HttpRequest req = HttpRequest.newBuilder(uri("/upload"))
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> generator)) // unknown length: chunked
                .build();
        HttpResponse<String> r = client.send(req, HttpResponse.BodyHandlers.ofString());
        assertTrue(waited[0], "the client paused after 10 MB");
        assertEquals(SIZE, sentCount[0]);
        assertEquals(200, r.statusCode());
        assertEquals("count=" + SIZE + " crc=" + sent.getValue(), r.body());
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void fiftyMegabyteStreamedDownloadIsChunked() throws Exception {
        HttpResponse<InputStream> r = client.send(HttpRequest.newBuilder(uri("/stream")).build(),
                HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, r.statusCode());
        assertEquals("chunked", r.headers().firstValue("Transfer-Encoding").orElse(null));
        assertTrue(r.headers().firstValue("Content-Length").isEmpty());
        assertBody(r.body());
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void fiftyMegabyteFileDownloadHasContentLength() throws Exception {
        HttpResponse<InputStream> r = client.send(HttpRequest.newBuilder(uri("/file")).build(),
                HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, r.statusCode());
        assertEquals(String.valueOf(SIZE), r.headers().firstValue("Content-Length").orElse(null));
        assertTrue(r.headers().firstValue("Transfer-Encoding").isEmpty());
        assertEquals("application/octet-stream", r.headers().firstValue("Content-Type").orElse(null));
        assertBody(r.body());
    }

    private static void assertBody(InputStream body) throws IOException {
        CRC32 got = new CRC32();
        long count = 0;
        byte[] buf = new byte[64 * 1024];
        try (body) {
            for (int n; (n = body.read(buf)) >= 0; ) {
                got.update(buf, 0, n);
                count += n;
            }
        }
        CRC32 expected = new CRC32();
        try (InputStream in = new Generator(SEED, SIZE)) {
            for (int n; (n = in.read(buf)) >= 0; ) {
                expected.update(buf, 0, n);
            }
        }
        assertEquals(SIZE, count);
        assertEquals(expected.getValue(), got.getValue());
    }

    private static URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.port() + path);
    }

    /** A deterministic pseudo-random byte stream (xorshift64*), the same bytes however it is read. */
    static class Generator extends InputStream {
        private long state;
        private long left;
        private long word;
        private int wordBytes;

        Generator(long seed, long length) {
            this.state = seed == 0 ? 1 : seed;
            this.left = length;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (left == 0) {
                return -1;
            }
            int n = (int) Math.min(len, left);
            for (int i = 0; i < n; i++) {
                if (wordBytes == 0) {
                    state ^= state >>> 12;
                    state ^= state << 25;
                    state ^= state >>> 27;
                    word = state * 0x2545F4914F6CDD1DL;
                    wordBytes = 8;
                }
                b[off + i] = (byte) word;
                word >>>= 8;
                wordBytes--;
            }
            left -= n;
            return n;
        }
    }
}
