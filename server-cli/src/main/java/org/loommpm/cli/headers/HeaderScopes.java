package org.loommpm.cli.headers;

import java.util.ArrayList;
import java.util.List;
import org.loommpm.cli.location.LocationScopes;

/**
 * The {@code Header} and {@code RequestHeader} lines by scope: the server level and each
 * {@code <Location>} section that has any, merged per request path as mod_headers merges
 * per-directory configuration: the rules of the server level, then those of every matching
 * section in file order, all of them applied in that order (an inner, later section's rule runs
 * after, and so overrides, an outer one's). Filled while the configuration is read; read-only
 * afterwards, the merged lists cached per set of matching sections (a concurrent map): any
 * thread.
 */
public final class HeaderScopes {
    /** The parse-state extension key. */
    public static final String KEY = "headers";

    /**
     * The rules for one request, in the order they apply.
     *
     * @param request the {@code RequestHeader} rules
     * @param response the {@code Header} rules
     */
    public record Rules(HeaderRule[] request, HeaderRule[] response) {
    }

    /** One scope's rules, in file order. */
    private record Scope(List<HeaderRule> request, List<HeaderRule> response) {
        Scope() {
            this(new ArrayList<>(), new ArrayList<>());
        }
    }

    private final LocationScopes<Scope, Rules> scopes = new LocationScopes<>(Scope::new, HeaderScopes::merge);

    /**
     * Adds a rule read from the configuration.
     *
     * @param path the open {@code <Location>}'s path, or null at the server level
     * @param section the open section (each {@code <Location>} opening is a scope of its own,
     *     even when another has the same path), or null at the server level
     * @param rule the rule
     * @param request a {@code RequestHeader} rule rather than a {@code Header} one
     */
    public void add(String path, Object section, HeaderRule rule, boolean request) {
        Scope sc = scopes.scope(path, section);
        (request ? sc.request : sc.response).add(rule);
    }

    /**
     * The rules for a request path: the server level's, then those of every matching section.
     *
     * @param normalizedPath the request's normalized path, or null (then the server level's only)
     * @return the rules
     */
    public Rules rulesFor(String normalizedPath) {
        return scopes.forPath(normalizedPath);
    }

    /** {@return whether any {@code <Location>} has a rule (else the server level's apply to every path)} */
    public boolean scoped() {
        return scopes.scoped();
    }

    /** The scopes in order (the server level first), each one's rules after the previous'. */
    private static Rules merge(List<Scope> chain) {
        List<HeaderRule> request = new ArrayList<>();
        List<HeaderRule> response = new ArrayList<>();
        for (Scope sc : chain) {
            request.addAll(sc.request);
            response.addAll(sc.response);
        }
        return new Rules(request.toArray(new HeaderRule[0]), response.toArray(new HeaderRule[0]));
    }
}
