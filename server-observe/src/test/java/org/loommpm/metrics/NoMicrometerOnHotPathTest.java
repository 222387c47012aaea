package org.loommpm.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * server-core (the engine, the HTTP layers, the API) must not use Micrometer: its only metrics
 * hook is the {@code ExchangeObserver} (null when metrics are off), so the request path costs
 * nothing more with metrics off, Micrometer stays replaceable, and an embedder without
 * server-observe has none of it. server-core's pom does not even have it; this guards the source.
 */
class NoMicrometerOnHotPathTest {
    @Test
    void serverCoreSourcesDoNotMentionMicrometer() throws IOException {
        Path dir = Path.of("../server-core/src/main/java");
        assertTrue(Files.isDirectory(dir), dir + " (tests run from the module directory)");
        try (Stream<Path> files = Files.walk(dir)) {
            List<Path> offenders = files.filter(Files::isRegularFile).filter(f -> {
                try {
                    return Files.readString(f).contains("io.micrometer");
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            }).toList();
            assertEquals(List.of(), offenders);
        }
    }

    @Test
    void methodsOutsideTheFixedSetAreTaggedOther() {
        assertEquals(0, RequestMetrics.methodIndex("GET"));
        assertEquals(RequestMetrics.methodIndex("OTHER"), RequestMetrics.methodIndex("PROPFIND"));
        assertEquals(RequestMetrics.methodIndex("OTHER"), RequestMetrics.methodIndex("get"), "methods are case-sensitive");
    }
}
