package org.loommpm.compress;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Benchmark fixture, not API: the codings exactly as {@link CompressingResponse} runs them, for
 * the JMH benchmarks (module benchmarks). Kept here, compiled with the filter, so a change of
 * the coding streams changes what is measured in the same commit.
 */
public final class CompressBenchFixture {
    private CompressBenchFixture() {
    }

    /** {@return whether brotli loaded in this JVM (else {@code br} would be served as gzip)} */
    public static boolean brotliAvailable() {
        return Brotli.available();
    }

    /**
     * Codes {@code body} whole with {@code coding} ({@code gzip} or {@code br}) at {@code level}
     * into {@code out} (reset first), as {@code Response.send(byte[])} does behind the filter.
     *
     * @param coding {@code br} for brotli; anything else codes gzip
     * @param level the gzip level (1-9) or brotli quality (0-11)
     * @param body the whole body
     * @param out receives the coded bytes; reset first
     * @throws IOException if the coding stream fails (brotli's native encoder)
     */
    public static void encode(String coding, int level, byte[] body, ByteArrayOutputStream out) throws IOException {
        ContentCoding c = coding.equals("br") ? ContentCoding.BROTLI : ContentCoding.GZIP;
        out.reset();
        try (OutputStream z = c.open(out, level)) {
            z.write(body);
        }
    }
}
