package org.loommpm.cli.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code server-cli/bin/aot-cache.sh}, the opt-in start-up cache: a training run of the jar
 * writes the cache, and the jar then starts with it under the JVM's strict mode, in which a cache
 * it cannot use fails the start instead of being ignored ({@code -XX:AOTMode=on} for the AOT
 * cache of JDK 25+, {@code -Xshare:on} for the AppCDS archive of JDK 21-24). Skipped where
 * {@code curl} (the script's training client) is missing.
 */
class AotCacheIT {

    @TempDir
    Path dir;

    @Test
    void trainingRunWritesACacheTheServerStartsWith() throws Exception {
        assumeTrue(onPath("curl"), "curl is not installed");
        Path script = Path.of("bin/aot-cache.sh").toAbsolutePath();
        Path cache = dir.resolve("cache/loom-mpm.aot");
        ProcessBuilder pb = new ProcessBuilder("bash", script.toString(), cache.toString(), JarProcess.jar().toString(),
                "-C", "Listen 127.0.0.1:0").directory(dir.toFile());
        pb.environment().put("JAVA", JarProcess.java());
        pb.environment().put("JAVA_OPTS", "-Xss1m");
        pb.environment().put("TRAIN_REQUESTS", "20");
        pb.redirectError(dir.resolve("aot-cache.err").toFile());
        Process p = pb.start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "aot-cache.sh did not finish");
        String err = Files.readString(dir.resolve("aot-cache.err"));
        assertEquals(0, p.exitValue(), "aot-cache.sh: " + err);
        assertTrue(Files.size(cache) > 0, "no cache written: " + err);
        boolean aot = Runtime.version().feature() >= 25;
        assertEquals((aot ? "-XX:AOTCache=" : "-XX:SharedArchiveFile=") + cache, out, err);

        List<String> cmd = new ArrayList<>(List.of(JarProcess.java(), "-Xss1m", out, aot ? "-XX:AOTMode=on" : "-Xshare:on",
                "-jar", JarProcess.jar().toString(), "-C", "Listen 127.0.0.1:0"));
        Path runDir = Files.createDirectories(dir.resolve("run"));
        try (JarProcess server = JarProcess.launch(runDir, cmd)) {
            int port = server.port();
            try (HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build()) {
                HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                        + "/")).timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(200, r.statusCode());
                assertTrue(r.body().contains("loom-mpm is running"), r.body());
            }
            server.signal("TERM");
            assertEquals(0, server.waitExit(Duration.ofSeconds(20)), server.stderr());
        }
    }

    private static boolean onPath(String tool) {
        String path = System.getenv("PATH");
        if (path == null) {
            return false;
        }
        for (String d : path.split(java.io.File.pathSeparator)) {
            if (Files.isExecutable(Path.of(d, tool))) {
                return true;
            }
        }
        return false;
    }
}
