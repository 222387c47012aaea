package org.loommpm.release;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * What {@code ./mvnw -Prelease verify} leaves for Maven Central, module by module: the jar with
 * its Implementation-Version, a sources jar and a javadoc jar; the POM that is installed and
 * deployed (flatten's .flattened-pom.xml) with the version resolved and the metadata Central
 * requires (in the module's POM or inherited from the parent's, which is published too); the
 * BOM; and the version that {@code loom-mpm.jar -v} reports.
 */
class ReleaseArtifactsIT {
    static final Path ROOT = Path.of(System.getProperty("release.root"));
    static final String VERSION = System.getProperty("release.version");

    @ParameterizedTest
    @ValueSource(strings = {"server-core", "server-websocket", "server-proxy", "server-observe", "server-compress", "server-auth",
        "server-h2", "loom-mpm-jackson", "server-cli", "loom-mpm-testing"})
    void everyPublishedModuleHasItsJarsAndAResolvedPom(String module) throws Exception {
        Path target = ROOT.resolve(module).resolve("target");
        try (JarFile jar = new JarFile(target.resolve(module + "-" + VERSION + ".jar").toFile())) {
            assertEquals(VERSION, jar.getManifest().getMainAttributes().getValue("Implementation-Version"));
            assertNotNull(jar.getEntry("module-info.class"), "a named module");
        }
        try (JarFile sources = new JarFile(target.resolve(module + "-" + VERSION + "-sources.jar").toFile())) {
            assertNotNull(sources.getEntry("module-info.java"));
            assertTrue(sources.stream().anyMatch(e -> e.getName().endsWith(".java") && !e.getName().equals("module-info.java")));
        }
        try (JarFile javadoc = new JarFile(target.resolve(module + "-" + VERSION + "-javadoc.jar").toFile())) {
            assertNotNull(javadoc.getEntry("index.html"));
        }
        Element pom = pom(ROOT.resolve(module));
        assertEquals(module, text(pom, "artifactId"));
        assertEquals(VERSION, text(child(pom, "parent"), "version"), "the parent's version, resolved");
        assertFalse(text(pom, "name").isBlank());
        assertFalse(text(pom, "description").isBlank());
        assertFalse(Files.readString(ROOT.resolve(module).resolve(".flattened-pom.xml")).contains("${revision}"));
    }

    @Test
    void theParentPomCarriesWhatCentralRequires() throws Exception {
        Element parent = pom(ROOT);
        assertEquals(VERSION, text(parent, "version"));
        assertCentralMetadata(parent);
    }

    @Test
    void theJavadocIsThePublicApiOnly() throws Exception {
        Path javadoc = ROOT.resolve("server-core/target/server-core-" + VERSION + "-javadoc.jar");
        try (JarFile jar = new JarFile(javadoc.toFile())) {
            assertTrue(jar.stream().anyMatch(e -> e.getName().endsWith("org/loommpm/server/LoomServer.html")));
            assertTrue(jar.stream().anyMatch(e -> e.getName().endsWith("org/loommpm/config/ServerConfig.html")));
            assertFalse(jar.stream().anyMatch(e -> e.getName().contains("org/loommpm/engine/")),
                    "engine is exported only to loom-mpm's own modules");
        }
        try (JarFile jar = new JarFile(ROOT.resolve("loom-mpm-testing/target/loom-mpm-testing-" + VERSION
                + "-javadoc.jar").toFile())) {
            assertTrue(jar.stream().anyMatch(e -> e.getName().endsWith("org/loommpm/testing/LoomServerTest.html")));
        }
    }

    @Test
    void theBomPinsEveryPublishedModuleAndNothingElse() throws Exception {
        Path flattened = ROOT.resolve("loom-mpm-bom/.flattened-pom.xml");
        Element bom = pom(ROOT.resolve("loom-mpm-bom"));
        assertEquals(VERSION, text(bom, "version"));
        assertEquals("pom", text(bom, "packaging"));
        assertTrue(bom.getElementsByTagName("parent").getLength() == 0, "importing it must not need the parent");
        assertCentralMetadata(bom);
        var deps = child(child(bom, "dependencyManagement"), "dependencies").getElementsByTagName("dependency");
        List<String> pinned = new java.util.ArrayList<>();
        for (int i = 0; i < deps.getLength(); i++) {
            Element d = (Element) deps.item(i);
            assertEquals("org.loommpm", text(d, "groupId"));
            String v = text(d, "version");
            assertTrue(v.equals(VERSION) || v.equals("${revision}"), v);
            pinned.add(text(d, "artifactId"));
        }
        assertEquals(List.of("server-core", "server-websocket", "server-proxy", "server-observe", "server-compress", "server-auth",
                "server-h2", "loom-mpm-jackson", "server-cli", "loom-mpm-testing"), pinned);
        if (Files.readString(flattened).contains("${revision}")) {
            // Flatten's bom mode keeps the versions as written, with the property beside them.
            assertEquals(VERSION, text(child(bom, "properties"), "revision"));
        }
    }

    @Test
    void benchmarksAreNotPublished() throws Exception {
        String pom = Files.readString(ROOT.resolve("benchmarks/pom.xml"));
        assertTrue(pom.contains("<maven.deploy.skip>true</maven.deploy.skip>"));
    }

    @Test
    void theFatJarReportsTheVersion() throws Exception {
        Path jar = ROOT.resolve("server-cli/target/loom-mpm.jar");
        Process p = new ProcessBuilder(System.getProperty("release.java"), "-jar", jar.toString(), "-v")
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.startsWith("loom-mpm " + VERSION + " (Java "), out);
    }

    private static void assertCentralMetadata(Element pom) {
        assertFalse(text(pom, "name").isBlank());
        assertFalse(text(pom, "description").isBlank());
        assertTrue(text(pom, "url").startsWith("https://"), text(pom, "url"));
        assertFalse(text(child(child(pom, "licenses"), "license"), "name").isBlank());
        assertFalse(text(child(child(pom, "developers"), "developer"), "name").isBlank());
        Element scm = child(pom, "scm");
        assertTrue(text(scm, "connection").startsWith("scm:git:"));
        assertTrue(text(scm, "url").startsWith("https://"));
    }

    private static Element pom(Path moduleDir) throws Exception {
        Path flattened = moduleDir.resolve(".flattened-pom.xml");
        if (!Files.exists(flattened)) {
            throw new IOException("no " + flattened + ": flatten-maven-plugin did not run");
        }
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(flattened.toFile());
        return doc.getDocumentElement();
    }

    /** The direct child element of that name (POMs nest the same names at several depths). */
    private static Element child(Element parent, String name) {
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().equals(name)) {
                return e;
            }
        }
        throw new AssertionError("no <" + name + "> in <" + parent.getTagName() + ">");
    }

    private static String text(Element parent, String name) {
        return child(parent, name).getTextContent().trim();
    }
}
