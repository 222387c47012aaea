package org.loommpm.status;

/**
 * A minimal streaming JSON writer for the status page: objects, arrays, strings, numbers and
 * booleans, with commas placed automatically. Strings are escaped per RFC 8259, and {@code <},
 * {@code >} and {@code &} as {@code \}{@code u} escapes too, so the output is safe even if some
 * client renders it as HTML.
 */
final class JsonWriter {
    private final StringBuilder out = new StringBuilder(4096);
    /** Whether the current container already holds a value (a comma comes before the next). */
    private boolean needComma;

    JsonWriter beginObject() {
        separate();
        out.append('{');
        needComma = false;
        return this;
    }

    JsonWriter endObject() {
        out.append('}');
        needComma = true;
        return this;
    }

    JsonWriter beginArray() {
        separate();
        out.append('[');
        needComma = false;
        return this;
    }

    JsonWriter endArray() {
        out.append(']');
        needComma = true;
        return this;
    }

    /** A member name; the value written next belongs to it. */
    JsonWriter name(String name) {
        separate();
        string(name);
        out.append(':');
        needComma = false;
        return this;
    }

    JsonWriter value(String s) {
        separate();
        if (s == null) {
            out.append("null");
        } else {
            string(s);
        }
        needComma = true;
        return this;
    }

    JsonWriter value(long n) {
        separate();
        out.append(n);
        needComma = true;
        return this;
    }

    JsonWriter value(double x) {
        separate();
        out.append(Formats.decimal(x));
        needComma = true;
        return this;
    }

    JsonWriter value(boolean v) {
        separate();
        out.append(v);
        needComma = true;
        return this;
    }

    JsonWriter field(String name, String v) {
        return name(name).value(v);
    }

    JsonWriter field(String name, long v) {
        return name(name).value(v);
    }

    JsonWriter field(String name, double v) {
        return name(name).value(v);
    }

    JsonWriter field(String name, boolean v) {
        return name(name).value(v);
    }

    private void separate() {
        if (needComma) {
            out.append(',');
            needComma = false;
        }
    }

    private void string(String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20 || c == '<' || c == '>' || c == '&' || c == 0x2028 || c == 0x2029) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    @Override
    public String toString() {
        return out.toString();
    }
}
