package org.loommpm.api;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * An ordered, case-insensitive multi-map of HTTP header fields.
 *
 * <p>Kept as two parallel arrays rather than a map: a request carries a dozen fields, so a
 * linear scan with an ASCII case-insensitive compare beats hashing and allocates nothing per
 * lookup. Names keep the spelling they were added with. Not thread-safe: a request's and a
 * response's headers belong to the worker handling the exchange.
 */
public final class Headers {
    private String[] names;
    private String[] values;
    private int size;
    /** Fields ever added (see {@link #additions()}). */
    private int additions;

    /** An empty header set. */
    public Headers() {
        names = new String[16];
        values = new String[16];
    }

    /** Number of fields (a name repeated counts once per occurrence). */
    public int size() {
        return size;
    }

    /** Field name at {@code i}, as it was added. */
    public String name(int i) {
        return names[i];
    }

    /** Field value at {@code i}. */
    public String value(int i) {
        return values[i];
    }

    /** Adds a field, keeping any existing field of the same name. */
    public Headers add(String name, String value) {
        if (size == names.length) {
            names = Arrays.copyOf(names, size * 2);
            values = Arrays.copyOf(values, size * 2);
        }
        names[size] = name;
        values[size] = value;
        size++;
        additions++;
        return this;
    }

    /** Replaces every field of this name with one field. */
    public Headers set(String name, String value) {
        remove(name);
        return add(name, value);
    }

    /**
     * How many fields were ever added ({@link #add} and {@link #set}), never decreasing: whoever
     * checked each field it added itself can tell whether someone else added one since.
     */
    public int additions() {
        return additions;
    }

    /** Removes every field of this name; returns whether any was present. */
    public boolean remove(String name) {
        int w = 0;
        for (int r = 0; r < size; r++) {
            if (!equalsIgnoreCase(names[r], name)) {
                names[w] = names[r];
                values[w] = values[r];
                w++;
            }
        }
        boolean removed = w != size;
        for (int i = w; i < size; i++) {
            names[i] = null;
            values[i] = null;
        }
        size = w;
        return removed;
    }

    /** The first value of this field, or {@code null}. */
    public String first(String name) {
        for (int i = 0; i < size; i++) {
            if (equalsIgnoreCase(names[i], name)) {
                return values[i];
            }
        }
        return null;
    }

    /** Whether a field of this name is present. */
    public boolean contains(String name) {
        return first(name) != null;
    }

    /** How many fields carry this name. */
    public int count(String name) {
        int n = 0;
        for (int i = 0; i < size; i++) {
            if (equalsIgnoreCase(names[i], name)) {
                n++;
            }
        }
        return n;
    }

    /** Every value of this field, in order; empty when absent. */
    public List<String> all(String name) {
        List<String> out = null;
        for (int i = 0; i < size; i++) {
            if (equalsIgnoreCase(names[i], name)) {
                if (out == null) {
                    out = new ArrayList<>(2);
                }
                out.add(values[i]);
            }
        }
        return out == null ? List.of() : Collections.unmodifiableList(out);
    }

    /** Whether a comma-separated field of this name lists {@code token} (case-insensitive). */
    public boolean hasToken(String name, String token) {
        for (int i = 0; i < size; i++) {
            if (equalsIgnoreCase(names[i], name) && listContains(values[i], token)) {
                return true;
            }
        }
        return false;
    }

    /** Calls {@code action} for every field in order. */
    public void forEach(BiConsumer<String, String> action) {
        for (int i = 0; i < size; i++) {
            action.accept(names[i], values[i]);
        }
    }

    /** Removes every field. */
    public void clear() {
        Arrays.fill(names, 0, size, null);
        Arrays.fill(values, 0, size, null);
        size = 0;
    }

    /** ASCII case-insensitive comparison (header names are ASCII tokens). */
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
        for (int i = 0; i < size; i++) {
            sb.append(names[i]).append(": ").append(values[i]).append('\n');
        }
        return sb.toString();
    }
}
