package org.loommpm.cli.config;

import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.loommpm.cli.location.LocationScopes;
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
        final Map<String, EnumSet<ContentCoding>> byType = new LinkedHashMap<>();
        EnumSet<ContentCoding> allTypes;
        boolean none;
        Integer gzipLevel;
        Integer brotliQuality;
        Integer minimumSize;
    }

    private final LocationScopes<Scope, CompressionSettings> scopes =
            new LocationScopes<>(Scope::new, CompressionScopes::merge);

    /** {@return the scope a directive applies to: the open {@code <Location>} section's, else the server's} */
    Scope scope(ParseState s) {
        return scopes.scope(s.locationPath(), s.location);
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
        return scopes.scoped();
    }

    /** {@return the server level's settings} */
    public CompressionSettings serverSettings() {
        return scopes.serverLevel();
    }

    /**
     * The settings for a request path: the server level merged with every matching section.
     *
     * @param normalizedPath the request's normalized path, or {@code null} (then the server level)
     * @return the settings
     */
    public CompressionSettings settingsFor(String normalizedPath) {
        return scopes.forPath(normalizedPath);
    }

    /** The scopes in order: the server level, then the matching sections in file order. */
    private static CompressionSettings merge(List<Scope> chain) {
        Map<String, EnumSet<ContentCoding>> byType = new LinkedHashMap<>();
        EnumSet<ContentCoding> allTypes = EnumSet.noneOf(ContentCoding.class);
        int level = CompressionSettings.DEFAULT_GZIP_LEVEL;
        int quality = CompressionSettings.DEFAULT_BROTLI_QUALITY;
        int minimum = CompressionSettings.DEFAULT_MINIMUM_SIZE;
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
