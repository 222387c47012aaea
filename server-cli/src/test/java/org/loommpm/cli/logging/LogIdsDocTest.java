package org.loommpm.cli.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/log-ids.md's table of error-log ids against the sources that log them: every id the
 * code writes is in the table once, every id in the table is still written, and a line logged
 * with an explicit level carries a level its row names (an operator filters and alerts on both).
 */
class LogIdsDocTest {
    private static final Pattern ROW = Pattern.compile("(?m)^\\| (LM\\d{4}) \\| ([^|]+) \\|");
    private static final Pattern ID = Pattern.compile("LM\\d{4}");
    /** {@code LOG.log(Level.X, "LMnnnn ...")}, the level possibly chosen by a condition; not across literals. */
    private static final Pattern CALL = Pattern.compile("\\.log\\(\\s*([^\";]*?)\"(LM\\d{4})");
    private static final Pattern LEVEL = Pattern.compile("Level\\.(ERROR|WARNING|INFO|DEBUG|TRACE)");

    @Test
    void everyLoggedIdIsDocumentedOnceWithItsLevel() throws IOException {
        Map<String, String> documented = new TreeMap<>();
        Matcher row = ROW.matcher(Files.readString(Path.of("..", "docs", "log-ids.md")));
        List<String> duplicates = new ArrayList<>();
        while (row.find()) {
            if (documented.put(row.group(1), row.group(2).trim()) != null) {
                duplicates.add(row.group(1));
            }
        }
        assertEquals(List.of(), duplicates, "ids with two rows in docs/log-ids.md");
        Set<String> used = new TreeSet<>();
        List<String> wrongLevel = new ArrayList<>();
        for (Path file : sources()) {
            String src = Files.readString(file);
            Matcher id = ID.matcher(src);
            while (id.find()) {
                used.add(id.group());
            }
            Matcher call = CALL.matcher(src);
            while (call.find()) {
                String doc = documented.getOrDefault(call.group(2), "");
                Matcher level = LEVEL.matcher(call.group(1));
                while (level.find()) {
                    if (!doc.contains(level.group(1))) {
                        wrongLevel.add(call.group(2) + " logged at " + level.group(1) + " in " + file.getFileName()
                                + ", documented as " + doc);
                    }
                }
            }
        }
        Set<String> undocumented = new TreeSet<>(used);
        undocumented.removeAll(documented.keySet());
        assertEquals(Set.of(), undocumented, "ids the code logs that docs/log-ids.md does not list");
        Set<String> stale = new TreeSet<>(documented.keySet());
        stale.removeAll(used);
        assertEquals(Set.of(), stale, "ids docs/log-ids.md lists that no code logs");
        assertEquals(List.of(), wrongLevel);
        assertTrue(used.size() > 100, "the scan found the sources: " + used.size());
    }

    private static List<Path> sources() throws IOException {
        List<Path> all = new ArrayList<>();
        for (String module : new String[] {"server-core", "server-websocket", "server-proxy", "server-observe",
                "server-compress", "server-auth", "server-h2", "loom-mpm-jackson", "server-cli"}) {
            try (Stream<Path> s = Files.walk(Path.of("..", module, "src", "main", "java"))) {
                s.filter(p -> p.toString().endsWith(".java")).forEach(all::add);
            }
        }
        return all;
    }
}
