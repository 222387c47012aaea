package org.loommpm.cli.config;

import static org.loommpm.cli.config.DirectiveTable.SERVER;

import java.util.ArrayList;
import java.util.List;
import org.loommpm.compress.CompressionSettings;
import org.loommpm.compress.ContentCoding;

/**
 * mod_deflate's and mod_brotli's directives: which responses are compressed
 * ({@code AddOutputFilterByType}, {@code SetOutputFilter}, with the filters {@code DEFLATE} and
 * {@code BROTLI_COMPRESS}) and how hard, plus loom-mpm's {@code CompressionMinimumSize}. Kept as
 * a {@link CompressionSettings.Builder} under {@link #KEY} in the parse state.
 */
public final class CompressionDirectives {
    /** The parse-state extension key; its value is a {@link CompressionSettings.Builder}. */
    public static final String KEY = "compression";

    private CompressionDirectives() {
    }

    /** The directives; one enum rather than a lambda each (see {@link EngineDirectives.D}). */
    enum D implements DirectiveTable.Action {
        ADD_OUTPUT_FILTER_BY_TYPE("AddOutputFilterByType", 2, Integer.MAX_VALUE, "filter[;filter] media-type ..."),
        SET_OUTPUT_FILTER("SetOutputFilter", 1, 1, "filter[;filter]"),
        DEFLATE_COMPRESSION_LEVEL("DeflateCompressionLevel", 1, 1, "1-9"),
        BROTLI_COMPRESSION_QUALITY("BrotliCompressionQuality", 1, 1, "0-11"),
        COMPRESSION_MINIMUM_SIZE("CompressionMinimumSize", 1, 1, "bytes");

        final String directive;
        final int min;
        final int max;
        final String syntax;

        D(String directive, int min, int max, String syntax) {
            this.directive = directive;
            this.min = min;
            this.max = max;
            this.syntax = syntax;
        }

        @Override
        public void apply(ParseState s, ConfigLine l) throws ConfigException {
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
    }

    static void register(DirectiveTable t) {
        for (D d : D.values()) {
            t.register(d.directive, d.min, d.max, SERVER, d.syntax, d);
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
}
