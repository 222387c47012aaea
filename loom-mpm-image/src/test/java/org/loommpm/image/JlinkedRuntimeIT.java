package org.loommpm.image;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The image's runtime (target/rootfs/opt/java, the jlink'ed base layer) runs loom-mpm.jar: the
 * module list is enough to report the version and to serve a request (status page included,
 * which uses java.management). Run on the build machine, outside a container.
 */
class JlinkedRuntimeIT {
    static final Path JAVA = Path.of(System.getProperty("image.rootfs"), "opt", "java", "bin", "java");
    static final String JAR = System.getProperty("loom.jar");

    @TempDir
    Path dir;

    @Test
    void reportsTheVersion() throws Exception {
        Process p = new ProcessBuilder(JAVA.toString(), "-jar", JAR, "-v").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.startsWith("loom-mpm " + System.getProperty("image.version") + " "), out);
    }

    /**
     * The runtime carries the JDK's default CDS archive (jlink {@code --generate-cds-archive}):
     * without it every start loads the JDK's classes one by one. {@code -Xshare:on} fails the
     * start when the archive cannot be mapped.
     */
    @Test
    void startsWithTheDefaultCdsArchive() throws Exception {
        assertTrue(Files.isRegularFile(JAVA.getParent().getParent().resolve("lib/server/classes.jsa")));
        Process p = new ProcessBuilder(JAVA.toString(), "-Xshare:on", "-jar", JAR, "-v").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.startsWith("loom-mpm "), out);
    }

    @Test
    void servesFilesAndTheStatusPage() throws Exception {
        Path docroot = Files.createDirectories(dir.resolve("htdocs"));
        Files.writeString(docroot.resolve("index.html"), "from the jlinked runtime");
        Path conf = dir.resolve("loom-mpm.conf");
        Files.writeString(conf, """
                Listen 127.0.0.1:0
                DocumentRoot %s
                ErrorLog /dev/stderr
                <Location /server-status>
                    SetHandler server-status
                </Location>
                """.formatted(docroot));
        Process p = new ProcessBuilder(JAVA.toString(), "-jar", JAR, "-f", conf.toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("out.log").toFile()).start();
        try (HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build()) {
            URI base = URI.create("http://127.0.0.1:" + listeningPort(p, dir.resolve("out.log")) + "/");
            HttpResponse<String> index = client.send(HttpRequest.newBuilder(base).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, index.statusCode());
            assertEquals("from the jlinked runtime", index.body());
            HttpResponse<String> status = client.send(HttpRequest.newBuilder(base.resolve("/server-status?auto")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, status.statusCode(), status.body());
        } finally {
            p.destroy(); // SIGTERM: a graceful stop
            assertTrue(p.waitFor(60, TimeUnit.SECONDS), Files.readString(dir.resolve("out.log")));
        }
    }

    /** The port the server says it listens on (bounded: 30 s to start). */
    private static int listeningPort(Process p, Path out) throws Exception {
        Pattern listening = Pattern.compile("listening on http://127\\.0\\.0\\.1:(\\d+)/");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            String said = Files.readString(out, StandardCharsets.UTF_8);
            Matcher m = listening.matcher(said);
            if (m.find()) {
                return Integer.parseInt(m.group(1));
            }
            if (!p.isAlive() || System.nanoTime() > deadline) {
                throw new AssertionError("the server did not say it listens; it said:\n" + said);
            }
            Thread.sleep(100);
        }
    }
}
