package org.loommpm.image;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The image tar Jib wrote (target/loom-mpm-image.tar), opened as an OCI layout: its config
 * (entrypoint, non-root user, exposed port, volumes, labels) and its layers' contents.
 */
class ImageIT {
    static OciImage image;
    static JsonNode config;

    @BeforeAll
    static void read() throws Exception {
        Path tar = Path.of(System.getProperty("image.tar"));
        image = OciImage.read(tar);
        config = image.config.get("config");
        System.out.printf("image %s: %,d bytes as a tar; layers %s compressed, %s uncompressed%n", tar.getFileName(),
                Files.size(tar), image.layerSizes, image.layerContentSizes);
    }

    @Test
    void entrypointRunsTheJarOnTheImagesRuntime() {
        List<String> entrypoint = new ArrayList<>();
        config.get("Entrypoint").forEach(n -> entrypoint.add(n.asText()));
        assertEquals("/opt/java/bin/java", entrypoint.get(0));
        assertTrue(entrypoint.contains("-XX:+ExitOnOutOfMemoryError"), "out of memory ends the process: " + entrypoint);
        int jar = entrypoint.indexOf("-jar");
        assertEquals("/app/loom-mpm.jar", entrypoint.get(jar + 1));
        int f = entrypoint.indexOf("-f");
        assertEquals("/etc/loom-mpm/loom-mpm.conf", entrypoint.get(f + 1));
        assertEquals("DocumentRoot /srv/loom-mpm/htdocs", entrypoint.get(entrypoint.indexOf("-C") + 1));
        assertEquals("amd64", image.config.get("architecture").asText());
        assertEquals("linux", image.config.get("os").asText());
    }

    @Test
    void runsAsTheNonRootAccountTheImageDeclares() throws Exception {
        assertEquals("65532:65532", config.get("User").asText());
        String passwd = new String(image.file("etc/passwd"), StandardCharsets.UTF_8);
        assertTrue(passwd.lines().anyMatch(l -> l.startsWith("loom:x:65532:65532:")), passwd);
        assertTrue(new String(image.file("etc/group"), StandardCharsets.UTF_8).contains("loom:x:65532:"));
    }

    @Test
    void exposesHttpAndDeclaresTheVolumes() {
        assertTrue(config.get("ExposedPorts").has("8080/tcp"), config.toString());
        assertTrue(config.get("Volumes").has("/etc/loom-mpm"), config.toString());
        assertTrue(config.get("Volumes").has("/srv/loom-mpm/htdocs"), config.toString());
        assertEquals("/srv/loom-mpm", config.get("WorkingDir").asText());
    }

    @Test
    void labelsNameTheVersion() {
        JsonNode labels = config.get("Labels");
        assertEquals(System.getProperty("image.version"), labels.get("org.opencontainers.image.version").asText());
        assertEquals("loom-mpm", labels.get("org.opencontainers.image.title").asText());
        assertEquals("Apache-2.0", labels.get("org.opencontainers.image.licenses").asText());
        assertTrue(labels.get("org.opencontainers.image.source").asText().startsWith("https://"));
        assertEquals("loom-mpm:" + System.getProperty("image.version"), image.index.get("manifests").get(0)
                .get("annotations").get("org.opencontainers.image.ref.name").asText());
    }

    @Test
    void layersHoldTheRuntimeTheLibrariesAndTheApplication() throws Exception {
        OciImage.Entry java = image.entry("opt/java/bin/java");
        assertNotNull(java, "the runtime's launcher");
        assertEquals(0755, java.mode());
        assertEquals(0755, image.entry("opt/java/lib/jspawnhelper").mode(), "child processes need it");
        assertNotNull(image.entry("opt/java/lib/server/libjvm.so"));
        // The JDK's default CDS archive (jlink --generate-cds-archive); the JVM does not check the
        // modules file's time stamp against it, so Jib's fixed file times leave it usable.
        assertNotNull(image.entry("opt/java/lib/server/classes.jsa"));
        String release = new String(image.file("opt/java/release"), StandardCharsets.UTF_8);
        assertTrue(release.contains("java.logging") && release.contains("java.management"), release);
        assertFalse(release.contains("java.desktop"), "a jlink'ed runtime, not a whole JDK: " + release);
        // The C library the launcher and libjvm need, where the dynamic linker looks for it.
        OciImage.Entry loader = image.entry("lib64/ld-linux-x86-64.so.2");
        assertNotNull(loader);
        assertEquals(0755, loader.mode(), "the kernel execs the dynamic linker: it must be executable");
        assertNotNull(image.entry("lib/x86_64-linux-gnu/libc.so.6"));
        // The application layer: the jar, the configuration directory, the docroot.
        byte[] jar = image.file("app/loom-mpm.jar");
        assertEquals(Files.size(Path.of(System.getProperty("loom.jar"))), jar.length);
        String conf = new String(image.file("etc/loom-mpm/loom-mpm.conf"), StandardCharsets.UTF_8);
        assertTrue(conf.contains("Listen 8080"), conf);
        assertTrue(image.entry("etc/loom-mpm/conf.d").directory());
        assertNotNull(image.entry("srv/loom-mpm/htdocs/index.html"));
        assertEquals(0777, image.entry("tmp").mode() & 0777, "the JVM's temporary files, as a non-root user");
        // Everything is owned by root: the account the server runs as can read but not change it.
        for (var layer : image.layers) {
            for (OciImage.Entry e : layer.values()) {
                assertEquals(0, e.uid(), e.path());
            }
        }
    }
}
