package org.loommpm.form;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The fields of a form, in the order they were sent: an immutable multimap, a name with every
 * value it was given (an HTML form sends a name once per checked box or selected option). Names
 * are case-sensitive, as HTML's are. Thread-safe (immutable).
 */
public final class FormData {
    private static final FormData EMPTY = new FormData(new String[0], new String[0]);

    /** Field {@code i} is {@code names[i]=values[i]}, in the order sent. */
    private final String[] names;
    private final String[] values;
    /** The grouped view, built on first use: most handlers ask for a field or two. */
    private Map<String, List<String>> map;

    private FormData(String[] names, String[] values) {
        this.names = names;
        this.values = values;
    }

    /** {@return a form with no fields} */
    public static FormData empty() {
        return EMPTY;
    }

    /** {@return a builder of a form, for tests and for encoding one ({@link UrlEncodedForm#encode})} */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The first value of a field.
     *
     * @param name the field's name (case-sensitive)
     * @return its first value, or {@code null} when the form has no such field
     */
    public String first(String name) {
        for (int i = 0; i < names.length; i++) {
            if (names[i].equals(name)) {
                return values[i];
            }
        }
        return null;
    }

    /**
     * Every value of a field, in the order sent.
     *
     * @param name the field's name (case-sensitive)
     * @return its values (immutable), empty when the form has no such field
     */
    public List<String> all(String name) {
        List<String> v = asMap().get(name);
        return v == null ? List.of() : v;
    }

    /**
     * Whether the form has a field.
     *
     * @param name the field's name (case-sensitive)
     * @return whether it was sent at least once
     */
    public boolean contains(String name) {
        return first(name) != null;
    }

    /** {@return the field names, each once, in the order of their first appearance (immutable)} */
    public Set<String> names() {
        return asMap().keySet();
    }

    /** {@return every name with its values, in the order of first appearance (immutable)} */
    public Map<String, List<String>> asMap() {
        Map<String, List<String>> m = map;
        if (m == null) {
            Map<String, List<String>> grouped = new LinkedHashMap<>();
            for (int i = 0; i < names.length; i++) {
                grouped.computeIfAbsent(names[i], k -> new ArrayList<>(1)).add(values[i]);
            }
            grouped.replaceAll((k, v) -> List.copyOf(v));
            m = Collections.unmodifiableMap(grouped);
            map = m; // a benign race: every thread builds an equal map
        }
        return m;
    }

    /** {@return the number of fields, a repeated name counted once per value} */
    public int size() {
        return names.length;
    }

    /** {@return whether the form has no field} */
    public boolean isEmpty() {
        return names.length == 0;
    }

    /**
     * The name of field {@code i}, in the order sent.
     *
     * @param i the field's index, 0 to {@link #size()} - 1
     * @return its name
     * @throws IndexOutOfBoundsException when there is no such field
     */
    public String name(int i) {
        return names[Objects.checkIndex(i, names.length)];
    }

    /**
     * The value of field {@code i}, in the order sent.
     *
     * @param i the field's index, 0 to {@link #size()} - 1
     * @return its value
     * @throws IndexOutOfBoundsException when there is no such field
     */
    public String value(int i) {
        return values[Objects.checkIndex(i, values.length)];
    }

    /** Equal when both have the same fields in the same order. */
    @Override
    public boolean equals(Object o) {
        return o instanceof FormData f && java.util.Arrays.equals(names, f.names)
                && java.util.Arrays.equals(values, f.values);
    }

    @Override
    public int hashCode() {
        return 31 * java.util.Arrays.hashCode(names) + java.util.Arrays.hashCode(values);
    }

    /** The fields as {@code name=value} pairs, unencoded: for debugging, not for the wire. */
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("FormData[");
        for (int i = 0; i < names.length; i++) {
            b.append(i == 0 ? "" : ", ").append(names[i]).append('=').append(values[i]);
        }
        return b.append(']').toString();
    }

    /** Collects fields in order; not thread-safe. */
    public static final class Builder {
        private final List<String> names = new ArrayList<>();
        private final List<String> values = new ArrayList<>();

        private Builder() {
        }

        /**
         * Adds a field after those added before (a name may be added more than once).
         *
         * @param name the field's name
         * @param value its value
         * @return this builder
         * @throws NullPointerException when either is null
         */
        public Builder add(String name, String value) {
            names.add(Objects.requireNonNull(name, "name"));
            values.add(Objects.requireNonNull(value, "value"));
            return this;
        }

        /** {@return the form of the fields added so far} */
        public FormData build() {
            return names.isEmpty() ? EMPTY
                    : new FormData(names.toArray(String[]::new), values.toArray(String[]::new));
        }
    }
}
