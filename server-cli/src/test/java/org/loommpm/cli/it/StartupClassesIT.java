package org.loommpm.cli.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The start-up class list ({@code org/loommpm/cli/startup-classes.txt}, which {@code StartupClasses}
 * loads on a thread of its own) against a training run: the jar with preloading off and a
 * class-load log, the embedded default, one HTTP/1.1 {@code GET /}. The list may differ from the run by a
 * tenth either way (the order of the poller, warm-up and main threads varies); past that, the test
 * fails and names the fresh list it wrote to {@code target/startup-classes.txt}. The same run checks
 * that the start and the first request create no lambda of ours: each would be a class spun at run time, which no list
 * can load ahead.
 */
class StartupClassesIT {
    /** {@code -Xlog:class+load} with no decorations: "NAME source: WHERE". */
    private static final Pattern LOADED = Pattern.compile("^(\\S+) source: (.*)$");
    /** The list starts with the first class loaded after the preloading thread's own. */
    private static final String AFTER = "org.loommpm.cli.StartupClasses";
    private static final String RESOURCE = "org/loommpm/cli/startup-classes.txt";

    @TempDir
    Path dir;

    @Test
    void theListIsWhatAStartLoadsOnceItHasStartedPreloading() throws Exception {
        Path log = dir.resolve("classes.log");
        try (JarProcess server = start(log, false)) {
            List<String> beforeRequest = fromTheJar(log);
            get(server);
            List<String> spun = spunFromTheJar(log);
            stop(server);
            assertEquals(List.of(), spun, "lambdas of the jar's classes created by the start or the first request");
            List<String> fresh = fromTheJar(log);
            List<String> listed = listed();
            writeFresh(fresh);

            List<String> missing = new ArrayList<>(fresh);
            missing.removeAll(listed);
            List<String> stale = new ArrayList<>(listed);
            stale.removeAll(fresh);
            String regenerate = "a training run loaded " + fresh.size() + " classes once it had started preloading; "
                    + "the list has " + listed.size() + ", misses " + missing + " and has no longer loaded " + stale
                    + ". Regenerate: cp server-cli/target/startup-classes.txt server-cli/src/main/resources/" + RESOURCE;
            assertTrue(fresh.size() > 50, "the run loaded too few classes to check: " + fresh);
            assertTrue(missing.size() <= fresh.size() / 10, regenerate);
            assertTrue(stale.size() <= listed.size() / 10, regenerate);
            // Without preloading, the first request's classes load when it arrives.
            assertFalse(beforeRequest.containsAll(listed), "every listed class was loaded before the first request");
        }
    }

    @Test
    void everyListedClassIsInTheJar() throws Exception {
        try (ZipFile jar = new ZipFile(JarProcess.jar().toFile())) {
            List<String> absent = listed().stream()
                    .filter(name -> jar.getEntry(name.replace('.', '/') + ".class") == null).toList();
            assertEquals(List.of(), absent);
        }
    }

    @Test
    void preloadingLoadsTheListBeforeTheFirstRequestArrives() throws Exception {
        Path log = dir.resolve("preloaded.log");
        try (JarProcess server = start(log, true)) {
            List<String> listed = listed();
            long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            List<String> notYet = listed;
            while (!notYet.isEmpty() && System.nanoTime() < end) {
                Thread.sleep(50);
                Set<String> loaded = new LinkedHashSet<>(fromTheJar(log));
                notYet = listed.stream().filter(n -> !loaded.contains(n)).toList();
            }
            assertEquals(List.of(), notYet, "listed classes still not loaded, with no request sent");
            get(server);
            stop(server);
        }
    }

    private JarProcess start(Path log, boolean preload) throws Exception {
        Path runDir = Files.createDirectories(dir.resolve(preload ? "on" : "off"));
        return JarProcess.launch(runDir, List.of(JarProcess.java(), "-Xss1m", "-Dloom.preloadClasses=" + preload,
                "-Xlog:class+load=info:file=" + log + ":none", "-jar", JarProcess.jar().toString(),
                "-C", "Listen 127.0.0.1:0"));
    }

    private static void get(JarProcess server) throws Exception {
        int port = server.port();
        // HTTP/1.1, as curl and browsers ask on cleartext: the JDK client's default, HTTP/2, would
        // send an h2c upgrade and train the list with the HTTP/2 stack's classes.
        try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build()) {
            HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                    + "/")).timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode());
        }
    }

    private static void stop(JarProcess server) throws Exception {
        server.signal("TERM");
        assertEquals(0, server.waitExit(Duration.ofSeconds(20)), server.stderr());
    }

    /** The classes loaded from the jar after {@link #AFTER}, in order, lambdas and hidden classes left out. */
    private static List<String> fromTheJar(Path log) throws IOException {
        Set<String> names = new LinkedHashSet<>();
        boolean started = false;
        for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
            Matcher m = LOADED.matcher(line);
            if (!m.matches() || !m.group(2).endsWith("loom-mpm.jar") || m.group(1).contains("/")
                    || m.group(1).contains("$$Lambda")) {
                continue;
            }
            if (started) {
                names.add(m.group(1));
            }
            started |= m.group(1).equals(AFTER);
        }
        return List.copyOf(names);
    }

    /** The lambda classes spun for the jar's own classes so far ("source: org.loommpm..."). */
    private static List<String> spunFromTheJar(Path log) throws IOException {
        List<String> spun = new ArrayList<>();
        for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
            Matcher m = LOADED.matcher(line);
            if (m.matches() && m.group(1).contains("$$Lambda") && m.group(2).startsWith("org.loommpm.")) {
                spun.add(m.group(1));
            }
        }
        return spun;
    }

    private static List<String> listed() throws IOException {
        try (ZipFile jar = new ZipFile(JarProcess.jar().toFile())) {
            var entry = jar.getEntry(RESOURCE);
            assertTrue(entry != null, "the jar has no " + RESOURCE);
            String text = new String(jar.getInputStream(entry).readAllBytes(), StandardCharsets.US_ASCII);
            return text.lines().filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
        }
    }

    /** The fresh list, with the checked-in list's comment header, where the failure message says. */
    private static void writeFresh(List<String> fresh) throws IOException {
        String header = """
                # The classes from loom-mpm.jar that a start with the embedded default loads once it has
                # started StartupClasses, up to its first answered GET /, in the order they loaded.
                # StartupClasses loads them on a thread of its own, ahead of the main thread reading the
                # configuration and starting the engine. Written by StartupClassesIT (server-cli/target/startup-classes.txt) from a
                # training run with -Dloom.preloadClasses=false; regenerate when that test says so.
                """;
        Files.writeString(Path.of("target/startup-classes.txt"), header + String.join("\n", fresh) + "\n",
                StandardCharsets.US_ASCII);
    }
}
