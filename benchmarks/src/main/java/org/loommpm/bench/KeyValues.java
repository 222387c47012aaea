package org.loommpm.bench;

import java.util.HashMap;
import java.util.Map;

/** A {@code TAG key=value key=value ...} line as printed by {@link OpenLoop} and {@link StartupTime}. */
record KeyValues(String tag, Map<String, String> values) {

    /** Parses the last line of {@code text} that starts with {@code tag}, or returns {@code null}. */
    static KeyValues last(String text, String tag) {
        KeyValues found = null;
        for (String line : text.split("\n")) {
            if (line.startsWith(tag + " ")) {
                Map<String, String> m = new HashMap<>();
                for (String part : line.substring(tag.length() + 1).trim().split("\\s+")) {
                    int eq = part.indexOf('=');
                    if (eq > 0) {
                        m.put(part.substring(0, eq), part.substring(eq + 1));
                    }
                }
                found = new KeyValues(tag, m);
            }
        }
        return found;
    }

    /** The value as a number, {@code NaN} when absent or not a number. */
    double number(String key) {
        try {
            return Double.parseDouble(values.getOrDefault(key, "NaN"));
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }
}
