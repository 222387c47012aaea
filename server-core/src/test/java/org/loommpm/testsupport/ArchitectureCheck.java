package org.loommpm.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The architecture test of a module: its package graph ({@link PackageGraph}) has no loop and is
 * exactly the table under the module's heading in docs/architecture.md, so a new dependency
 * between packages is a decision written down, not an accident.
 */
public final class ArchitectureCheck {
    private ArchitectureCheck() {
    }

    /**
     * Run from a module's folder (Surefire's working directory).
     *
     * @param heading the heading of the module's table in docs/architecture.md
     */
    public static void verifyModule(String heading) {
        Path docs = Path.of("..", "docs", "architecture.md");
        if (!Files.exists(docs)) {
            throw new IllegalStateException("run from a module folder: no " + docs.toAbsolutePath());
        }
        verify(PackageGraph.of(Path.of("src", "main", "java"), "org.loommpm."), docs, heading);
    }

    /**
     * @param graph the module's graph
     * @param docs docs/architecture.md
     * @param heading the heading of the module's table
     */
    public static void verify(PackageGraph graph, Path docs, String heading) {
        assertEquals(List.of(), graph.cycles(), "package loops; the graph is:\n" + graph.toTable());
        assertEquals(PackageGraph.readTable(docs, heading), graph.edges(),
                "the package graph differs from docs/architecture.md, '" + heading + "'; it is now:\n"
                        + graph.toTable());
    }
}
