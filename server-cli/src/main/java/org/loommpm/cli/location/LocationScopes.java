package org.loommpm.cli.location;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What a family of directives sets by scope (the server level, and each {@code <Location>}
 * section that sets any of them) and its merge for a request path: the server level, then every
 * matching section in file order, as httpd merges per-directory configuration. The merge is
 * cached per set of matching sections (a bit mask of at most 63 sections; more are merged
 * afresh). Filled while the configuration is read; read-only afterwards, when {@link #forPath}
 * may run on any thread (the cache is a concurrent map).
 *
 * @param <S> what one scope sets, mutable while parsing
 * @param <R> the merged result one request uses
 */
public final class LocationScopes<S, R> {
    private final Supplier<S> newScope;
    private final Function<List<S>, R> merge;
    private final S server;
    private final List<S> locations = new ArrayList<>();
    /** Each of {@link #locations}' section path. */
    private final List<String> paths = new ArrayList<>();
    /** The section each of {@link #locations} was read from: each opening is a scope of its own. */
    private final List<Object> sections = new ArrayList<>();
    private final Map<Long, R> merged = new ConcurrentHashMap<>();

    /**
     * @param newScope makes an empty scope
     * @param merge merges scopes given in order (the server level first): the result for a request
     */
    public LocationScopes(Supplier<S> newScope, Function<List<S>, R> merge) {
        this.newScope = newScope;
        this.merge = merge;
        this.server = newScope.get();
    }

    /**
     * The scope a directive read now applies to: the open section's (made on its first
     * directive), else the server level's.
     *
     * @param path the open {@code <Location>}'s path, or {@code null} at the server level
     * @param section the open section, or {@code null} at the server level
     * @return the scope to fill
     */
    public S scope(String path, Object section) {
        if (section == null) {
            return server;
        }
        int last = sections.size() - 1;
        if (last >= 0 && sections.get(last) == section) {
            return locations.get(last);
        }
        S sc = newScope.get();
        locations.add(sc);
        paths.add(path);
        sections.add(section);
        return sc;
    }

    /** {@return whether any {@code <Location>} section sets something (else the server level applies everywhere)} */
    public boolean scoped() {
        return !locations.isEmpty();
    }

    /** {@return the merge of the server level alone} */
    public R serverLevel() {
        return forMask(0L);
    }

    /**
     * The merge for a request path: the server level, then every section matching it.
     *
     * @param normalizedPath the request's normalized path, or {@code null} (then the server level)
     * @return the merged result
     */
    public R forPath(String normalizedPath) {
        if (normalizedPath == null) {
            return serverLevel();
        }
        if (locations.size() > 63) {
            List<S> in = new ArrayList<>();
            for (int i = 0; i < locations.size(); i++) {
                if (LocationPath.matches(paths.get(i), normalizedPath)) {
                    in.add(locations.get(i));
                }
            }
            return mergeWithServer(in);
        }
        long mask = 0;
        for (int i = 0; i < locations.size(); i++) {
            if (LocationPath.matches(paths.get(i), normalizedPath)) {
                mask |= 1L << i;
            }
        }
        return forMask(mask);
    }

    /** The merge for the sections whose bits {@code mask} sets, cached per mask. */
    private R forMask(long mask) {
        return merged.computeIfAbsent(mask, m -> {
            List<S> in = new ArrayList<>();
            for (int i = 0; i < locations.size(); i++) {
                if ((m & 1L << i) != 0) {
                    in.add(locations.get(i));
                }
            }
            return mergeWithServer(in);
        });
    }

    private R mergeWithServer(List<S> sectionsInOrder) {
        List<S> chain = new ArrayList<>(sectionsInOrder.size() + 1);
        chain.add(server);
        chain.addAll(sectionsInOrder);
        return merge.apply(chain);
    }
}
