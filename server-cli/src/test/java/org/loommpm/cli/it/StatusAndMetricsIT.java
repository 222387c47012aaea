package org.loommpm.cli.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.testsupport.Curl;

/** {@code SetHandler server-status} and {@code SetHandler metrics} in a configuration file. */
class StatusAndMetricsIT {
    @TempDir
    Path dir;

    @Test
    void statusPageAndPrometheusMetricsAreServedWhereConfigured() throws Exception {
        Path root = Files.createDirectories(dir.resolve("htdocs"));
        Files.writeString(root.resolve("a.txt"), "a");
        Files.writeString(dir.resolve("loom.conf"), """
                Listen 127.0.0.1:0
                DocumentRoot htdocs
                CustomLog /dev/null common
                <Location /server-status>
                    SetHandler server-status
                    Require ip 127.0.0.1 ::1
                </Location>
                <Location /metrics>
                    SetHandler metrics
                    Require ip 127.0.0.1
                </Location>
                <Location /closed>
                    SetHandler metrics
                    Require all denied
                </Location>
                """);
        try (JarProcess server = JarProcess.start(dir, "-f", "loom.conf")) {
            String base = "http://127.0.0.1:" + server.port();
            for (int i = 0; i < 5; i++) {
                assertEquals("a", Curl.exchange(base + "/a.txt").body());
            }
            Curl.Response auto = Curl.exchange(base + "/server-status?auto");
            assertEquals(200, auto.status());
            assertTrue(auto.body().contains("Total Accesses: "), auto.body());
            assertTrue(auto.body().contains("Scoreboard: "), auto.body());
            // The error log's lines per id: the start line, once.
            assertTrue(auto.body().lines().anyMatch(l -> l.startsWith("LoomLogLines: ")
                    && List.of(l.substring(14).split(" ")).contains("LM0001=1")), auto.body());
            Curl.Response html = Curl.exchange(base + "/server-status");
            assertTrue(html.header("Content-Type").startsWith("text/html"), html.header("Content-Type"));
            assertTrue(html.body().contains("<tr><td class=\"l\">LM0001</td><td>1</td></tr>"), html.body());
            Curl.Response prom = Curl.exchange(base + "/metrics");
            assertEquals(200, prom.status());
            assertTrue(prom.header("Content-Type").startsWith("text/plain"), prom.header("Content-Type"));
            assertTrue(prom.body().contains("# TYPE "), prom.body());
            assertTrue(prom.body().lines().anyMatch(l -> l.startsWith("loom_") && !l.startsWith("#")),
                    "engine meters are exported: " + prom.body());
            assertEquals(403, Curl.exchange(base + "/closed").status());
            server.signal("TERM");
            assertEquals(0, server.waitExit(Duration.ofSeconds(30)));
        }
    }
}
