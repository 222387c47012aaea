package org.loommpm.cli.config;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits httpd-style configuration text into {@link ConfigLine}s: one directive per line,
 * {@code #} comments (only at the start of a line, as in httpd, so {@code #} inside an argument
 * is kept), {@code \} at the end of a line continues it, arguments separated by blanks and
 * optionally quoted with {@code "} or {@code '} ({@code \"} escapes a quote inside). Section
 * tags keep their angle brackets in the name: {@code <Location /a>} gives name {@code <Location}
 * and argument {@code /a}; {@code </Location>} gives name {@code </Location}.
 */
public final class ConfigLexer {
    private ConfigLexer() {
    }

    /**
     * @param source the file name for error messages
     * @param text the whole file
     * @throws ConfigException on an unterminated quote or a malformed section tag
     */
    public static List<ConfigLine> lex(String source, String text) throws ConfigException {
        List<ConfigLine> out = new ArrayList<>();
        List<String> physical = lines(text);
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
            ConfigLine line = parse(source, first, logical.toString().strip());
            if (line != null) {
                out.add(line);
            }
            logical.setLength(0);
        }
        return out;
    }

    /** Splits on LF, dropping a CR before it (no regex: this runs at start-up). */
    private static List<String> lines(String text) {
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

    /** One logical line; null for blanks and comments. */
    static ConfigLine parse(String source, int lineNo, String s) throws ConfigException {
        if (s.isEmpty() || s.charAt(0) == '#') {
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
