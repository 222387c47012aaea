package org.loommpm.cli.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.testsupport.Curl;

/**
 * Signals against the running jar: SIGHUP re-reads the configuration under continuous load (no
 * failed request, new settings in force), SIGHUP with a broken file keeps serving and says why,
 * SIGTERM lets requests in flight finish and exits 0.
 */
class SignalsIT {
    @TempDir
    Path dir;

    private void config(Path file, String text) throws Exception {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(tmp, text);
        Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    /** Waits (at most 20 s) until {@code count} reaches {@code n}: a load shown to run, not assumed to after a sleep. */
    private static void awaitCount(String what, AtomicInteger count, int n) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (count.get() < n) {
            if (System.nanoTime() > end) {
                throw new AssertionError("timed out waiting for " + what + ": " + count.get() + " of " + n);
            }
            Thread.sleep(10);
        }
    }

    private static String base(int port) {
        return "http://127.0.0.1:" + port;
    }

    @Test
    void sighupReloadsUnderLoadWithoutAFailedRequest() throws Exception {
        Path root = Files.createDirectories(dir.resolve("htdocs"));
        Files.writeString(root.resolve("a.html"), "A");
        Files.writeString(root.resolve("b.html"), "B");
        Path conf = dir.resolve("loom.conf");
        String common = "DocumentRoot htdocs\nKeepAliveTimeout 2\nCustomLog access.log common\nErrorLog error.log\n"
                + "<Location /server-status>\nSetHandler server-status\nRequire ip 127.0.0.1\n</Location>\n";
        config(conf, "Listen 127.0.0.1:0\nDirectoryIndex a.html\n" + common);
        try (JarProcess server = JarProcess.start(dir, "-f", "loom.conf")) {
            int p1 = server.port();
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(5)).build();
            AtomicBoolean running = new AtomicBoolean(true);
            AtomicInteger ok = new AtomicInteger();
            AtomicInteger sawB = new AtomicInteger();
            ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
            List<Thread> load = new ArrayList<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(40).toNanos(); // bounded even if the test misbehaves
            for (int i = 0; i < 4; i++) {
                load.add(Thread.ofPlatform().start(() -> {
                    HttpRequest req = HttpRequest.newBuilder(URI.create(base(p1) + "/"))
                            .timeout(Duration.ofSeconds(10)).build();
                    for (int n = 0; running.get() && n < 200_000 && System.nanoTime() < deadline; n++) {
                        try {
                            HttpResponse<String> r = client.send(req, HttpResponse.BodyHandlers.ofString());
                            if (r.statusCode() == 200 && (r.body().equals("A") || r.body().equals("B"))) {
                                ok.incrementAndGet();
                                sawB.addAndGet(r.body().equals("B") ? 1 : 0);
                            } else {
                                failures.add(r.statusCode() + " " + r.body());
                            }
                        } catch (Exception e) {
                            failures.add(e.toString());
                        }
                    }
                }));
            }
            awaitCount("requests served before the reload", ok, 20);
            int before = ok.get();
            // p1 as bound, kept across the reload; the new address on a port of its own, read from LM1303.
            config(conf, "Listen 127.0.0.1:" + p1 + "\nListen 127.0.0.1:0\nDirectoryIndex b.html\n" + common);
            server.signal("HUP");
            server.awaitFile(dir.resolve("error.log"), s -> s.contains("LM1303"), Duration.ofSeconds(15));
            Matcher reloaded = Pattern.compile("LM1303 .* serving on \\[/127\\.0\\.0\\.1:" + p1
                    + ", /127\\.0\\.0\\.1:(\\d+)\\]").matcher(Files.readString(dir.resolve("error.log")));
            assertTrue(reloaded.find(), "LM1303 names both addresses");
            int p2 = Integer.parseInt(reloaded.group(1));
            long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (sawB.get() == 0 && System.nanoTime() < until) {
                Thread.sleep(20);
            }
            awaitCount("requests served after the reload", ok, ok.get() + 20);
            running.set(false);
            for (Thread t : load) {
                t.join();
            }
            assertTrue(failures.isEmpty(), failures.size() + " failed requests, e.g. " + failures.peek());
            assertTrue(before > 0 && ok.get() > before, "load ran: " + before + " then " + ok.get());
            assertEquals("B", Curl.exchange(base(p1) + "/").body(), "new DirectoryIndex in effect");
            assertEquals("B", Curl.exchange(base(p2) + "/").body(), "new Listen address bound");
            assertTrue(Curl.exchange(base(p2) + "/server-status?auto").body().contains("ParentServerConfigGeneration: 2\n"));
            String errors = Files.readString(dir.resolve("error.log"));
            assertTrue(errors.contains("LM0012 graceful restart: generation 2"), errors);
            server.signal("TERM");
            assertEquals(0, server.waitExit(Duration.ofSeconds(30)));
        }
    }

    @Test
    void sighupWithABrokenConfigKeepsServingAndSaysWhy() throws Exception {
        Path root = Files.createDirectories(dir.resolve("htdocs"));
        Files.writeString(root.resolve("index.html"), "still here");
        Path conf = dir.resolve("loom.conf");
        String good = "Listen 127.0.0.1:0\nDocumentRoot htdocs\nCustomLog /dev/null common\n"
                + "<Location /server-status>\nSetHandler server-status\nRequire ip 127.0.0.1\n</Location>\n";
        config(conf, good);
        try (JarProcess server = JarProcess.start(dir, "-f", "loom.conf")) {
            int port = server.port();
            config(conf, good + "ThreadsPerChild 0\n");
            server.signal("HUP");
            server.awaitErrors(s -> s.contains("LM1301"), Duration.ofSeconds(15));
            String err = server.stderr();
            assertTrue(err.contains("Syntax error on line 8 of " + conf.toRealPath()
                    + ": ThreadsPerChild must be at least 1, got 0"), err);
            Curl.Response r = Curl.exchange(base(port) + "/");
            assertEquals(200, r.status());
            assertEquals("still here", r.body());
            assertTrue(Curl.exchange(base(port) + "/server-status?auto").body().contains("ParentServerConfigGeneration: 1\n"));
            assertTrue(server.isAlive());
            server.signal("TERM");
            assertEquals(0, server.waitExit(Duration.ofSeconds(30)));
        }
    }

    @Test
    void sigtermLetsRequestsInFlightFinishAndExits0() throws Exception {
        Path root = Files.createDirectories(dir.resolve("htdocs"));
        byte[] big = new byte[3 * 1024 * 1024];
        java.util.Arrays.fill(big, (byte) 'x');
        Files.write(root.resolve("big.bin"), big);
        Files.writeString(dir.resolve("loom.conf"), "Listen 127.0.0.1:0"
                + "\nDocumentRoot htdocs\nGracefulShutdownTimeout 30\nCustomLog access.log common\n");
        try (JarProcess server = JarProcess.start(dir, "-f", "loom.conf")) {
            int port = server.port();
            List<Process> clients = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                // About 2 s per download: still running when the signal arrives.
                clients.add(new ProcessBuilder("curl", "-s", "-o", dir.resolve("out" + i).toString(), "-w", "%{http_code}",
                        "--limit-rate", "1500K", "--max-time", "60", base(port) + "/big.bin").start());
            }
            // Signal only once every download has begun, however slow the machine is today.
            long until = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            for (int i = 0; i < clients.size(); i++) {
                Path out = dir.resolve("out" + i);
                while (!(Files.exists(out) && Files.size(out) > 0) && System.nanoTime() < until) {
                    Thread.sleep(10);
                }
            }
            server.signal("TERM");
            for (int i = 0; i < clients.size(); i++) {
                Process c = clients.get(i);
                String code = new String(c.getInputStream().readAllBytes());
                assertEquals(0, c.waitFor(), "curl " + i);
                assertEquals("200", code);
                assertEquals(big.length, Files.size(dir.resolve("out" + i)), "download " + i + " complete");
            }
            assertEquals(0, server.waitExit(Duration.ofSeconds(30)));
            String err = server.stderr();
            assertTrue(err.contains("LM0011") && err.contains("LM0006") && err.contains("LM0009"),
                    "every shutdown line reached the log:\n" + err);
            String access = Files.readString(dir.resolve("access.log"));
            assertEquals(4, access.lines().filter(l -> l.contains("\"GET /big.bin HTTP/1.1\" 200 " + big.length)).count(),
                    access);
        }
    }

    /**
     * Under {@code nohup} SIGHUP is ignored from the start, and the JVM then leaves it so: the
     * operator is told (LM1402), and SIGUSR1 still restarts.
     */
    @Test
    void anIgnoredSighupIsReportedAndSigusr1StillRestarts() throws Exception {
        Path root = Files.createDirectories(dir.resolve("htdocs"));
        Files.writeString(root.resolve("index.html"), "hello");
        String rest = "\nDocumentRoot htdocs\nCustomLog /dev/null common\nErrorLog error.log\n";
        config(dir.resolve("loom.conf"), "Listen 127.0.0.1:0" + rest);
        List<String> cmd = new ArrayList<>(List.of("nohup", JarProcess.java(), "-Xss1m", "-jar",
                JarProcess.jar().toString(), "-f", "loom.conf"));
        try (JarProcess server = JarProcess.launch(dir, cmd)) {
            int port = server.port();
            // The restart below keeps the bound port (a Listen of port 0 would bind another).
            config(dir.resolve("loom.conf"), "Listen 127.0.0.1:" + port + rest);
            server.awaitErrors(s -> s.contains("LM1402 SIGHUP was ignored"), Duration.ofSeconds(15));
            server.signal("USR1");
            server.awaitFile(dir.resolve("error.log"), s -> s.contains("LM0012 graceful restart: generation 2"),
                    Duration.ofSeconds(20));
            assertEquals(200, Curl.exchange(base(port) + "/").status());
            server.signal("TERM");
            assertEquals(0, server.waitExit(Duration.ofSeconds(30)));
        }
    }
}
