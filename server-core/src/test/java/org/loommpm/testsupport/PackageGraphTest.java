package org.loommpm.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The architecture tests' own test: they fail when a loop or an undocumented edge is added. */
class PackageGraphTest {
    private static final String A = """
            package x.a;
            import x.b.B;
            /** Mentions x.c.C in a comment only. */
            class A { String s = "x.c.C in a string"; B b; }
            """;
    private static final String B = "package x.b;\nclass B { }\n";
    /** A fully-qualified name in code, no import: what an import-only check misses. */
    private static final String C_TO_A = "package x.c;\nclass C { Object o = new x.a.A(); }\n";

    @Test
    void importsAndQualifiedNamesAreEdgesCommentsAndStringsAreNot() {
        PackageGraph g = PackageGraph.of(Map.of("x.a", List.of(A), "x.b", List.of(B), "x.c",
                List.of("package x.c;\nclass C { }\n")), "x.");
        assertEquals(Set.of("b"), g.edges().get("a"));
        assertEquals(Set.of(), g.edges().get("c"));
        assertEquals(List.of(), g.cycles());
    }

    @Test
    void aDeliberatelyAddedLoopFailsTheCheck(@TempDir Path dir) throws Exception {
        Path docs = dir.resolve("architecture.md");
        Files.writeString(docs, """
                ## m packages
                | package | depends on |
                |---|---|
                | `a` | `b`, `c` |
                | `b` | — |
                | `c` | — |
                """);
        String aToC = A.replace("import x.b.B;", "import x.b.B;\nimport x.c.C;");
        PackageGraph fine = PackageGraph.of(Map.of("x.a", List.of(aToC), "x.b", List.of(B), "x.c",
                List.of("package x.c;\nclass C { }\n")), "x.");
        ArchitectureCheck.verify(fine, docs, "m packages");

        PackageGraph loop = PackageGraph.of(Map.of("x.a", List.of(aToC), "x.b", List.of(B), "x.c",
                List.of(C_TO_A)), "x.");
        assertEquals(List.of(new TreeSet<>(Set.of("a", "c"))), loop.cycles());
        AssertionError e = assertThrows(AssertionError.class, () -> ArchitectureCheck.verify(loop, docs, "m packages"));
        assertTrue(e.getMessage().contains("package loops"), e.getMessage());
    }

    @Test
    void anUndocumentedEdgeFailsTheCheck(@TempDir Path dir) throws Exception {
        Path docs = dir.resolve("architecture.md");
        Files.writeString(docs, "## m packages\n| package | depends on |\n|---|---|\n| `a` | — |\n| `b` | — |\n");
        PackageGraph g = PackageGraph.of(Map.of("x.a", List.of(A), "x.b", List.of(B)), "x.");
        AssertionError e = assertThrows(AssertionError.class, () -> ArchitectureCheck.verify(g, docs, "m packages"));
        assertTrue(e.getMessage().contains("| `a` | `b` |"), e.getMessage());
    }

    /** What counts: imports of every kind and qualified names in code; not comments, strings or text blocks. */
    @Test
    void onlyNamesInCodeCount(@TempDir Path dir) throws Exception {
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
        PackageGraph graph = PackageGraph.of(dir, "p.");
        assertEquals(new TreeMap<>(Map.of("a", Set.of("b", "e"), "b", Set.of("c"), "c", Set.of("d"),
                "d", Set.of(), "e", Set.of())), graph.edges());
        assertEquals(List.of(), graph.cycles());

        write(dir, "p/d/D.java", "package p.d;\nclass D {\n    p.a.A a;\n}\n");
        assertEquals(List.of(new TreeSet<>(Set.of("a", "b", "c", "d"))), PackageGraph.of(dir, "p.").cycles());
    }

    private static void write(Path root, String file, String text) throws Exception {
        Path f = root.resolve(file);
        Files.createDirectories(f.getParent());
        Files.writeString(f, text);
    }
}
