package org.loommpm.negotiation;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The list grammar the {@code Accept} fields share (RFC 9110 §5.6.1, §5.6.6, §12.4.2): elements
 * separated by commas, each a value and {@code ;}-separated parameters whose values may be
 * quoted strings (a comma or semicolon inside quotes is text). Lenient: empty elements are
 * skipped, whitespace around {@code ;} and {@code =} is allowed, an unterminated quote runs to
 * the end; nothing here throws on client input.
 */
final class Lists {
    /** Longest field value read: a longer one is cut here (a client has no need for more). */
    static final int MAX_CHARS = 16 * 1024;
    /** Most elements read from one field value; the rest are ignored. */
    static final int MAX_ELEMENTS = 256;

    /**
     * One list element.
     *
     * @param value the part before the first {@code ;}, stripped (not empty)
     * @param names the parameter names before {@code q}, lowercase
     * @param values their values, unquoted
     * @param quality the q-value: 1 when absent, 0 when it cannot be read or is outside [0, 1]
     */
    record Element(String value, List<String> names, List<String> values, double quality) {
    }

    private Lists() {
    }

    /** The elements of {@code header} in order; empty for null. */
    static List<Element> parse(String header) {
        List<Element> out = new ArrayList<>();
        if (header == null) {
            return out;
        }
        String h = header.length() > MAX_CHARS ? header.substring(0, MAX_CHARS) : header;
        int n = h.length();
        int i = 0;
        while (i < n && out.size() < MAX_ELEMENTS) {
            int end = end(h, i, ',');
            Element e = element(h, i, end);
            if (e != null) {
                out.add(e);
            }
            i = end + 1;
        }
        return out;
    }

    /** The index of the next {@code stop} outside a quoted string, or {@code to}'s end. */
    private static int end(String h, int from, char stop) {
        boolean quoted = false;
        for (int i = from; i < h.length(); i++) {
            char c = h.charAt(i);
            if (quoted) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    quoted = false;
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == stop || c == ',') {
                return i;
            }
        }
        return h.length();
    }

    private static Element element(String h, int from, int to) {
        String part = h.substring(from, to);
        int semi = end(part, 0, ';');
        String value = part.substring(0, semi).strip();
        if (value.isEmpty()) {
            return null;
        }
        List<String> names = new ArrayList<>(0);
        List<String> values = new ArrayList<>(0);
        double q = 1;
        int i = semi;
        while (i < part.length()) {
            int next = end(part, i + 1, ';');
            String param = part.substring(i + 1, next);
            i = next;
            int eq = param.indexOf('=');
            String name = (eq < 0 ? param : param.substring(0, eq)).strip().toLowerCase(Locale.ROOT);
            String v = eq < 0 ? "" : unquote(param.substring(eq + 1).strip());
            if (name.isEmpty()) {
                continue;
            }
            if (name.equals("q")) {
                q = quality(v);
                break; // what follows q is accept-ext (RFC 9110 §12.5.1): not the value's parameters
            }
            names.add(name);
            values.add(v);
        }
        return new Element(value, List.copyOf(names), List.copyOf(values), q);
    }

    private static String unquote(String v) {
        if (v.length() < 2 || v.charAt(0) != '"') {
            return v;
        }
        StringBuilder sb = new StringBuilder(v.length());
        for (int i = 1; i < v.length(); i++) {
            char c = v.charAt(i);
            if (c == '\\' && i + 1 < v.length()) {
                sb.append(v.charAt(++i));
            } else if (c == '"') {
                break;
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    /**
     * A q-value (RFC 9110 §12.4.2: {@code 0} to {@code 1} with up to three decimals), read
     * leniently: more decimals, and a leading dot ({@code .2}, which Java's own HTTP client sends),
     * are taken; anything else (a sign, an exponent, text, a value above 1) counts as 0, so an
     * element the client mis-wrote is refused rather than preferred.
     */
    static double quality(String s) {
        int n = s.length();
        if (n == 0 || n > 12) {
            return 0;
        }
        int dots = 0;
        int digits = 0;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c == '.') {
                dots++;
            } else if (c >= '0' && c <= '9') {
                digits++;
            } else {
                return 0;
            }
        }
        if (dots > 1 || digits == 0) {
            return 0;
        }
        double q = Double.parseDouble(s);
        return q <= 1 ? q : 0;
    }

    /** Whether {@code s} is a non-empty token (RFC 9110 §5.6.2). */
    static boolean isToken(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                    || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
            if (!ok) {
                return false;
            }
        }
        return true;
    }
}
