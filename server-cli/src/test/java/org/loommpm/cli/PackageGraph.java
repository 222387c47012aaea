package org.loommpm.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The package dependency graph of one module's sources, for architecture tests. Plain Java, no
 * dependency and nothing of this module: copy it as it is to check another one.
 *
 * <p>Each {@code .java} file below the source root is read with its comments and its string,
 * character and text-block literals blanked out. A file depends on a package when it names a type
 * of it: an {@code import} (single-type, on-demand or static), or a fully qualified name written
 * in code ({@code org.example.foo.Bar}). Only packages under the prefix that have a file in the
 * tree count; a package's references to itself do not. Files without a {@code package} line
 * ({@code module-info.java}) are skipped.
 */
public final class PackageGraph {
    private static final Pattern PACKAGE = Pattern.compile("^\\s*package\\s+([\\w.]+)\\s*;", Pattern.MULTILINE);
    private static final Pattern IMPORT =
            Pattern.compile("^\\s*import\\s+(?:static\\s+)?([\\w.]+?)(?:\\s*\\.\\s*\\*)?\\s*;", Pattern.MULTILINE);

    private final SortedMap<String, SortedSet<String>> edges;

    private PackageGraph(SortedMap<String, SortedSet<String>> edges) {
        this.edges = edges;
    }

    /**
     * Reads a source tree.
     *
     * @param srcMainJava the source root, e.g. {@code server-cli/src/main/java}
     * @param prefix the packages to graph, e.g. {@code org.loommpm.cli} (itself and those below it)
     * @return the graph of the packages under {@code prefix} that have a file in the tree
     * @throws IOException if the tree cannot be read
     */
    public static PackageGraph of(Path srcMainJava, String prefix) throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(srcMainJava)) {
            files = walk.filter(p -> p.toString().endsWith(".java")).toList();
        }
        Map<String, List<String>> codeByPackage = new HashMap<>();
        for (Path f : files) {
            String code = blankCommentsAndLiterals(Files.readString(f));
            Matcher m = PACKAGE.matcher(code);
            if (m.find() && (m.group(1).equals(prefix) || m.group(1).startsWith(prefix + "."))) {
                codeByPackage.computeIfAbsent(m.group(1), p -> new ArrayList<>()).add(code);
            }
        }
        // A qualified name up to the dot before a type's capital: "prefix.a.b" in "prefix.a.b.Type".
        Pattern qualified = Pattern.compile("(?<![\\w.])" + Pattern.quote(prefix)
                + "(?:\\.[a-z0-9_]+)*(?=\\s*\\.\\s*[A-Z])");
        SortedMap<String, SortedSet<String>> edges = new TreeMap<>();
        codeByPackage.forEach((from, sources) -> {
            SortedSet<String> deps = new TreeSet<>();
            for (String code : sources) {
                for (String name : names(code, qualified)) {
                    String to = packageOf(name);
                    if (codeByPackage.containsKey(to) && !to.equals(from)) {
                        deps.add(to);
                    }
                }
            }
            edges.put(from, Collections.unmodifiableSortedSet(deps));
        });
        return new PackageGraph(Collections.unmodifiableSortedMap(edges));
    }

    /** {@return every package of the tree under the prefix, with the packages it depends on directly} */
    public SortedMap<String, SortedSet<String>> edges() {
        return edges;
    }

    /**
     * The dependency cycles: each strongly connected component of more than one package
     * (Tarjan's algorithm), ordered by their first package.
     *
     * @return the packages of each cycle; empty when the graph is layered
     */
    public List<SortedSet<String>> cycles() {
        List<SortedSet<String>> out = new ArrayList<>();
        for (SortedSet<String> component : new Tarjan(edges).components) {
            if (component.size() > 1) {
                out.add(Collections.unmodifiableSortedSet(component));
            }
        }
        out.sort(Comparator.comparing(SortedSet::first));
        return List.copyOf(out);
    }

    /**
     * Reads the first table after a heading of a markdown file: rows
     * {@code | `a.b` | `a.c`, `a.d` |}, one per package, its direct dependencies separated by
     * commas ({@code -} or an empty cell for none). Backticks are dropped; the header row and its
     * separator are skipped.
     *
     * @param markdown the file
     * @param heading the heading's text without its {@code #}s, e.g. {@code server-cli packages}
     * @return the table as {@link #edges} gives a graph
     * @throws IOException if the file cannot be read
     * @throws IllegalArgumentException if it has no such heading, or no table below it
     */
    public static SortedMap<String, SortedSet<String>> readTable(Path markdown, String heading) throws IOException {
        List<String> lines = Files.readAllLines(markdown);
        int at = 0;
        while (at < lines.size() && !lines.get(at).matches("#+\\s+" + Pattern.quote(heading) + "\\s*")) {
            at++;
        }
        if (at == lines.size()) {
            throw new IllegalArgumentException(markdown + " has no heading '" + heading + "'");
        }
        SortedMap<String, SortedSet<String>> table = new TreeMap<>();
        int row = 0;
        for (int i = at + 1; i < lines.size() && !lines.get(i).startsWith("#"); i++) {
            String line = lines.get(i).strip();
            if (!line.startsWith("|")) {
                if (row > 0) {
                    break; // the table has ended
                }
                continue;
            }
            if (row++ < 2) {
                continue; // the header and the |---| line
            }
            String[] cells = line.replace("`", "").split("\\|", -1);
            if (cells.length < 4) {
                throw new IllegalArgumentException(markdown + ": a row needs a package and its dependencies: " + line);
            }
            SortedSet<String> deps = new TreeSet<>();
            for (String d : cells[2].split(",")) {
                if (!d.isBlank() && !d.strip().equals("-")) {
                    deps.add(d.strip());
                }
            }
            table.put(cells[1].strip(), deps);
        }
        if (row == 0) {
            throw new IllegalArgumentException(markdown + " has no table under '" + heading + "'");
        }
        return table;
    }

    /** The names {@code code} mentions that may be of a type in another package: imported, and qualified ones. */
    private static List<String> names(String code, Pattern qualified) {
        List<String> names = new ArrayList<>();
        for (Matcher m = IMPORT.matcher(code); m.find(); ) {
            names.add(m.group(1));
        }
        for (Matcher m = qualified.matcher(code); m.find(); ) {
            names.add(m.group());
        }
        return names;
    }

    /**
     * The package part of an imported name, by Java's naming convention: the segments before the
     * first capitalized one ({@code a.b} of {@code a.b.Type.member}, and of the on-demand {@code a.b}).
     */
    private static String packageOf(String name) {
        int end = 0;
        for (String segment : name.split("\\.")) {
            if (segment.isEmpty() || Character.isUpperCase(segment.charAt(0))) {
                break;
            }
            end += segment.length() + 1;
        }
        return end == 0 ? "" : name.substring(0, end - 1);
    }

    /**
     * {@code source} with every comment and every string, character and text-block literal
     * replaced by spaces (line breaks kept), so that neither a name in prose nor one in a
     * message counts as a dependency.
     */
    private static String blankCommentsAndLiterals(String source) {
        StringBuilder out = new StringBuilder(source);
        int i = 0;
        int n = source.length();
        while (i < n) {
            int end;
            if (source.startsWith("//", i)) {
                end = source.indexOf('\n', i);
                end = end < 0 ? n : end;
            } else if (source.startsWith("/*", i)) {
                end = source.indexOf("*/", i + 2);
                end = end < 0 ? n : end + 2;
            } else if (source.startsWith("\"\"\"", i)) {
                end = literalEnd(source, i + 3, "\"\"\"");
            } else if (source.charAt(i) == '"' || source.charAt(i) == '\'') {
                end = literalEnd(source, i + 1, String.valueOf(source.charAt(i)));
            } else {
                i++;
                continue;
            }
            for (int j = i; j < end; j++) {
                if (out.charAt(j) != '\n') {
                    out.setCharAt(j, ' ');
                }
            }
            i = end;
        }
        return out.toString();
    }

    /** Where a literal opened before {@code from} ends: after its unescaped {@code close}, or the end. */
    private static int literalEnd(String source, int from, String close) {
        for (int i = from; i < source.length(); i++) {
            if (source.charAt(i) == '\\') {
                i++;
            } else if (source.startsWith(close, i)) {
                return i + close.length();
            }
        }
        return source.length();
    }

    /** Tarjan's strongly connected components, iteratively (no recursion depth to run out of). */
    private static final class Tarjan {
        final List<SortedSet<String>> components = new ArrayList<>();
        private final Map<String, SortedSet<String>> edges;
        private final Map<String, Integer> index = new HashMap<>();
        private final Map<String, Integer> low = new HashMap<>();
        private final Deque<String> stack = new ArrayDeque<>();
        private final Set<String> onStack = new HashSet<>();

        Tarjan(Map<String, SortedSet<String>> edges) {
            this.edges = edges;
            for (String v : edges.keySet()) {
                if (!index.containsKey(v)) {
                    visit(v);
                }
            }
        }

        /** A depth-first walk from {@code root}, each frame a package and the dependencies left to visit. */
        private void visit(String root) {
            Deque<Map.Entry<String, Iterator<String>>> frames = new ArrayDeque<>();
            enter(root, frames);
            while (!frames.isEmpty()) {
                Map.Entry<String, Iterator<String>> top = frames.peek();
                String v = top.getKey();
                if (top.getValue().hasNext()) {
                    String w = top.getValue().next();
                    if (!index.containsKey(w)) {
                        enter(w, frames);
                    } else if (onStack.contains(w)) {
                        low.put(v, Math.min(low.get(v), index.get(w)));
                    }
                    continue;
                }
                frames.pop();
                if (!frames.isEmpty()) {
                    String parent = frames.peek().getKey();
                    low.put(parent, Math.min(low.get(parent), low.get(v)));
                }
                if (low.get(v).equals(index.get(v))) {
                    SortedSet<String> component = new TreeSet<>();
                    String w;
                    do {
                        w = stack.pop();
                        onStack.remove(w);
                        component.add(w);
                    } while (!w.equals(v));
                    components.add(component);
                }
            }
        }

        private void enter(String v, Deque<Map.Entry<String, Iterator<String>>> frames) {
            index.put(v, index.size());
            low.put(v, index.get(v));
            stack.push(v);
            onStack.add(v);
            frames.push(Map.entry(v, edges.getOrDefault(v, Collections.emptySortedSet()).iterator()));
        }
    }
}
