package org.loommpm.cli.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * loom-mpm on the module path ({@code java --module-path}), as the other ITs run it on the class
 * path (loom-mpm.jar): the server jar as module {@code org.loommpm.cli}, and an application on the
 * class path embedding server-core and server-h2 as modules. Each listens on an ephemeral port of
 * 127.0.0.1, answers one HTTP/1.1 and one h2c request (HTTP/2 found through the module's
 * {@code provides}, not META-INF/services) and is stopped by its PID. The module path is what
 * the build copies to target/modules (every runtime dependency) plus server-cli's own jar.
 */
class ModulePathIT {

    @TempDir
    Path dir;

    private static Path modules() {
        return Path.of(System.getProperty("loom.modules", "target/modules")).toAbsolutePath();
    }

    private static Path moduleJar() {
        return Path.of(System.getProperty("loom.moduleJar", "target/server-cli-0.1.0-SNAPSHOT.jar")).toAbsolutePath();
    }

    @Test
    void serverJarRunsAsModule() throws Exception {
        Files.createDirectories(dir.resolve("htdocs"));
        Files.writeString(dir.resolve("htdocs/index.html"), "hello from the module path\n");
        Files.writeString(dir.resolve("loom.conf"),
                "Listen 127.0.0.1:0\nDocumentRoot htdocs\nProtocols h2c http/1.1\nStartServers 1\nThreadsPerChild 8\n");
        List<String> cmd = List.of(JarProcess.java(), "-Xss1m",
                "--module-path", modules() + File.pathSeparator + moduleJar(),
                "--module", "org.loommpm.cli/org.loommpm.cli.Main", "-f", "loom.conf");
        try (JarProcess server = JarProcess.launch(dir, cmd)) {
            int port = port(server.stdout());
            exchanges(port, "/", "hello from the module path\n");
            stop(server);
            assertTrue(server.stderr().contains("LM0009"), "stopped gracefully: " + server.stderr());
        }
    }

    @Test
    void embeddedApplicationUsesCoreAndH2AsModules() throws Exception {
        Path testClasses = Path.of(ModuleApp.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        // Only server-core is named: server-h2 is resolved because it provides the service core uses.
        List<String> cmd = List.of(JarProcess.java(), "-Xss1m",
                "--module-path", modules().toString(), "--add-modules", "org.loommpm.core",
                "-cp", testClasses.toString(), ModuleApp.class.getName());
        try (JarProcess app = JarProcess.launch(dir, cmd)) {
            String out = app.stdout();
            assertTrue(out.contains("core module: org.loommpm.core"), out);
            assertTrue(out.contains("h2 module: true"), out);
            assertTrue(out.contains("api exported: true"), out);
            assertTrue(out.contains("engine exported: false"), out);
            exchanges(port(out), "/hello", "Hello, modules!");
            stop(app);
        }
    }

    /**
     * An application that depends on server-core alone: its module path is server-core and
     * Helidon's buffers, nothing else. It starts and serves HTTP/1.1 with no Micrometer, WebSocket,
     * proxy or HTTP/2 class anywhere, and that jar set is smaller than the full one by at least
     * the feature modules and Micrometer.
     */
    @Test
    void coreAloneServesWithoutFeatureModules() throws Exception {
        Path testClasses = Path.of(ModuleApp.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<Path> all;
        try (var s = Files.list(modules())) {
            all = s.filter(p -> p.toString().endsWith(".jar")).sorted().toList();
        }
        List<Path> core = all.stream().filter(p -> artifact(p).equals("server-core")
                || artifact(p).startsWith("helidon-common")).toList();
        assertTrue(core.stream().anyMatch(p -> artifact(p).equals("server-core")), all.toString());
        long features = 0;
        for (Path p : all) {
            if (List.of("server-websocket", "server-proxy", "server-observe", "micrometer-core").contains(artifact(p))) {
                features += Files.size(p);
            }
        }
        assertTrue(features > 0, "the full set has the feature modules: " + all);
        long coreSize = 0;
        for (Path p : core) {
            coreSize += Files.size(p);
        }
        long allSize = 0;
        for (Path p : all) {
            allSize += Files.size(p);
        }
        System.out.println("ModulePathIT: core alone " + coreSize + " bytes in " + core.size() + " jars; all "
                + allSize + " bytes in " + all.size() + " jars; feature modules and Micrometer " + features + " bytes");
        assertTrue(coreSize <= allSize - features, "core alone is smaller by at least the features");
        String path = String.join(File.pathSeparator, core.stream().map(Path::toString).toList());
        List<String> cmd = List.of(JarProcess.java(), "-Xss1m",
                "--module-path", path, "--add-modules", "org.loommpm.core",
                "-cp", testClasses.toString(), ModuleApp.class.getName());
        try (JarProcess app = JarProcess.launch(dir, cmd)) {
            String out = app.stdout();
            assertTrue(out.contains("h2 module: false"), out);
            assertTrue(out.contains("micrometer: false"), out);
            assertTrue(out.contains("websocket: false"), out);
            assertTrue(out.contains("proxy: false"), out);
            int port = port(out);
            try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(5)).build()) {
                HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                        + "/hello")).timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(200, r.statusCode());
                assertEquals("Hello, modules!", r.body());
            }
            stop(app);
        }
    }

    /** A jar's artifact name: its file name without the version and {@code .jar}. */
    private static String artifact(Path jar) {
        return jar.getFileName().toString().replaceFirst("(-\\d.*)?\\.jar$", "");
    }

    private static int port(String stdout) {
        int port = JarProcess.listeningPort(stdout);
        System.out.println("ModulePathIT: listening on 127.0.0.1:" + port);
        return port;
    }

    /** One HTTP/1.1 request, then one over h2c (Upgrade: h2c from the JDK's client). */
    private static void exchanges(int port, String path, String body) throws Exception {
        URI uri = URI.create("http://127.0.0.1:" + port + path);
        for (HttpClient.Version v : List.of(HttpClient.Version.HTTP_1_1, HttpClient.Version.HTTP_2)) {
            try (HttpClient client = HttpClient.newBuilder().version(v).connectTimeout(Duration.ofSeconds(5)).build()) {
                HttpResponse<String> r = client.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertEquals(200, r.statusCode(), v + " status");
                assertEquals(body, r.body(), v + " body");
                assertEquals(v, r.version(), "spoken");
            }
        }
    }

    private static void stop(JarProcess p) throws Exception {
        p.signal("TERM");
        p.waitExit(Duration.ofSeconds(20));
    }
}
