package org.loommpm.jackson;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.loommpm.json.JsonCodec;
import org.loommpm.jackson.modulepath.ModuleApp;

/**
 * loom-mpm-jackson as a named module: a JVM with server-core, this module and Jackson on its
 * module path (only {@code org.loommpm.core} named; {@code org.loommpm.jackson} is resolved by
 * service binding because it {@code provides} the {@code JsonCodec} the core {@code uses}) finds
 * the codec through the module's {@code provides}, not META-INF/services, and reads and writes a
 * record of an application on the class path ({@link ModuleApp}, in a package of its own: the
 * module's package cannot also be on the class path).
 */
class ModulePathTest {
    @Test
    void theCodecIsFoundThroughTheModulesProvides() throws Exception {
        // Helidon's buffers by name: this module does not read it (only server-core does).
        String modulePath = Stream.of(JsonCodec.class, JacksonCodec.class, ObjectMapper.class, JsonParser.class,
                        JsonProperty.class, Class.forName("io.helidon.common.buffers.Bytes"))
                .map(c -> location(c).toString()).distinct().collect(Collectors.joining(File.pathSeparator));
        Path testClasses = location(ModuleApp.class);
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--module-path", modulePath, "--add-modules", "org.loommpm.core",
                "-cp", testClasses.toString(), ModuleApp.class.getName())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.lines().toList().containsAll(List.of("codec module: org.loommpm.jackson",
                "core module: org.loommpm.core", "round trip: {\"x\":1,\"y\":2}")), out);
    }

    private static Path location(Class<?> c) {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
