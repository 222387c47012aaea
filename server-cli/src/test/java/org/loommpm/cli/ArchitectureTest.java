package org.loommpm.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.SortedSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.testsupport.ArchitectureCheck;
import org.loommpm.testsupport.PackageGraph;

/**
 * The jar's package layering: no cycle between its packages, and the graph the sources make is
 * the table of docs/architecture.md's "server-cli packages" (so a new dependency is a decision
 * written down, not an accident).
 */
class ArchitectureTest {
    private static final Path SOURCES = Path.of("src", "main", "java");

    @Test
    void packageGraphIsAcyclicAndDocumented() {
        ArchitectureCheck.verifyModule("server-cli packages");
    }

    @Test
    void oneImportFromAFeatureIntoConfigClosesALoopTheTestReports(@TempDir Path dir) throws IOException {
        copy(SOURCES, dir);
        Path feature = dir.resolve("org/loommpm/cli/location/LocationPath.java");
        Files.writeString(feature, Files.readString(feature).replaceFirst(
                "package org.loommpm.cli.location;\n", "$0\nimport org.loommpm.cli.config.LoomConfig;\n"));
        List<SortedSet<String>> cycles = PackageGraph.of(dir, "org.loommpm.").cycles();
        assertEquals(1, cycles.size(), cycles.toString());
        assertTrue(cycles.get(0).containsAll(Set.of("cli.config", "cli.location")), cycles.toString());
    }

    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path f : files.filter(Files::isRegularFile).toList()) {
                Path target = to.resolve(from.relativize(f).toString());
                Files.createDirectories(target.getParent());
                Files.copy(f, target);
            }
        }
    }
}
