package org.loommpm.compress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Brotli's gzip fallback (LM2220, issue #19), on the real failure path: a JVM whose class path
 * holds brotli4j but not its native artifact, so {@code Brotli4jLoader} finds no library to load
 * and throws. The server must still answer a {@code br}-preferring client, with gzip, and say
 * why once. (In this build's own JVM the native part always loads, so the fallback is only
 * reachable in another process.)
 */
class BrotliFallbackTest {
    @Test
    void withoutTheNativeLibraryBrFallsBackToGzipAndLm2220SaysWhy() throws Exception {
        List<String> kept = new ArrayList<>();
        boolean removed = false;
        boolean brotli4j = false;
        for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
            String name = Path.of(e).getFileName().toString();
            if (name.startsWith("native-linux-") || name.startsWith("native-osx-") || name.startsWith("native-windows-")) {
                removed = true;
                continue;
            }
            brotli4j |= name.startsWith("brotli4j-");
            kept.add(e);
        }
        assertTrue(removed, "the test class path has brotli4j's native artifact (else this proves nothing)");
        assertTrue(brotli4j, "brotli4j itself stays on the class path: the native load is what fails");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-cp", String.join(File.pathSeparator, kept),
                "--enable-native-access=ALL-UNNAMED", BrotliFallbackMain.class.getName())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the child ended");
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains("brotli=false"), out);
        assertTrue(out.contains("encoding=gzip"), out);
        assertTrue(out.contains("body=true"), out);
        assertTrue(out.contains("LM2220 brotli is not available"), out);
        assertEquals(1, out.split("LM2220", -1).length - 1, "said once: " + out);
    }
}
