package org.loommpm.http2.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rule in {@link org.loommpm.api.Handler}'s javadoc, on the JDK the tests run on: with a single
 * carrier thread ({@code -Djdk.virtualThreadScheduler.parallelism=1}), h2c handlers that each write
 * 8 MiB from inside one shared {@code synchronized} block complete. The client grants 64 KiB windows,
 * so every handler parks inside the monitor for WINDOW_UPDATE frames, which only the connection's
 * frame loop reads, itself a virtual thread on that same carrier. JDK 21 to 23 pin the carrier
 * there and the streams stall; JDK 24+ do not (JEP 491).
 *
 * <p>The scheduler's parallelism is fixed when the JVM starts, so the scenario ({@link Scenario})
 * runs in a child JVM with the test's class path; this test bounds it and checks its exit.
 */
class SynchronizedLargeResponseTest {
    static final int STREAMS = 4;
    static final int BODY = 8 << 20;
    static final String DONE = "all streams complete";

    @Test
    void largeResponsesWrittenInsideSynchronizedCompleteOnOneCarrier(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("scenario.txt");
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djdk.virtualThreadScheduler.parallelism=1",
                // The JDK client's defaults (16 MiB per stream) would take a body of 8 MiB without one update.
                "-Djdk.httpclient.windowsize=65535", "-Djdk.httpclient.connectionWindowSize=65535",
                "-cp", System.getProperty("java.class.path"), Scenario.class.getName())
                .redirectErrorStream(true).redirectOutput(out.toFile()).start();
        try {
            boolean exited = p.waitFor(120, TimeUnit.SECONDS);
            String said = Files.readString(out, StandardCharsets.UTF_8);
            if (!exited) {
                throw new AssertionError("the scenario did not finish in 120 s (streams stalled?); it said:\n" + said);
            }
            assertEquals(0, p.exitValue(), said);
            assertEquals(DONE, said.lines().reduce((a, b) -> b).orElse(""), said);
        } finally {
            p.destroyForcibly();
        }
    }

    /** The child JVM: a server, one h2c connection, {@value #STREAMS} concurrent large responses. */
    static final class Scenario {
        private static final Object LOCK = new Object();

        public static void main(String[] args) {
            try {
                run();
                System.out.println(DONE);
                System.exit(0);
            } catch (Throwable t) {
                t.printStackTrace(System.out);
                System.exit(1);
            }
        }

        private static void run() throws Exception {
            String parallelism = System.getProperty("jdk.virtualThreadScheduler.parallelism");
            if (!"1".equals(parallelism)) {
                throw new AssertionError("jdk.virtualThreadScheduler.parallelism is " + parallelism + ", not 1");
            }
            AtomicInteger inMonitor = new AtomicInteger();
            byte[] piece = new byte[64 << 10];
            Arrays.fill(piece, (byte) 'x');
            try (H2Server server = H2Server.start((req, res) -> {
                if (!req.path().equals("/big")) {
                    res.send("ok");
                    return;
                }
                synchronized (LOCK) {
                    if (!Thread.currentThread().isVirtual()) {
                        throw new AssertionError("the handler is not on a virtual thread");
                    }
                    inMonitor.incrementAndGet();
                    try (var body = res.outputStream()) {
                        for (int sent = 0; sent < BODY; sent += piece.length) {
                            body.write(piece);
                        }
                    }
                }
            })) {
                HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
                String base = "http://127.0.0.1:" + server.port();
                // The upgrade first: requests sent while it is under way would take HTTP/1.1 connections.
                HttpResponse<String> first = client.send(HttpRequest.newBuilder(URI.create(base + "/")).build(),
                        HttpResponse.BodyHandlers.ofString());
                check(first.version() == HttpClient.Version.HTTP_2, "the first exchange is " + first.version());
                List<AtomicLong> received = new ArrayList<>();
                List<CompletableFuture<HttpResponse<Void>>> answers = new ArrayList<>();
                for (int i = 0; i < STREAMS; i++) {
                    AtomicLong n = new AtomicLong();
                    received.add(n);
                    // Consumed as it arrives, so the client keeps granting window to every stream.
                    answers.add(client.sendAsync(HttpRequest.newBuilder(URI.create(base + "/big")).build(),
                            HttpResponse.BodyHandlers.ofByteArrayConsumer(b -> b.ifPresent(bytes -> {
                                for (byte x : bytes) {
                                    if (x != 'x') {
                                        throw new IllegalStateException("a byte of the body is " + x);
                                    }
                                }
                                n.addAndGet(bytes.length);
                            }))));
                }
                for (int i = 0; i < STREAMS; i++) {
                    HttpResponse<Void> r = answers.get(i).get(100, TimeUnit.SECONDS);
                    check(r.statusCode() == 200, "stream " + i + ": status " + r.statusCode());
                    check(r.version() == HttpClient.Version.HTTP_2, "stream " + i + " came over " + r.version());
                    check(received.get(i).get() == BODY, "stream " + i + ": " + received.get(i).get() + " bytes");
                }
                check(inMonitor.get() == STREAMS, inMonitor.get() + " handlers wrote inside the monitor");
            }
        }

        private static void check(boolean ok, String what) {
            if (!ok) {
                throw new AssertionError(what);
            }
        }
    }
}
