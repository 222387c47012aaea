package org.loommpm.compress;

import java.util.EnumSet;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What {@link CompressionFilter} compresses and how hard, with httpd's defaults. Immutable:
 * build one with {@link #builder()}.
 *
 * <p>Which responses: those whose media type (without parameters) was given to
 * {@link Builder#types} for a coding ({@code AddOutputFilterByType DEFLATE text/html}), or every
 * type for the codings given to {@link Builder#allTypes} ({@code SetOutputFilter DEFLATE}).
 */
public final class CompressionSettings {
    /** {@code DeflateCompressionLevel}'s default: zlib's own (httpd's default too). */
    public static final int DEFAULT_GZIP_LEVEL = 6;
    /** {@code BrotliCompressionQuality}'s default (mod_brotli's). */
    public static final int DEFAULT_BROTLI_QUALITY = 5;
    /**
     * {@code CompressionMinimumSize}'s default: below it a body is sent as it is (gzip's own
     * framing is 18 bytes, and a short body barely shrinks: the CPU is better spent elsewhere).
     */
    public static final int DEFAULT_MINIMUM_SIZE = 256;
    /** Nothing compressed. */
    public static final CompressionSettings NONE = builder().build();

    private final Map<String, Set<ContentCoding>> byType;
    private final Set<ContentCoding> allTypes;
    private final int gzipLevel;
    private final int brotliQuality;
    private final int minimumSize;

    private CompressionSettings(Builder b) {
        Map<String, Set<ContentCoding>> m = new HashMap<>();
        b.byType.forEach((k, v) -> m.put(k, Set.copyOf(v)));
        this.byType = Map.copyOf(m);
        this.allTypes = b.allTypes.isEmpty() ? Set.of() : Set.copyOf(b.allTypes);
        this.gzipLevel = b.gzipLevel;
        this.brotliQuality = b.brotliQuality;
        this.minimumSize = b.minimumSize;
    }

    /** {@return a builder with the defaults and nothing compressed} */
    public static Builder builder() {
        return new Builder();
    }

    /** {@return whether any response may be compressed} */
    public boolean enabled() {
        return !allTypes.isEmpty() || !byType.isEmpty();
    }

    /**
     * The codings configured for a {@code Content-Type} value: those given for its media type
     * plus those given for every type.
     *
     * @param contentType the response's {@code Content-Type} (parameters ignored), or null if it
     *                    has none (then only the every-type codings apply)
     * @return the codings, possibly empty
     */
    public Set<ContentCoding> codingsFor(String contentType) {
        if (!allTypes.isEmpty() && byType.isEmpty()) {
            return allTypes;
        }
        Set<ContentCoding> typed = contentType == null ? null : byType.get(mediaType(contentType));
        if (typed == null) {
            return allTypes;
        }
        if (allTypes.isEmpty()) {
            return typed;
        }
        EnumSet<ContentCoding> both = EnumSet.copyOf(typed);
        both.addAll(allTypes);
        return both;
    }

    /** {@return {@code DeflateCompressionLevel}, 1-9} */
    public int gzipLevel() {
        return gzipLevel;
    }

    /** {@return {@code BrotliCompressionQuality}, 0-11} */
    public int brotliQuality() {
        return brotliQuality;
    }

    /** {@return {@code CompressionMinimumSize}: bodies known to be shorter are not compressed} */
    public int minimumSize() {
        return minimumSize;
    }

    /** The level of {@code coding}. */
    int level(ContentCoding coding) {
        return coding == ContentCoding.GZIP ? gzipLevel : brotliQuality;
    }

    static String mediaType(String contentType) {
        int semi = contentType.indexOf(';');
        return (semi < 0 ? contentType : contentType.substring(0, semi)).strip().toLowerCase(Locale.ROOT);
    }

    /** Collects the settings. */
    public static final class Builder {
        private final Map<String, EnumSet<ContentCoding>> byType = new HashMap<>();
        private final EnumSet<ContentCoding> allTypes = EnumSet.noneOf(ContentCoding.class);
        private int gzipLevel = DEFAULT_GZIP_LEVEL;
        private int brotliQuality = DEFAULT_BROTLI_QUALITY;
        private int minimumSize = DEFAULT_MINIMUM_SIZE;

        private Builder() {
        }

        /**
         * {@code AddOutputFilterByType FILTER type…}: compress these media types with {@code coding}.
         *
         * @param coding the coding to apply
         * @param mediaTypes media types such as {@code text/html} (parameters ignored, any case)
         * @return this builder
         * @throws IllegalArgumentException if one is not a media type ({@code type/subtype})
         */
        public Builder types(ContentCoding coding, String... mediaTypes) {
            Objects.requireNonNull(coding);
            for (String t : mediaTypes) {
                String m = mediaType(t);
                if (m.indexOf('/') <= 0) {
                    throw new IllegalArgumentException("not a media type: '" + t + "'");
                }
                byType.computeIfAbsent(m, k -> EnumSet.noneOf(ContentCoding.class)).add(coding);
            }
            return this;
        }

        /**
         * {@code SetOutputFilter FILTER}: compress every type with {@code coding}.
         *
         * @param coding the coding to apply
         * @return this builder
         */
        public Builder allTypes(ContentCoding coding) {
            allTypes.add(Objects.requireNonNull(coding));
            return this;
        }

        /**
         * {@code DeflateCompressionLevel}: 1 (fastest) to 9 (smallest).
         *
         * @param level the gzip level
         * @return this builder
         * @throws IllegalArgumentException if {@code level} is outside 1-9
         */
        public Builder gzipLevel(int level) {
            if (level < 1 || level > 9) {
                throw new IllegalArgumentException("DeflateCompressionLevel must be 1-9, got " + level);
            }
            gzipLevel = level;
            return this;
        }

        /**
         * {@code BrotliCompressionQuality}: 0 (fastest) to 11 (smallest).
         *
         * @param quality the brotli quality
         * @return this builder
         * @throws IllegalArgumentException if {@code quality} is outside 0-11
         */
        public Builder brotliQuality(int quality) {
            if (quality < 0 || quality > 11) {
                throw new IllegalArgumentException("BrotliCompressionQuality must be 0-11, got " + quality);
            }
            brotliQuality = quality;
            return this;
        }

        /**
         * {@code CompressionMinimumSize}: bodies known to be shorter go out as they are.
         *
         * @param bytes the minimum body length to compress, 0 or more
         * @return this builder
         * @throws IllegalArgumentException if {@code bytes} is negative
         */
        public Builder minimumSize(int bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("CompressionMinimumSize must be at least 0, got " + bytes);
            }
            minimumSize = bytes;
            return this;
        }

        /** {@return the settings, immutable} */
        public CompressionSettings build() {
            return new CompressionSettings(this);
        }
    }
}
