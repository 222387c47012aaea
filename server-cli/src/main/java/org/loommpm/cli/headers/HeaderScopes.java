package org.loommpm.cli.headers;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.loommpm.cli.config.LocationSettings;

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

    /** One scope's rules; {@code match} is null for the server level. */
    private record Scope(LocationSettings match, Object section, List<HeaderRule> request,
                         List<HeaderRule> response) {
    }

    private final Scope server = new Scope(null, null, new ArrayList<>(), new ArrayList<>());
    private final List<Scope> locations = new ArrayList<>();
    private final Map<Long, Rules> merged = new ConcurrentHashMap<>();

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
        Scope sc = server;
        if (path != null) {
            sc = locations.isEmpty() ? null : locations.get(locations.size() - 1);
            if (sc == null || sc.section != section) {
                sc = new Scope(new LocationSettings(path, null, null), section, new ArrayList<>(), new ArrayList<>());
                locations.add(sc);
            }
        }
        (request ? sc.request : sc.response).add(rule);
    }

    /**
     * The rules for a request path: the server level's, then those of every matching section.
     *
     * @param normalizedPath the request's normalized path, or null (then the server level's only)
     * @return the rules
     */
    public Rules rulesFor(String normalizedPath) {
        if (normalizedPath == null) {
            return rulesFor(0L);
        }
        if (locations.size() > 63) {
            // More sections than the cache key has bits: merged afresh.
            return merge(locations.stream().filter(sc -> sc.match.matches(normalizedPath)).toList());
        }
        long mask = 0;
        for (int i = 0; i < locations.size(); i++) {
            if (locations.get(i).match.matches(normalizedPath)) {
                mask |= 1L << i;
            }
        }
        return rulesFor(mask);
    }

    private Rules rulesFor(long mask) {
        return merged.computeIfAbsent(mask, m -> {
            List<Scope> in = new ArrayList<>();
            for (int i = 0; i < locations.size(); i++) {
                if ((m & 1L << i) != 0) {
                    in.add(locations.get(i));
                }
            }
            return merge(in);
        });
    }

    private Rules merge(List<Scope> sections) {
        List<HeaderRule> request = new ArrayList<>(server.request);
        List<HeaderRule> response = new ArrayList<>(server.response);
        for (Scope sc : sections) {
            request.addAll(sc.request);
            response.addAll(sc.response);
        }
        return new Rules(request.toArray(new HeaderRule[0]), response.toArray(new HeaderRule[0]));
    }
}
