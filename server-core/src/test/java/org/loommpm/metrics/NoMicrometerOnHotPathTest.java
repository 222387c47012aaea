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
 * The engine, the shared HTTP layer and HTTP/1.1 must not use Micrometer: their only metrics
 * hook is the {@code ExchangeObserver} (null when metrics are off), so the request path costs
 * nothing more with metrics off and Micrometer stays replaceable.
 */
class NoMicrometerOnHotPathTest {
    @Test
    void engineAndHttpSourcesDoNotMentionMicrometer() throws IOException {
        for (String pkg : List.of("engine", "http", "http1")) {
            Path dir = Path.of("src/main/java/org/loommpm", pkg);
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
    }

    @Test
    void methodsOutsideTheFixedSetAreTaggedOther() {
        assertEquals(0, RequestMetrics.methodIndex("GET"));
        assertEquals(RequestMetrics.methodIndex("OTHER"), RequestMetrics.methodIndex("PROPFIND"));
        assertEquals(RequestMetrics.methodIndex("OTHER"), RequestMetrics.methodIndex("get"), "methods are case-sensitive");
    }
}
