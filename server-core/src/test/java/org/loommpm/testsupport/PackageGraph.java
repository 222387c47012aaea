package org.loommpm.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The package graph of one source tree, as the architecture tests check it: an edge from package
 * A to package B when a file of A names a type of B, by an import or by a fully-qualified name in
 * code (comments and string literals do not count; javadoc links are comments). The nodes are the
 * tree's packages; an edge may also go to a package of another module under the same prefix (what
 * the module uses of the core), which can close no loop (Maven keeps modules acyclic). Names are
 * shown relative to the prefix ({@code org.loommpm.}).
 */
public final class PackageGraph {
    private static final Pattern PACKAGE = Pattern.compile("^package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);
    /** A qualified type name: lower-case segments, then an upper-case one. */
    private static final Pattern QUALIFIED = Pattern.compile("\\b([a-z][\\w]*(?:\\.[a-z][\\w]*)+)\\.[A-Z]");
    private static final Pattern STAR_IMPORT = Pattern.compile("^import\\s+([\\w.]+)\\.\\*\\s*;", Pattern.MULTILINE);
    private static final Pattern TABLE_ROW = Pattern.compile("^\\|\\s*`?([\\w.]+)`?\\s*\\|(.*)\\|\\s*$");

    private final String prefix;
    private final SortedMap<String, SortedSet<String>> edges;

    private PackageGraph(String prefix, SortedMap<String, SortedSet<String>> edges) {
        this.prefix = prefix;
        this.edges = edges;
    }

    /**
     * Reads every {@code .java} file under {@code sourceRoot} whose package starts with
     * {@code prefix} (module-info and other packages are not nodes).
     *
     * @param sourceRoot a {@code src/main/java} folder
     * @param prefix the packages' common prefix, left out of the names ({@code org.loommpm.})
     * @return the graph
     */
    public static PackageGraph of(Path sourceRoot, String prefix) {
        Map<String, List<String>> sources = new HashMap<>();
        try (Stream<Path> files = Files.walk(sourceRoot)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                if (f.getFileName().toString().equals("module-info.java")) {
                    continue;
                }
                String text = Files.readString(f);
                Matcher m = PACKAGE.matcher(text);
                if (m.find() && m.group(1).startsWith(prefix)) {
                    sources.computeIfAbsent(m.group(1), k -> new ArrayList<>()).add(text);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return of(sources, prefix);
    }

    /**
     * The graph of sources given in memory (the test of the test).
     *
     * @param sources each package's file texts
     * @param prefix the packages' common prefix, left out of the names
     * @return the graph
     */
    public static PackageGraph of(Map<String, List<String>> sources, String prefix) {
        SortedMap<String, SortedSet<String>> edges = new TreeMap<>();
        for (String p : sources.keySet()) {
            edges.put(shortName(p, prefix), new TreeSet<>());
        }
        for (Map.Entry<String, List<String>> e : sources.entrySet()) {
            SortedSet<String> to = edges.get(shortName(e.getKey(), prefix));
            for (String text : e.getValue()) {
                String code = stripCommentsAndStrings(text);
                for (Pattern p : List.of(QUALIFIED, STAR_IMPORT)) {
                    Matcher m = p.matcher(code);
                    while (m.find()) {
                        String target = m.group(1);
                        if (!target.equals(e.getKey()) && (sources.containsKey(target) || target.startsWith(prefix))) {
                            to.add(shortName(target, prefix));
                        }
                    }
                }
            }
        }
        return new PackageGraph(prefix, edges);
    }

    private static String shortName(String pkg, String prefix) {
        return pkg.startsWith(prefix) ? pkg.substring(prefix.length()) : pkg;
    }

    /** The code of a Java file with comments, string, text-block and char literals blanked. */
    static String stripCommentsAndStrings(String s) {
        StringBuilder out = new StringBuilder(s.length());
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == '/' && i + 1 < s.length() && s.charAt(i + 1) == '/') {
                while (i < s.length() && s.charAt(i) != '\n') {
                    i++;
                }
            } else if (c == '/' && i + 1 < s.length() && s.charAt(i + 1) == '*') {
                int end = s.indexOf("*/", i + 2);
                i = end < 0 ? s.length() : end + 2;
                out.append(' ');
            } else if (s.startsWith("\"\"\"", i)) {
                i += 3;
                while (i < s.length() && !s.startsWith("\"\"\"", i)) {
                    i += s.charAt(i) == '\\' ? 2 : 1;
                }
                i += 3;
                out.append("\"\"");
            } else if (c == '"' || c == '\'') {
                i++;
                while (i < s.length() && s.charAt(i) != c) {
                    i += s.charAt(i) == '\\' ? 2 : 1;
                }
                i++;
                out.append(c).append(c);
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    /** @return each package (short name) and the packages it depends on, sorted */
    public SortedMap<String, SortedSet<String>> edges() {
        return Collections.unmodifiableSortedMap(edges);
    }

    /** @return the strongly connected components of more than one package: every loop, sorted */
    public List<SortedSet<String>> cycles() {
        List<SortedSet<String>> found = new ArrayList<>();
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        for (String v : edges.keySet()) {
            if (!index.containsKey(v)) {
                strongConnect(v, index, low, stack, found);
            }
        }
        return found;
    }

    /** Tarjan's algorithm, recursive: package graphs are a few dozen nodes deep at most. */
    private void strongConnect(String v, Map<String, Integer> index, Map<String, Integer> low, Deque<String> stack,
                               List<SortedSet<String>> found) {
        index.put(v, index.size());
        low.put(v, index.get(v));
        stack.push(v);
        for (String w : edges.getOrDefault(v, Collections.emptySortedSet())) {
            if (!index.containsKey(w)) {
                strongConnect(w, index, low, stack, found);
                low.put(v, Math.min(low.get(v), low.get(w)));
            } else if (stack.contains(w)) {
                low.put(v, Math.min(low.get(v), index.get(w)));
            }
        }
        if (low.get(v).equals(index.get(v))) {
            SortedSet<String> component = new TreeSet<>();
            String w;
            do {
                w = stack.pop();
                component.add(w);
            } while (!w.equals(v));
            if (component.size() > 1) {
                found.add(component);
            }
        }
    }

    /**
     * The graph as the markdown table {@link #readTable} reads: what a failing test prints, to
     * paste into docs/architecture.md.
     *
     * @return the table
     */
    public String toTable() {
        StringBuilder b = new StringBuilder("| package | depends on |\n|---|---|\n");
        edges.forEach((p, to) -> b.append("| `").append(p).append("` | ")
                .append(to.isEmpty() ? "—" : String.join(", ", to.stream().map(t -> "`" + t + "`").toList()))
                .append(" |\n"));
        return b.toString();
    }

    /**
     * Reads the first table after a heading of {@code markdown}: rows {@code | package | a, b |}
     * ("—" for none), backticks optional.
     *
     * @param markdown the document (docs/architecture.md)
     * @param heading the heading's text, without the leading {@code #}s
     * @return the table's packages and their dependencies
     * @throws IllegalArgumentException if the heading or its table is not there
     */
    public static SortedMap<String, SortedSet<String>> readTable(Path markdown, String heading) {
        List<String> lines;
        try {
            lines = Files.readAllLines(markdown);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        int i = 0;
        while (i < lines.size() && !lines.get(i).replaceFirst("^#+\\s*", "").strip().equals(heading)) {
            i++;
        }
        if (i == lines.size()) {
            throw new IllegalArgumentException(markdown + " has no heading '" + heading + "'");
        }
        SortedMap<String, SortedSet<String>> table = new TreeMap<>();
        boolean inTable = false;
        for (i++; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.startsWith("#")) {
                break;
            }
            Matcher m = TABLE_ROW.matcher(line);
            if (line.startsWith("|")) {
                inTable = true;
                if (m.matches() && !m.group(1).equals("package")) {
                    SortedSet<String> to = new TreeSet<>();
                    for (String d : m.group(2).split(",")) {
                        String name = d.replace("`", "").strip();
                        if (!name.isEmpty() && !name.equals("—")) {
                            to.add(name);
                        }
                    }
                    table.put(m.group(1), to);
                }
            } else if (inTable) {
                break;
            }
        }
        if (table.isEmpty()) {
            throw new IllegalArgumentException(markdown + " has no package table after '" + heading + "'");
        }
        return table;
    }

    @Override
    public String toString() {
        return prefix + "* " + edges;
    }
}
