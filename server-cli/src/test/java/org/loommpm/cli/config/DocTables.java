package org.loommpm.cli.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The Markdown tables of the configuration reference, for the tests that hold it to the code:
 * docs/configuration.md and its parts, docs/configuration-*.md, read in that order. A run of
 * lines starting with {@code |} is one table; its first line is the header when the second is
 * the {@code |---|} rule (a run without one renders as plain text: {@link Table#header} is empty).
 */
final class DocTables {
    static final Path DOCS = Path.of("..", "docs");
    static final Path CONFIGURATION = DOCS.resolve("configuration.md");
    /** A cell separator: a bar not escaped as {@code \|}. */
    private static final Pattern BAR = Pattern.compile("(?<!\\\\)\\|");
    private static final Pattern RULE = Pattern.compile("\\|(\\s*:?-+:?\\s*\\|)+");

    private DocTables() {
    }

    /**
     * One table.
     *
     * @param file the page it is on
     * @param line the 1-based line of its first row, for messages
     * @param caption the first line of the paragraph before it (what a reader takes it to be about)
     * @param header its column names, empty when it has no header row
     * @param rows the cells of each body row, trimmed
     */
    record Table(Path file, int line, String caption, List<String> header, List<List<String>> rows) {
        /** The index of the column named {@code name}, or -1. */
        int column(String name) {
            return header.indexOf(name);
        }
    }

    /** The pages of the reference: configuration.md, then configuration-*.md by name. */
    static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(CONFIGURATION));
        try (Stream<Path> s = Files.list(DOCS)) {
            s.filter(p -> p.getFileName().toString().matches("configuration-.+\\.md")).sorted().forEach(pages::add);
        }
        return pages;
    }

    /** Every page's text, in {@link #pages()} order. */
    static String text() throws IOException {
        StringBuilder text = new StringBuilder();
        for (Path page : pages()) {
            text.append(Files.readString(page)).append('\n');
        }
        return text.toString();
    }

    static List<Table> read() throws IOException {
        List<Table> tables = new ArrayList<>();
        for (Path page : pages()) {
            tables.addAll(read(page));
        }
        return tables;
    }

    private static List<Table> read(Path page) throws IOException {
        List<String> lines = Files.readAllLines(page);
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
            List<List<String>> body = headed ? rows.subList(2, rows.size()) : rows;
            tables.add(new Table(page.getFileName(), start + 1, caption, header, body));
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
