package org.loommpm.cli.config;

import static org.loommpm.cli.config.DirectiveTable.SERVER_OR_LOCATION;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.loommpm.compress.CompressionSettings;
import org.loommpm.compress.ContentCoding;

/**
 * mod_deflate's and mod_brotli's directives: which responses are compressed
 * ({@code AddOutputFilterByType}, {@code SetOutputFilter}, with the filters {@code DEFLATE} and
 * {@code BROTLI_COMPRESS}) and how hard, plus loom-mpm's {@code CompressionMinimumSize}. Valid at
 * the server level and in {@code <Location>} sections, merged per request path
 * ({@link CompressionScopes}, under {@link CompressionScopes#KEY}); the server level is also kept
 * as a {@link CompressionSettings.Builder} under {@link #KEY} in the parse state.
 */
public final class CompressionDirectives {
    /** The parse-state extension key; its value is a {@link CompressionSettings.Builder}. */
    public static final String KEY = "compression";

    private CompressionDirectives() {
    }

    /** The directives; one enum rather than a lambda each (see {@link EngineDirectives.D}). */
    enum D implements DirectiveTable.Action {
        ADD_OUTPUT_FILTER_BY_TYPE("AddOutputFilterByType", 2, Integer.MAX_VALUE, "filter[;filter] media-type ..."),
        SET_OUTPUT_FILTER("SetOutputFilter", 1, 1, "filter[;filter]|none"),
        DEFLATE_COMPRESSION_LEVEL("DeflateCompressionLevel", 1, 1, "1-9"),
        BROTLI_COMPRESSION_QUALITY("BrotliCompressionQuality", 1, 1, "0-11"),
        COMPRESSION_MINIMUM_SIZE("CompressionMinimumSize", 1, 1, "bytes");

        @Override
        public void apply(ParseState s, ConfigLine l) throws ConfigException {
            CompressionScopes.Scope scope = s.extension(CompressionScopes.KEY, CompressionScopes::new).scope(s);
            applyTo(scope, s.location != null, l);
            if (s.locationPath() != null) {
                return;
            }
            CompressionSettings.Builder b = s.extension(KEY, CompressionSettings::builder);
            switch (this) {
                case ADD_OUTPUT_FILTER_BY_TYPE -> {
                    List<String> types = l.args().subList(1, l.args().size());
                    for (ContentCoding c : filters(l, l.args().get(0))) {
                        try {
                            b.types(c, types.toArray(String[]::new));
                        } catch (IllegalArgumentException e) {
                            throw l.error(l.name() + ": " + e.getMessage());
                        }
                    }
                }
                case SET_OUTPUT_FILTER -> {
                    for (ContentCoding c : filters(l, l.args().get(0))) {
                        b.allTypes(c);
                    }
                }
                case DEFLATE_COMPRESSION_LEVEL -> b.gzipLevel(Args.intArg(l, 1, 9));
                case BROTLI_COMPRESSION_QUALITY -> b.brotliQuality(Args.intArg(l, 0, 11));
                case COMPRESSION_MINIMUM_SIZE -> b.minimumSize(Args.intArg(l, 0, Integer.MAX_VALUE));
            }
        }

        /** Records the directive in its scope (validated as for the server level). */
        private void applyTo(CompressionScopes.Scope scope, boolean inLocation, ConfigLine l) throws ConfigException {
            switch (this) {
                case ADD_OUTPUT_FILTER_BY_TYPE -> {
                    List<ContentCoding> codings = filters(l, l.args().get(0));
                    for (String t : l.args().subList(1, l.args().size())) {
                        try {
                            CompressionSettings.builder().types(ContentCoding.GZIP, t); // validates the type
                        } catch (IllegalArgumentException e) {
                            throw l.error(l.name() + ": " + e.getMessage());
                        }
                        scope.byType.computeIfAbsent(t.toLowerCase(java.util.Locale.ROOT).strip(),
                                k -> EnumSet.noneOf(ContentCoding.class)).addAll(codings);
                    }
                }
                case SET_OUTPUT_FILTER -> {
                    if (l.args().get(0).equalsIgnoreCase("none")) {
                        if (!inLocation) {
                            throw l.error("SetOutputFilter none is for a <Location> (it removes the filters "
                                    + "inherited from the server level there)");
                        }
                        scope.none = true;
                        scope.allTypes = null;
                        scope.byType.clear();
                    } else {
                        scope.allTypes = EnumSet.copyOf(filters(l, l.args().get(0)));
                    }
                }
                case DEFLATE_COMPRESSION_LEVEL -> scope.gzipLevel = Args.intArg(l, 1, 9);
                case BROTLI_COMPRESSION_QUALITY -> scope.brotliQuality = Args.intArg(l, 0, 11);
                case COMPRESSION_MINIMUM_SIZE -> scope.minimumSize = Args.intArg(l, 0, Integer.MAX_VALUE);
            }
        }

        final DirectiveSpec spec;

        D(String name, int min, int max, String syntax) {
            spec = new DirectiveSpec(name, min, max, SERVER_OR_LOCATION, syntax);
        }
    }

    /** {@code DEFLATE;BROTLI_COMPRESS}: the codings named, in order. */
    private static List<ContentCoding> filters(ConfigLine l, String spec) throws ConfigException {
        List<ContentCoding> out = new ArrayList<>();
        for (String name : spec.split(";")) {
            ContentCoding c = ContentCoding.ofFilterName(name.strip());
            if (c == null) {
                throw l.error(l.name() + ": unknown filter '" + name + "' (this server has DEFLATE and BROTLI_COMPRESS)");
            }
            out.add(c);
        }
        return out;
    }

    static void register(DirectiveTable t) {
        for (D d : D.values()) {
            t.register(d.spec, d);
        }
    }
}
