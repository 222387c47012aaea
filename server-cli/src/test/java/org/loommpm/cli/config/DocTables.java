package org.loommpm.cli.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The Markdown tables of docs/configuration.md, for the tests that hold it to the code. A run of
 * lines starting with {@code |} is one table; its first line is the header when the second is
 * the {@code |---|} rule (a run without one renders as plain text: {@link Table#header} is empty).
 */
final class DocTables {
    static final Path CONFIGURATION = Path.of("..", "docs", "configuration.md");
    /** A cell separator: a bar not escaped as {@code \|}. */
    private static final Pattern BAR = Pattern.compile("(?<!\\\\)\\|");
    private static final Pattern RULE = Pattern.compile("\\|(\\s*:?-+:?\\s*\\|)+");

    private DocTables() {
    }

    /**
     * One table.
     *
     * @param line the 1-based line of its first row, for messages
     * @param caption the first line of the paragraph before it (what a reader takes it to be about)
     * @param header its column names, empty when it has no header row
     * @param rows the cells of each body row, trimmed
     */
    record Table(int line, String caption, List<String> header, List<List<String>> rows) {
        /** The index of the column named {@code name}, or -1. */
        int column(String name) {
            return header.indexOf(name);
        }
    }

    static List<Table> read() throws IOException {
        List<String> lines = Files.readAllLines(CONFIGURATION);
        List<Table> tables = new ArrayList<>();
        String caption = "";
        boolean paragraphStarts = true;
        int i = 0;
        while (i < lines.size()) {
            String l = lines.get(i).strip();
            if (!l.startsWith("|")) {
                if (!l.isEmpty() && paragraphStarts) {
                    caption = l;
                }
                paragraphStarts = l.isEmpty();
                i++;
                continue;
            }
            int start = i;
            List<List<String>> rows = new ArrayList<>();
            while (i < lines.size() && lines.get(i).strip().startsWith("|")) {
                rows.add(cells(lines.get(i).strip()));
                i++;
            }
            boolean headed = rows.size() > 1 && RULE.matcher(lines.get(start + 1).strip()).matches();
            List<String> header = headed ? rows.get(0) : List.of();
            tables.add(new Table(start + 1, caption, header, headed ? rows.subList(2, rows.size()) : rows));
            paragraphStarts = true;
        }
        return tables;
    }

    private static List<String> cells(String row) {
        String inner = row.substring(1, row.endsWith("|") ? row.length() - 1 : row.length());
        List<String> out = new ArrayList<>();
        for (String c : BAR.split(inner, -1)) {
            out.add(c.strip());
        }
        return out;
    }
}
