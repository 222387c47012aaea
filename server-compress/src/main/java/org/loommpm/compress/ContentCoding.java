package org.loommpm.compress;

import java.io.IOException;
import java.io.OutputStream;
import java.util.zip.GZIPOutputStream;

/**
 * A content coding the server can apply on the fly: gzip (the JDK's {@code Deflater}) or brotli
 * ({@link Brotli}, when its native library loads). Each makes a stream that compresses into the
 * response body and whose {@code flush()} pushes out everything written so far (a gzip sync
 * flush, a brotli flush), so a handler that flushes (server-sent events) is not held back.
 */
public enum ContentCoding {
    /** {@code gzip}: httpd's {@code DEFLATE} filter. */
    GZIP("gzip", "DEFLATE"),
    /** {@code br}: httpd's {@code BROTLI_COMPRESS} filter. */
    BROTLI("br", "BROTLI_COMPRESS");

    private final String token;
    private final String filterName;

    ContentCoding(String token, String filterName) {
        this.token = token;
        this.filterName = filterName;
    }

    /** {@return the {@code Content-Encoding} token ({@code gzip}, {@code br})} */
    public String token() {
        return token;
    }

    /** {@return httpd's output filter name ({@code DEFLATE}, {@code BROTLI_COMPRESS})} */
    public String filterName() {
        return filterName;
    }

    /**
     * The coding of an httpd output filter name, as {@code AddOutputFilterByType} names it.
     *
     * @param name the filter name, any case
     * @return the coding, or null if {@code name} is not a compression filter
     */
    public static ContentCoding ofFilterName(String name) {
        for (ContentCoding c : values()) {
            if (c.filterName.equalsIgnoreCase(name)) {
                return c;
            }
        }
        return null;
    }

    /**
     * A compressing stream into {@code out} at {@code level} (gzip 1-9, brotli quality 0-11);
     * closing it finishes the coding and closes {@code out}.
     */
    OutputStream open(OutputStream out, int level) throws IOException {
        return switch (this) {
            case GZIP -> new LevelGzip(out, level);
            case BROTLI -> Brotli.open(out, level);
        };
    }

    /** {@link GZIPOutputStream} at a chosen level, with sync flush. */
    private static final class LevelGzip extends GZIPOutputStream {
        LevelGzip(OutputStream out, int level) throws IOException {
            super(out, 8192, true);
            def.setLevel(level);
        }
    }
}
