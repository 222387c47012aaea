package org.loommpm.cli.headers;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.loommpm.api.Headers;
import org.loommpm.http.HeaderValidation;

/**
 * One {@code Header} or {@code RequestHeader} line of mod_headers, as this server supports it:
 * an action on one field with a literal value. Immutable: any thread.
 *
 * @param action what to do
 * @param name the field name, as written
 * @param value the value ({@code %%} already turned into {@code %}); {@code null} for {@code unset}
 * @param always {@code Header always}: also on error responses (status 400 and above)
 */
public record HeaderRule(Action action, String name, String value, boolean always) {
    /** mod_headers' actions that this server supports. */
    public enum Action {
        /** Replaces every field of the name with one. */
        SET,
        /** Joins the value to the first field of the name with {@code ", "}; adds a field if none. */
        APPEND,
        /** As {@link #APPEND}, unless a field of the name already lists the value (exact, quotes count). */
        MERGE,
        /** Adds a field line, keeping those of the name. */
        ADD,
        /** Removes every field of the name. */
        UNSET,
        /** As {@link #SET}, only when no field of the name is present or the first is empty. */
        SETIFEMPTY
    }

    private static final String SUPPORTED = "set, append, merge, add, unset, setifempty";

    /**
     * The framing and connection-specific fields (RFC 9110 §7.6.1, RFC 9113 §8.2.2), which the
     * server writes from how it sends the body and keeps the connection: no rule may touch them.
     */
    private static final List<String> FRAMING = List.of("content-length", "transfer-encoding",
            "connection", "keep-alive", "proxy-connection", "te", "trailer", "upgrade");

    /** Fields no {@code Header} may touch: {@link #FRAMING}, and {@code Date}, which the server always writes. */
    private static final Set<String> RESPONSE_REFUSED = refused("date");

    /**
     * Fields no {@code RequestHeader} may touch: {@link #FRAMING} (the request's body is already
     * framed by them when the directive runs: a changed one would lie to a backend about the body
     * sent), {@code Expect}, and {@code Host} (the proxy writes it; see {@code ProxyPreserveHost}).
     */
    private static final Set<String> REQUEST_REFUSED = refused("expect", "host");

    private static Set<String> refused(String... more) {
        Set<String> s = new HashSet<>(FRAMING);
        s.addAll(List.of(more));
        return Set.copyOf(s);
    }

    /**
     * Reads one directive's arguments, as httpd's {@code Header [condition] action header
     * [value]} and {@code RequestHeader action header [value]}.
     *
     * @param args the arguments after the directive name
     * @param request {@code RequestHeader} rather than {@code Header}
     * @return the rule
     * @throws IllegalArgumentException naming what is wrong or unsupported
     */
    public static HeaderRule parse(List<String> args, boolean request) {
        int i = 0;
        boolean always = false;
        String first = args.get(0).toLowerCase(Locale.ROOT);
        if (first.equals("always") || first.equals("onsuccess")) {
            if (request) {
                throw new IllegalArgumentException("the condition '" + args.get(0)
                        + "' is for Header only (a request has no error table)");
            }
            always = first.equals("always");
            i++;
        }
        if (i >= args.size()) {
            throw new IllegalArgumentException("missing the action (" + SUPPORTED + ")");
        }
        Action action = action(args.get(i++));
        if (i >= args.size()) {
            throw new IllegalArgumentException("missing the header name after '" + args.get(i - 1) + "'");
        }
        String name = args.get(i++);
        checkName(name, request);
        String value = null;
        if (action != Action.UNSET) {
            if (i >= args.size()) {
                throw new IllegalArgumentException(args.get(i - 2) + " needs a value");
            }
            value = value(name, args.get(i++));
        }
        if (i < args.size()) {
            throw new IllegalArgumentException(extra(args.get(i), action));
        }
        return new HeaderRule(action, name, value, always);
    }

    private static Action action(String word) {
        String w = word.toLowerCase(Locale.ROOT);
        return switch (w) {
            case "set" -> Action.SET;
            case "append" -> Action.APPEND;
            case "merge" -> Action.MERGE;
            case "add" -> Action.ADD;
            case "unset" -> Action.UNSET;
            case "setifempty" -> Action.SETIFEMPTY;
            case "edit", "edit*", "echo", "note" -> throw new IllegalArgumentException("the action '" + word
                    + "' is not supported (this server supports " + SUPPORTED + ")");
            default -> throw new IllegalArgumentException("unknown action '" + word + "' (this server supports "
                    + SUPPORTED + ", optionally after the condition always or onsuccess)");
        };
    }

    private static void checkName(String name, boolean request) {
        try {
            HeaderValidation.check(name, "");
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + name + "' is not a header field name");
        }
        String key = name.toLowerCase(Locale.ROOT);
        if ((request ? REQUEST_REFUSED : RESPONSE_REFUSED).contains(key)) {
            throw new IllegalArgumentException("the field " + name + " cannot be changed: the server writes it "
                    + (key.equals("date") ? "itself"
                    : key.equals("host") ? "(the proxy sets it; see ProxyPreserveHost)"
                    : "from how it frames the message and keeps the connection"));
        }
    }

    /** The literal value: {@code %%} is a percent sign; any other format specifier is refused. */
    private static String value(String name, String raw) {
        if (raw.regionMatches(true, 0, "expr=", 0, 5)) {
            throw new IllegalArgumentException("expr= values are not supported (values are literal strings)");
        }
        StringBuilder out = new StringBuilder(raw.length());
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c != '%') {
                out.append(c);
            } else if (i + 1 < raw.length() && raw.charAt(i + 1) == '%') {
                out.append('%');
                i++;
            } else {
                throw new IllegalArgumentException("the format specifier '" + specifier(raw, i)
                        + "' is not supported (values are literal strings: write %% for a percent sign)");
            }
        }
        String v = out.toString();
        try {
            HeaderValidation.check(name, v);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the value of " + name + " has a control character");
        }
        return v;
    }

    /** {@code %t}, {@code %{VAR}e}, or a lone {@code %} at the end. */
    private static String specifier(String raw, int at) {
        if (at + 1 >= raw.length()) {
            return "%";
        }
        if (raw.charAt(at + 1) == '{') {
            int close = raw.indexOf('}', at);
            return close < 0 ? raw.substring(at) : raw.substring(at, Math.min(raw.length(), close + 2));
        }
        return raw.substring(at, at + 2);
    }

    private static String extra(String arg, Action action) {
        String a = arg.toLowerCase(Locale.ROOT);
        if (a.equals("early")) {
            return "'early' (applying the rule before the request is read) is not supported";
        }
        if (a.startsWith("env=")) {
            return "env= conditions are not supported ('" + arg + "')";
        }
        if (a.startsWith("expr=")) {
            return "expr= conditions are not supported ('" + arg + "')";
        }
        return action == Action.UNSET ? "unset takes no value, got '" + arg + "'"
                : "too many arguments from '" + arg + "' (a value with blanks must be quoted)";
    }

    /** Whether this rule applies to a response with {@code status}: {@code always}, or below 400. */
    boolean appliesTo(int status) {
        return always || status < 400;
    }

    /**
     * Applies this rule to a set of fields.
     *
     * @param h the request's or response's fields
     */
    public void apply(Headers h) {
        switch (action) {
            case SET -> h.set(name, value);
            case ADD -> h.add(name, value);
            case UNSET -> h.remove(name);
            case SETIFEMPTY -> {
                String v = h.first(name);
                if (v == null || v.isBlank()) {
                    h.set(name, value);
                }
            }
            case APPEND, MERGE -> {
                if (!h.contains(name)) {
                    h.add(name, value);
                } else if (action == Action.APPEND || !listed(h.all(name), value)) {
                    joinToFirst(h);
                }
            }
        }
    }

    /**
     * Whether one of {@code values}' comma-separated elements is {@code v} exactly (httpd's merge).
     * A comma inside a quoted string (RFC 9110 §5.6.4, with its {@code \\} escapes) does not
     * separate elements, so {@code "a, b"} is one element, as httpd's token scan sees it.
     */
    private static boolean listed(List<String> values, String v) {
        String wanted = v.strip();
        for (String list : values) {
            int start = 0;
            boolean quoted = false;
            for (int i = 0; i < list.length(); i++) {
                char ch = list.charAt(i);
                if (quoted && ch == '\\') {
                    i++; // a quoted-pair: the next character is literal
                } else if (ch == '"') {
                    quoted = !quoted;
                } else if (ch == ',' && !quoted) {
                    if (list.substring(start, i).strip().equals(wanted)) {
                        return true;
                    }
                    start = i + 1;
                }
            }
            if (list.substring(start).strip().equals(wanted)) {
                return true;
            }
        }
        return false;
    }

    /** Appends {@code ", " + value} to the first field of the name, keeping every field's place. */
    private void joinToFirst(Headers h) {
        List<String> fields = new ArrayList<>(2 * h.size());
        for (int i = 0; i < h.size(); i++) {
            fields.add(h.name(i));
            fields.add(h.value(i));
        }
        h.clear();
        boolean joined = false;
        for (int i = 0; i < fields.size(); i += 2) {
            String n = fields.get(i);
            String v = fields.get(i + 1);
            if (!joined && Headers.equalsIgnoreCase(n, name)) {
                v = v.isEmpty() ? value : v + ", " + value;
                joined = true;
            }
            h.add(n, v);
        }
    }
}
