package org.loommpm.cli.errordoc;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.loommpm.cli.location.LocationScopes;

/**
 * The {@code ErrorDocument} lines by scope (the server level and each {@code <Location>} that
 * has any), merged per request path status by status, an inner section's line replacing an outer
 * one's, as httpd merges them. Filled while the configuration is read; read-only afterwards
 * (merges cached in a concurrent map): any thread.
 */
public final class ErrorDocuments {
    /** The parse-state extension key. */
    public static final String KEY = "errordocuments";

    private final LocationScopes<Map<Integer, ErrorDocument>, Map<Integer, ErrorDocument>> scopes =
            new LocationScopes<>(HashMap::new, ErrorDocuments::merge);

    /**
     * Adds a line read from the configuration.
     *
     * @param path the open {@code <Location>}'s path, or null at the server level
     * @param section the open section, or null at the server level
     */
    public void add(String path, Object section, int status, ErrorDocument document) {
        scopes.scope(path, section).put(status, document);
    }

    /** {@return the answers for a normalized request path (null: the server level's), by status} */
    public Map<Integer, ErrorDocument> forPath(String normalizedPath) {
        return scopes.forPath(normalizedPath);
    }

    /** {@return whether any {@code <Location>} has a line} */
    public boolean scoped() {
        return scopes.scoped();
    }

    private static Map<Integer, ErrorDocument> merge(List<Map<Integer, ErrorDocument>> chain) {
        Map<Integer, ErrorDocument> m = new HashMap<>();
        for (Map<Integer, ErrorDocument> scope : chain) {
            m.putAll(scope);
        }
        return Map.copyOf(m);
    }
}
