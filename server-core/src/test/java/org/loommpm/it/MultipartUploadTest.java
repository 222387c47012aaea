package org.loommpm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.api.Router;
import org.loommpm.multipart.MultipartLimits;
import org.loommpm.multipart.Part;
import org.loommpm.server.LoomServer;
import org.loommpm.testsupport.Curl;
import org.loommpm.testsupport.LogCapture;
import org.loommpm.testsupport.MultipartBody;
import org.loommpm.testsupport.RawHttp;
import org.loommpm.testsupport.TestServers;
import static org.loommpm.testsupport.PartDigests.describe;
import static org.loommpm.testsupport.PartDigests.line;
import static org.loommpm.testsupport.PartDigests.random;
import static org.loommpm.testsupport.PartDigests.streamed;

/**
 * {@code Request.multipart()} over HTTP/1.1: uploads from the JDK's client, curl's {@code -F} and
 * raw sockets, streamed and stored; the bad inputs of issue 54 (a missing boundary, a part header
 * of 1 MiB, 100,000 tiny parts) answered with their status and log id; and the spool directory
 * empty after a stored upload whatever the outcome: the handler returned, threw, or the client
 * went away mid-upload. The 1 GiB upload in a 64 MiB heap is {@code LargeUploadTest}.
 */
class MultipartUploadTest {
    @TempDir
    static Path spool;
    @TempDir
    static Path saved;

    private static LoomServer server;
    /** What the last /spooled handler call ended with: "ok", or its exception. */
    private static final AtomicReference<String> outcome = new AtomicReference<>();

    @BeforeAll
    static void start() throws Exception {
        MultipartLimits spooling = MultipartLimits.DEFAULTS.withSpoolDirectory(spool).withSpoolThreshold(1024);
        Router router = new Router()
                .post("/parts", (req, res) -> res.send(streamed(req.multipart())))
                .post("/spooled", (req, res) -> {
                    try {
                        List<Part> parts = req.multipart(spooling).readAll();
                        StringBuilder b = new StringBuilder();
                        for (Part p : parts) {
                            b.append(describe(p, p.content())).append('\n');
                        }
                        if (req.query() != null && req.query().contains("fail")) {
                            throw new IllegalStateException("the handler fails after storing " + parts.size() + " parts");
                        }
                        if (req.query() != null && req.query().contains("save")) {
                            parts.get(parts.size() - 1).saveTo(saved.resolve("kept.bin"));
                        }
                        outcome.set("ok");
                        res.send(b.toString());
                    } catch (Exception e) {
                        outcome.set(e.toString());
                        throw e;
                    }
                });
        server = TestServers.start(router, c -> c.limitRequestBody(0));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void theJdkClientUploadsFieldsAndAFile() throws Exception {
        byte[] file = random(3 * 1024 * 1024 + 17, 1);
        MultipartBody body = new MultipartBody().field("title", "Hello").file("file", "data.bin",
                "application/octet-stream", file);
        HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(uri("/parts"))
                .header("Content-Type", body.contentType())
                .POST(HttpRequest.BodyPublishers.ofByteArray(body.build())).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode());
        assertEquals(line("title", "null", "Hello".getBytes(StandardCharsets.UTF_8)) + "\n"
                + line("file", "data.bin", file) + "\n", r.body());
    }

    @Test
    void curlUploadsWithDashF(@TempDir Path dir) throws Exception {
        assumeTrue(Curl.available(), "curl is not installed");
        byte[] file = random(1_500_000, 2); // over 1 MiB: curl sends Expect: 100-continue
        Path f = dir.resolve("photo.jpg");
        Files.write(f, file);
        Curl.Response r = Curl.exchange("-F", "title=Holiday", "-F", "file=@" + f + ";type=image/jpeg",
                "http://127.0.0.1:" + server.port() + "/parts");
        assertEquals(200, r.status(), r.body());
        assertEquals(line("title", "null", "Holiday".getBytes(StandardCharsets.UTF_8)) + "\n"
                + line("file", "photo.jpg", file) + "\n", r.body());
    }

    @Test
    void storedPartsAreSpooledAndTheSpoolIsEmptyAfterTheExchange() throws Exception {
        byte[] big = random(500_000, 3);
        MultipartBody body = new MultipartBody().field("a", "small").file("big", "big.bin", "x/y", big);
        try (RawHttp http = new RawHttp(server.port())) {
            RawHttp.Response r = http.send(post("/spooled?save", body.contentType(), body.build())).read();
            assertEquals(200, r.status(), r.text());
            assertEquals(line("a", "null", "small".getBytes(StandardCharsets.UTF_8)) + "\n"
                    + line("big", "big.bin", big) + "\n", r.text());
            assertSpoolEmpty();
            assertEquals(big.length, Files.size(saved.resolve("kept.bin")), "a part saved is kept");
            // Keep-alive goes on after an upload.
            assertEquals(200, http.send(post("/spooled", body.contentType(), body.build())).read().status());
            assertSpoolEmpty();
        }
    }

    @Test
    void theSpoolIsEmptyAfterTheHandlerFails() throws Exception {
        MultipartBody body = new MultipartBody().file("a", "a", "x/y", random(100_000, 4))
                .file("b", "b", "x/y", random(100_000, 5));
        try (LogCapture ignored = new LogCapture(); RawHttp http = new RawHttp(server.port())) {
            RawHttp.Response r = http.send(post("/spooled?fail", body.contentType(), body.build())).read();
            assertEquals(500, r.status());
        }
        assertTrue(outcome.get().contains("the handler fails after storing 2 parts"), outcome.get());
        assertSpoolEmpty();
    }

    @Test
    void theSpoolIsEmptyAfterTheClientGoesAwayMidUpload() throws Exception {
        outcome.set(null);
        MultipartBody body = new MultipartBody().file("a", "a", "x/y", random(300_000, 6))
                .file("b", "b", "x/y", random(2_000_000, 7));
        byte[] all = body.build();
        byte[] head = ("POST /spooled HTTP/1.1\r\nHost: x\r\nContent-Type: " + body.contentType()
                + "\r\nContent-Length: " + all.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", server.port()));
            OutputStream out = s.getOutputStream();
            out.write(head);
            out.write(all, 0, all.length / 2); // the first part whole, the second begun: both spooling
            out.flush();
            TestServers.waitFor("a spooled file", 10, () -> spoolFiles() > 0);
        } // the client is gone
        TestServers.waitFor("the handler's end", 10, () -> outcome.get() != null);
        assertTrue(!outcome.get().equals("ok"), outcome.get());
        assertSpoolEmpty();
    }

    @Test
    void aMissingBoundaryIs400() throws Exception {
        assertRejected(post("/parts", "multipart/form-data", new byte[] {'x'}), 400, "LM2720");
        assertRejected(post("/parts", "multipart/form-data; boundary=\"a\u00e9\"", new byte[] {'x'}), 400, "LM2721");
        assertRejected(post("/parts", "text/plain", new byte[] {'x'}), 415, "LM2722");
    }

    @Test
    void aBodyCutShortIs400() throws Exception {
        MultipartBody body = new MultipartBody().field("a", "1");
        assertRejected(post("/parts", body.contentType(), body.unterminated()), 400, "LM2724");
    }

    @Test
    void aPartHeaderOfOneMebibyteIs413() throws Exception {
        byte[] start = ("--" + MultipartBody.BOUNDARY + "\r\nContent-Disposition: form-data; name=a\r\nX-Huge: ")
                .getBytes(StandardCharsets.US_ASCII);
        byte[] body = new byte[start.length + (1 << 20) + 4];
        System.arraycopy(start, 0, body, 0, start.length);
        java.util.Arrays.fill(body, start.length, body.length - 4, (byte) 'h');
        System.arraycopy("\r\n\r\n".getBytes(StandardCharsets.US_ASCII), 0, body, body.length - 4, 4);
        assertRejected(post("/parts", new MultipartBody().contentType(), body), 413, "LM2726");
    }

    @Test
    void aHundredThousandTinyPartsAre413() throws Exception {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 100_000; i++) {
            b.append("--").append(MultipartBody.BOUNDARY).append("\r\nContent-Disposition: form-data; name=p\r\n\r\nx\r\n");
        }
        b.append("--").append(MultipartBody.BOUNDARY).append("--\r\n");
        assertRejected(post("/parts", new MultipartBody().contentType(), b.toString().getBytes(StandardCharsets.US_ASCII)),
                413, "LM2727");
    }

    private static URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.port() + path);
    }

    static byte[] post(String path, String type, byte[] body) {
        byte[] head = ("POST " + path + " HTTP/1.1\r\nHost: x\r\nContent-Type: " + type + "\r\nContent-Length: "
                + body.length + "\r\n\r\n").getBytes(StandardCharsets.UTF_8);
        byte[] all = new byte[head.length + body.length];
        System.arraycopy(head, 0, all, 0, head.length);
        System.arraycopy(body, 0, all, head.length, body.length);
        return all;
    }

    /**
     * Sends {@code request} from another thread (the server may answer before reading it all, and
     * stop reading) and reads the answer: its status, and the log id in the LM0406 line.
     */
    private static void assertRejected(byte[] request, int status, String id) throws Exception {
        try (LogCapture log = new LogCapture(); Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", server.port()));
            Thread writer = Thread.ofVirtual().start(() -> {
                try {
                    s.getOutputStream().write(request);
                } catch (IOException ignored) {
                    // the server answered and closed before taking it all
                }
            });
            RawHttp.Response r = new RawHttp(s, 10_000).read();
            assertEquals(status, r.status(), id);
            TestServers.waitFor(id + " logged", 5, () -> log.find(java.util.logging.Level.FINE, "LM0406").stream()
                    .anyMatch(rec -> Logs.text(rec).contains(" " + status + ": " + id + " ")));
            s.close();
            writer.join();
        }
    }

    private static long spoolFiles() {
        try (Stream<Path> s = Files.list(spool)) {
            return s.count();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void assertSpoolEmpty() throws InterruptedException {
        // The response goes out before the handler's call has quite ended (its finally): wait a moment.
        TestServers.waitFor("an empty spool directory", 5, () -> spoolFiles() == 0);
    }

}
