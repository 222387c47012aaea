package org.loommpm.cli.config;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits httpd-style configuration text into lines and words: one directive per line, {@code #}
 * comments (only at the start of a line, as in httpd, so {@code #} inside an argument is kept),
 * {@code \} at the end of a line continues it, arguments separated by blanks and optionally
 * quoted with {@code "} or {@code '} ({@code \"} escapes a quote inside). Section tags keep
 * their angle brackets in the name: {@code <Location /a>} gives name {@code <Location} and
 * argument {@code /a}; {@code </Location>} gives name {@code </Location}.
 *
 * <p>Two steps, as httpd reads a file: {@link #lines} finds the logical lines, and
 * {@link #split} cuts one into words when the parser comes to it, after {@code ${name}}
 * expansion (which happens before splitting, so a value's blanks and quotes count). Of a skipped
 * section ({@code <IfDefine>} whose test is false) only the section tags are split, to match
 * them: its other lines need not be valid directives.
 */
public final class ConfigLexer {
    private ConfigLexer() {
    }

    /**
     * A logical line as written: continued lines joined, blanks around it stripped. Blank lines
     * and comments are not lines.
     *
     * @param source the file (or option) it came from
     * @param line the 1-based number of its first physical line
     * @param text the line, not yet expanded nor split
     */
    public record Line(String source, int line, String text) {
        /** Whether it is a section tag ({@code <Name ...>} or {@code </Name>}). */
        boolean isTag() {
            return text.charAt(0) == '<';
        }
    }

    /**
     * The logical lines of a whole file.
     *
     * @param source the file name for error messages
     * @param text the whole file
     */
    public static List<Line> lines(String source, String text) {
        List<Line> out = new ArrayList<>();
        List<String> physical = physicalLines(text);
        StringBuilder logical = new StringBuilder();
        int first = 0;
        for (int i = 0; i < physical.size(); i++) {
            String p = physical.get(i);
            if (logical.isEmpty()) {
                first = i + 1;
            }
            if (p.endsWith("\\")) {
                // As httpd: the backslash goes, the next line follows as it is (no blank added).
                logical.append(p, 0, p.length() - 1);
                if (i + 1 < physical.size()) {
                    continue;
                }
            } else {
                logical.append(p);
            }
            Line line = line(source, first, logical.toString());
            if (line != null) {
                out.add(line);
            }
            logical.setLength(0);
        }
        return out;
    }

    /** One line given on its own (a {@code -C} option); null for a blank or a comment. */
    static Line line(String source, int lineNo, String text) {
        String s = text.strip();
        return s.isEmpty() || s.charAt(0) == '#' ? null : new Line(source, lineNo, s);
    }

    /** Splits on LF, dropping a CR before it (no regex: this runs at start-up). */
    private static List<String> physicalLines(String text) {
        List<String> out = new ArrayList<>();
        int start = 0;
        for (int nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
            int end = nl > start && text.charAt(nl - 1) == '\r' ? nl - 1 : nl;
            out.add(text.substring(start, end));
            start = nl + 1;
        }
        out.add(text.substring(start));
        return out;
    }

    /**
     * A line's words; null when nothing is left of it (a variable that expanded to nothing). As
     * in httpd, a {@code #} here is not a comment: comments were dropped before expansion.
     *
     * @throws ConfigException on an unterminated quote or a malformed section tag
     */
    static ConfigLine split(Line line) throws ConfigException {
        String source = line.source();
        int lineNo = line.line();
        String s = line.text().strip();
        if (s.isEmpty()) {
            return null;
        }
        boolean section = s.charAt(0) == '<';
        if (section) {
            if (!s.endsWith(">")) {
                throw new ConfigException(source, lineNo, "Section tag " + firstWord(s) + " lacks its closing '>'");
            }
            s = s.substring(0, s.length() - 1).strip();
        }
        List<String> words = split(source, lineNo, s);
        if (words.isEmpty() || words.get(0).isEmpty()) {
            throw new ConfigException(source, lineNo, "Empty directive");
        }
        return new ConfigLine(source, lineNo, words.get(0), List.copyOf(words.subList(1, words.size())));
    }

    private static String firstWord(String s) {
        int sp = 0;
        while (sp < s.length() && !Character.isWhitespace(s.charAt(sp))) {
            sp++;
        }
        return s.substring(0, sp);
    }

    private static List<String> split(String source, int lineNo, String s) throws ConfigException {
        List<String> words = new ArrayList<>();
        int i = 0;
        int n = s.length();
        while (i < n) {
            char c = s.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
                continue;
            }
            StringBuilder w = new StringBuilder();
            if (c == '"' || c == '\'') {
                int j = i + 1;
                boolean closed = false;
                while (j < n) {
                    char d = s.charAt(j);
                    if (d == '\\' && j + 1 < n && (s.charAt(j + 1) == c || s.charAt(j + 1) == '\\')) {
                        w.append(s.charAt(j + 1));
                        j += 2;
                    } else if (d == c) {
                        closed = true;
                        j++;
                        break;
                    } else {
                        w.append(d);
                        j++;
                    }
                }
                if (!closed) {
                    throw new ConfigException(source, lineNo, "Unterminated quoted argument: " + s.substring(i));
                }
                i = j;
            } else {
                while (i < n && !Character.isWhitespace(s.charAt(i))) {
                    w.append(s.charAt(i++));
                }
            }
            words.add(w.toString());
        }
        return words;
    }
}
