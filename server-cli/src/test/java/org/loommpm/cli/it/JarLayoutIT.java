package org.loommpm.cli.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.file.Files;
import java.util.List;
import java.util.jar.JarInputStream;
import java.util.jar.Manifest;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;

/**
 * The shipped jar as the build's {@code store-jar} step leaves it: every entry stored, not
 * deflated (the class loader then reads classes without inflating them: a faster start, see
 * docs/benchmarks/log/2026-11-28.md, "Start-up: a stored jar"), and the manifest where a
 * streaming reader finds it.
 */
class JarLayoutIT {
    @Test
    void everyEntryIsStored() throws Exception {
        try (ZipFile jar = new ZipFile(JarProcess.jar().toFile())) {
            List<String> deflated = jar.stream().filter(e -> e.getMethod() != ZipEntry.STORED)
                    .map(ZipEntry::getName).limit(5).toList();
            assertEquals(List.of(), deflated, "entries still deflated");
            assertTrue(jar.size() > 100, "the shaded jar, not an empty one: " + jar.size() + " entries");
        }
    }

    @Test
    void theManifestComesFirstAndNamesTheMainClass() throws Exception {
        try (InputStream in = Files.newInputStream(JarProcess.jar());
             JarInputStream jar = new JarInputStream(in)) {
            Manifest m = jar.getManifest();
            assertNotNull(m, "JarInputStream finds the manifest only among the first entries");
            assertEquals("org.loommpm.cli.Main", m.getMainAttributes().getValue("Main-Class"));
        }
    }
}
