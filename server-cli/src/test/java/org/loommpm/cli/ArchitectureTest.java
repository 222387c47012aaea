package org.loommpm.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The jar's package layering: no cycle between its packages, and the graph the sources make is
 * the table of docs/architecture.md's "server-cli packages" (so a new dependency is a decision
 * written down, not an accident).
 */
class ArchitectureTest {
    private static final Path SOURCES = Path.of("src", "main", "java");
    private static final Path DOC = Path.of("..", "docs", "architecture.md");
    private static final String PREFIX = "org.loommpm.cli";
    private static final String HEADING = "server-cli packages";

    @Test
    void noPackageCycle() throws IOException {
        assertEquals(List.of(), PackageGraph.of(SOURCES, PREFIX).cycles(),
                "packages that depend on each other; a feature package must not import cli.config");
    }

    @Test
    void theGraphIsTheTableOfArchitectureMd() throws IOException {
        assertEquals(PackageGraph.readTable(DOC, HEADING), PackageGraph.of(SOURCES, PREFIX).edges(),
                "docs/architecture.md's '" + HEADING + "' (expected) against the sources (actual)");
    }

    @Test
    void oneImportFromAFeatureIntoConfigClosesALoopTheTestReports(@TempDir Path dir) throws IOException {
        copy(SOURCES, dir);
        Path feature = dir.resolve("org/loommpm/cli/location/LocationPath.java");
        Files.writeString(feature, Files.readString(feature).replaceFirst(
                "package org.loommpm.cli.location;\n", "$0\nimport org.loommpm.cli.config.LoomConfig;\n"));
        List<SortedSet<String>> cycles = PackageGraph.of(dir, PREFIX).cycles();
        assertEquals(1, cycles.size(), cycles.toString());
        assertTrue(cycles.get(0).containsAll(Set.of(PREFIX + ".config", PREFIX + ".location")), cycles.toString());
    }

    /** What counts: imports of every kind and qualified names in code; not comments, strings or other prefixes. */
    @Test
    void onlyNamesInCodeCount(@TempDir Path dir) throws IOException {
        write(dir, "p/a/A.java", """
                package p.a;
                import p.b.B;
                /** Not {@link p.c.C}. */
                class A {
                    String s = "p.d.D \\" p.d.D";
                    char q = '"';
                    p.e.E e;
                }
                """);
        write(dir, "p/b/B.java", "package p.b;\nimport static p.c.C.X;\nclass B {\n}\n");
        write(dir, "p/c/C.java", """
                package p.c;
                import p.d.*;
                class C {
                    static final int X = 1;
                    String t = \"""
                            p.a.A \\\""" p.a.A
                            \""";
                }
                """);
        write(dir, "p/d/D.java", "package p.d;\nclass D { // p.a.A\n}\n");
        write(dir, "p/e/E.java", "package p.e;\n/* import p.a.A; */\nclass E {\n}\n");
        write(dir, "q/Q.java", "package q;\nimport p.a.A;\nclass Q {\n}\n");
        write(dir, "module-info.java", "module m {\n}\n");
        PackageGraph graph = PackageGraph.of(dir, "p");
        assertEquals(new TreeMap<>(Map.of("p.a", Set.of("p.b", "p.e"), "p.b", Set.of("p.c"), "p.c", Set.of("p.d"),
                "p.d", Set.of(), "p.e", Set.of())), graph.edges());
        assertEquals(List.of(), graph.cycles());

        write(dir, "p/d/D.java", "package p.d;\nclass D {\n    p.a.A a;\n}\n");
        assertEquals(List.of(new TreeSet<>(Set.of("p.a", "p.b", "p.c", "p.d"))), PackageGraph.of(dir, "p").cycles());
    }

    private static void write(Path root, String file, String text) throws IOException {
        Path f = root.resolve(file);
        Files.createDirectories(f.getParent());
        Files.writeString(f, text);
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
