package org.loommpm.cli.expires;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.loommpm.cli.location.LocationScopes;

/**
 * The {@code ExpiresActive}, {@code ExpiresByType} and {@code ExpiresDefault} lines by scope (the
 * server level and each {@code <Location>} that has any), merged per request path as mod_expires
 * merges them: {@code ExpiresActive} and {@code ExpiresDefault} from the most specific scope that
 * sets them, {@code ExpiresByType} entries overlaid type by type. Filled while the configuration
 * is read; read-only afterwards (merges cached in a concurrent map): any thread.
 */
public final class ExpiresScopes {
    /** The parse-state extension key. */
    public static final String KEY = "expires";

    /**
     * What applies to one request.
     *
     * @param byType codes by media type (lower case, without parameters; {@code text/*} entries too)
     * @param fallback {@code ExpiresDefault}, or null
     */
    public record Policy(Map<String, ExpiresCode> byType, ExpiresCode fallback) {
        /** Nothing to set. */
        static final Policy NONE = new Policy(Map.of(), null);

        /** {@return the code for a Content-Type (parameters ignored), or null} */
        public ExpiresCode codeFor(String contentType) {
            if (contentType != null && !byType.isEmpty()) {
                int semi = contentType.indexOf(';');
                String type = (semi < 0 ? contentType : contentType.substring(0, semi)).strip().toLowerCase(Locale.ROOT);
                ExpiresCode c = byType.get(type);
                if (c != null) {
                    return c;
                }
                int slash = type.indexOf('/');
                if (slash >= 0) {
                    c = byType.get(type.substring(0, slash + 1) + "*");
                    if (c != null) {
                        return c;
                    }
                }
            }
            return fallback;
        }
    }

    private static final class Scope {
        Boolean active;
        ExpiresCode fallback;
        final Map<String, ExpiresCode> byType = new HashMap<>();
    }

    private final LocationScopes<Scope, Policy> scopes = new LocationScopes<>(Scope::new, ExpiresScopes::merge);

    /** {@code ExpiresActive On|Off} in a scope ({@code path} and {@code section} null: the server level). */
    public void active(String path, Object section, boolean on) {
        scopes.scope(path, section).active = on;
    }

    /** {@code ExpiresDefault code} in a scope. */
    public void fallback(String path, Object section, ExpiresCode code) {
        scopes.scope(path, section).fallback = code;
    }

    /** {@code ExpiresByType type code} in a scope. */
    public void byType(String path, Object section, String type, ExpiresCode code) {
        scopes.scope(path, section).byType.put(type.toLowerCase(Locale.ROOT), code);
    }

    /** {@return the policy for a normalized request path (null: the server level's)} */
    public Policy policyFor(String normalizedPath) {
        return scopes.forPath(normalizedPath);
    }

    /** {@return whether any {@code <Location>} has a line (else the server level's apply everywhere)} */
    public boolean scoped() {
        return scopes.scoped();
    }

    private static Policy merge(List<Scope> chain) {
        boolean active = false;
        ExpiresCode fallback = null;
        Map<String, ExpiresCode> byType = new HashMap<>();
        for (Scope s : chain) {
            active = s.active != null ? s.active : active;
            fallback = s.fallback != null ? s.fallback : fallback;
            byType.putAll(s.byType);
        }
        return !active || byType.isEmpty() && fallback == null ? Policy.NONE : new Policy(Map.copyOf(byType), fallback);
    }
}
