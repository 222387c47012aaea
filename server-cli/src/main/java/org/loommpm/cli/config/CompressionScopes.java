package org.loommpm.cli.config;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.loommpm.compress.CompressionSettings;
import org.loommpm.compress.ContentCoding;

/**
 * The compression directives by scope: the server level and each {@code <Location>} that sets
 * any, merged per request path as httpd merges per-directory configuration. The matching
 * sections apply in file order over the server level (a later, or inner, section wins):
 * {@code AddOutputFilterByType} adds its types to those inherited (mod_filter's merge),
 * {@code SetOutputFilter} replaces the inherited every-type filters (core's merge), and
 * {@code SetOutputFilter none} removes every inherited filter there (a loom-mpm spelling, as
 * {@code SetHandler none}); {@code DeflateCompressionLevel}, {@code BrotliCompressionQuality} and
 * {@code CompressionMinimumSize} replace the inherited value (in httpd the first two are
 * server-level only). Filled while parsing; read-only afterwards (the merged settings are cached
 * per set of matching sections in a concurrent map: any thread).
 */
public final class CompressionScopes {
    /** The parse-state extension key. */
    public static final String KEY = "compression.scopes";

    /** What one scope sets; {@code null} fields inherit. Parse-time only. */
    static final class Scope {
        final String path;
        /** {@link #path} as a matcher, built once (the merge runs per request). */
        final LocationSettings match;
        /** The section it was read from (each {@code <Location>} opening is a section of its own). */
        final Object section;
        final Map<String, EnumSet<ContentCoding>> byType = new LinkedHashMap<>();
        EnumSet<ContentCoding> allTypes;
        boolean none;
        Integer gzipLevel;
        Integer brotliQuality;
        Integer minimumSize;

        Scope(String path, Object section) {
            this.path = path;
            this.match = path == null ? null : new LocationSettings(path, null, null);
            this.section = section;
        }
    }

    final Scope server = new Scope(null, null);
    final List<Scope> locations = new ArrayList<>();
    private final Map<Long, CompressionSettings> merged = new ConcurrentHashMap<>();

    /** {@return the scope a directive applies to: the open {@code <Location>} section's, else the server's} */
    Scope scope(ParseState s) {
        if (s.location == null) {
            return server;
        }
        if (!locations.isEmpty() && locations.get(locations.size() - 1).section == s.location) {
            return locations.get(locations.size() - 1);
        }
        Scope sc = new Scope(s.location.path, s.location);
        locations.add(sc);
        return sc;
    }

    /**
     * The configuration's compression scopes, or {@code null} if no compression directive is set.
     *
     * @param c the configuration
     * @return the scopes, or null
     */
    public static CompressionScopes of(LoomConfig c) {
        return (CompressionScopes) c.extensions().get(KEY);
    }

    /** {@return whether any {@code <Location>} sets compression (else the server level applies everywhere)} */
    public boolean scoped() {
        return !locations.isEmpty();
    }

    /** {@return the server level's settings} */
    public CompressionSettings serverSettings() {
        return settingsFor(0L);
    }

    /**
     * The settings for a request path: the server level merged with every matching section.
     *
     * @param normalizedPath the request's normalized path, or {@code null} (then the server level)
     * @return the settings
     */
    public CompressionSettings settingsFor(String normalizedPath) {
        if (normalizedPath == null) {
            return serverSettings();
        }
        if (locations.size() > 63) {
            // More sections than the cache key has bits (64+ compression sections): merged afresh.
            return merge(locations.stream().filter(sc -> sc.match.matches(normalizedPath)).toList());
        }
        long mask = 0;
        for (int i = 0; i < locations.size(); i++) {
            if (locations.get(i).match.matches(normalizedPath)) {
                mask |= 1L << i;
            }
        }
        return settingsFor(mask);
    }

    /** The merge for the sections whose bits {@code mask} sets, cached per mask. */
    private CompressionSettings settingsFor(long mask) {
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

    /** The server level, then {@code sections} in file order. */
    private CompressionSettings merge(List<Scope> sections) {
        Map<String, EnumSet<ContentCoding>> byType = new LinkedHashMap<>();
        EnumSet<ContentCoding> allTypes = EnumSet.noneOf(ContentCoding.class);
        int level = CompressionSettings.DEFAULT_GZIP_LEVEL;
        int quality = CompressionSettings.DEFAULT_BROTLI_QUALITY;
        int minimum = CompressionSettings.DEFAULT_MINIMUM_SIZE;
        List<Scope> chain = new ArrayList<>();
        chain.add(server);
        chain.addAll(sections);
        for (Scope sc : chain) {
            if (sc.none) {
                byType.clear();
                allTypes.clear();
            }
            if (sc.allTypes != null) {
                allTypes = EnumSet.copyOf(sc.allTypes);
            }
            sc.byType.forEach((t, cs) -> byType.computeIfAbsent(t, k -> EnumSet.noneOf(ContentCoding.class)).addAll(cs));
            level = sc.gzipLevel != null ? sc.gzipLevel : level;
            quality = sc.brotliQuality != null ? sc.brotliQuality : quality;
            minimum = sc.minimumSize != null ? sc.minimumSize : minimum;
        }
        CompressionSettings.Builder b = CompressionSettings.builder().gzipLevel(level).brotliQuality(quality)
                .minimumSize(minimum);
        byType.forEach((t, cs) -> cs.forEach(c -> b.types(c, t)));
        allTypes.forEach(b::allTypes);
        return b.build();
    }
}
