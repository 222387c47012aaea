package org.loommpm.api;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * An ordered, case-insensitive multi-map of HTTP header fields.
 *
 * <p>Kept as one array of name, value, name, value … rather than a map: a request carries a
 * dozen fields, so a linear scan with an ASCII case-insensitive compare beats hashing and
 * allocates nothing per lookup; one array of eight fields to start with unless told a size
 * ({@link #Headers(int)}), because every exchange makes two header sets (its request's and its
 * response's). Names keep the spelling they were
 * added with. Not thread-safe: a request's and a
 * response's headers belong to the worker handling the exchange.
 */
public final class Headers {
    /** Field {@code i}'s name at {@code 2i}, its value at {@code 2i + 1}. */
    private String[] fields;
    private int size;
    /** Fields ever added (see {@link #additions()}). */
    private int additions;

    /** An empty header set. */
    public Headers() {
        fields = new String[16];
    }

    /**
     * An empty header set with room for {@code fields} fields before it grows: a parser that
     * has counted a head's field lines, or a response that usually gets a few, allocates no
     * more than it needs.
     *
     * @param fields the expected number of fields (at least one is made room for)
     */
    public Headers(int fields) {
        this.fields = new String[2 * Math.max(1, fields)];
    }

    /** {@return number of fields (a name repeated counts once per occurrence)} */
    public int size() {
        return size;
    }

    /**
     * Field name at {@code i}, as it was added.
     *
     * @param i the field's index, from 0 to {@link #size()} - 1
     * @return the name
     */
    public String name(int i) {
        return fields[2 * i];
    }

    /**
     * Field value at {@code i}.
     *
     * @param i the field's index, from 0 to {@link #size()} - 1
     * @return the value
     */
    public String value(int i) {
        return fields[2 * i + 1];
    }

    /**
     * Adds a field, keeping any existing field of the same name.
     *
     * @param name the field name
     * @param value the field value
     * @return these headers
     */
    public Headers add(String name, String value) {
        if (2 * size == fields.length) {
            fields = Arrays.copyOf(fields, fields.length * 2);
        }
        fields[2 * size] = name;
        fields[2 * size + 1] = value;
        size++;
        additions++;
        return this;
    }

    /**
     * Replaces every field of this name with one field.
     *
     * @param name the field name (case-insensitive)
     * @param value the field value
     * @return these headers
     */
    public Headers set(String name, String value) {
        remove(name);
        return add(name, value);
    }

    /**
     * How many fields were ever added ({@link #add} and {@link #set}), never decreasing: whoever
     * checked each field it added itself can tell whether someone else added one since.
     *
     * @return the number of fields added so far
     */
    public int additions() {
        return additions;
    }

    /**
     * Removes every field of this name; returns whether any was present.
     *
     * @param name the field name (case-insensitive)
     * @return whether a field was removed
     */
    public boolean remove(String name) {
        int w = 0;
        for (int r = 0; r < size; r++) {
            if (!equalsIgnoreCase(fields[2 * r], name)) {
                fields[2 * w] = fields[2 * r];
                fields[2 * w + 1] = fields[2 * r + 1];
                w++;
            }
        }
        boolean removed = w != size;
        Arrays.fill(fields, 2 * w, 2 * size, null);
        size = w;
        return removed;
    }

    /**
     * The first value of this field, or {@code null}.
     *
     * @param name the field name (case-insensitive)
     * @return the value, or {@code null}
     */
    public String first(String name) {
        for (int i = 0; i < 2 * size; i += 2) {
            if (equalsIgnoreCase(fields[i], name)) {
                return fields[i + 1];
            }
        }
        return null;
    }

    /**
     * Whether a field of this name is present.
     *
     * @param name the field name (case-insensitive)
     * @return whether one is present
     */
    public boolean contains(String name) {
        return first(name) != null;
    }

    /**
     * How many fields carry this name.
     *
     * @param name the field name (case-insensitive)
     * @return the number of fields
     */
    public int count(String name) {
        int n = 0;
        for (int i = 0; i < 2 * size; i += 2) {
            if (equalsIgnoreCase(fields[i], name)) {
                n++;
            }
        }
        return n;
    }

    /**
     * Every value of this field, in order; empty when absent.
     *
     * @param name the field name (case-insensitive)
     * @return the values
     */
    public List<String> all(String name) {
        List<String> out = null;
        for (int i = 0; i < 2 * size; i += 2) {
            if (equalsIgnoreCase(fields[i], name)) {
                if (out == null) {
                    out = new ArrayList<>(2);
                }
                out.add(fields[i + 1]);
            }
        }
        return out == null ? List.of() : Collections.unmodifiableList(out);
    }

    /**
     * Whether a comma-separated field of this name lists {@code token} (case-insensitive).
     *
     * @param name the field name (case-insensitive)
     * @param token the token looked for
     * @return whether a field lists it
     */
    public boolean hasToken(String name, String token) {
        for (int i = 0; i < 2 * size; i += 2) {
            if (equalsIgnoreCase(fields[i], name) && listContains(fields[i + 1], token)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Calls {@code action} for every field in order.
     *
     * @param action called with each field's name and value
     */
    public void forEach(BiConsumer<String, String> action) {
        for (int i = 0; i < 2 * size; i += 2) {
            action.accept(fields[i], fields[i + 1]);
        }
    }

    /** Removes every field. */
    public void clear() {
        Arrays.fill(fields, 0, 2 * size, null);
        size = 0;
    }

    /**
     * ASCII case-insensitive comparison (header names are ASCII tokens).
     *
     * @param a a name
     * @param b another
     * @return whether they are equal ignoring ASCII case
     */
    public static boolean equalsIgnoreCase(String a, String b) {
        int n = a.length();
        if (n != b.length()) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            char x = a.charAt(i);
            char y = b.charAt(i);
            if (x != y && (x | 0x20) != (y | 0x20)) {
                return false;
            }
            if (x != y && ((x | 0x20) < 'a' || (x | 0x20) > 'z')) {
                return false;
            }
        }
        return true;
    }

    static boolean listContains(String list, String token) {
        int n = list.length();
        int i = 0;
        while (i < n) {
            int comma = list.indexOf(',', i);
            int end = comma < 0 ? n : comma;
            int s = i;
            int e = end;
            while (s < e && isSpace(list.charAt(s))) {
                s++;
            }
            while (e > s && isSpace(list.charAt(e - 1))) {
                e--;
            }
            if (e - s == token.length() && list.regionMatches(true, s, token, 0, e - s)) {
                return true;
            }
            i = end + 1;
        }
        return false;
    }

    private static boolean isSpace(char c) {
        return c == ' ' || c == '\t';
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 2 * size; i += 2) {
            sb.append(fields[i]).append(": ").append(fields[i + 1]).append('\n');
        }
        return sb.toString();
    }
}
