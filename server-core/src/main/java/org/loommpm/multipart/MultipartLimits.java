package org.loommpm.multipart;

import java.nio.file.Path;

/**
 * What a {@link MultipartReader} accepts and how it stores parts. Every dimension a client
 * controls is bounded: a limit passed fails the read with a {@link MultipartException} 413.
 * Sizes of 0 mean "no limit of this reader's own": the server's {@code LimitRequestBody} (1 GiB
 * by default) still bounds the whole body, as it bounds every body.
 *
 * @param maxPartSize the most content bytes of one part, 0 = none (LM2728); default 0
 * @param maxRequestSize the most bytes of the whole body, framing included, 0 = none (LM2729);
 *                       default 0 (LimitRequestBody bounds it)
 * @param maxParts the most parts (at least 1; LM2727); default 1,000
 * @param maxPartHeaderBytes the most bytes of one part's header block, its line endings and the
 *                           padding after its boundary included (at least 64; LM2726); default 16 KiB
 * @param spoolThreshold the bytes of stored parts ({@link MultipartReader#readAll()}) held in
 *                       memory per reader: a part that would take the total past it is written to
 *                       a temporary file instead, so a request's stored parts never hold more
 *                       memory than this. 0 spools every stored part; default 64 KiB
 * @param spoolDirectory where temporary files go, or {@code null} for {@code java.io.tmpdir}
 *                       (read when a file is made); default {@code null}
 * @param maxTextSize the most bytes {@link Part#text()} reads into memory (at least 1; LM2730);
 *                    default 64 KiB
 */
public record MultipartLimits(long maxPartSize, long maxRequestSize, int maxParts, int maxPartHeaderBytes,
                              long spoolThreshold, Path spoolDirectory, int maxTextSize) {
    /** The defaults, as each component says. */
    public static final MultipartLimits DEFAULTS =
            new MultipartLimits(0, 0, 1000, 16 * 1024, 64 * 1024, null, 64 * 1024);

    /**
     * Checks the limits.
     *
     * @throws IllegalArgumentException when a limit is outside its range
     */
    public MultipartLimits {
        if (maxPartSize < 0 || maxRequestSize < 0 || spoolThreshold < 0) {
            throw new IllegalArgumentException("sizes must be 0 or more: maxPartSize " + maxPartSize
                    + ", maxRequestSize " + maxRequestSize + ", spoolThreshold " + spoolThreshold);
        }
        if (maxParts < 1) {
            throw new IllegalArgumentException("maxParts must be at least 1: " + maxParts);
        }
        if (maxPartHeaderBytes < 64) {
            throw new IllegalArgumentException("maxPartHeaderBytes must be at least 64: " + maxPartHeaderBytes);
        }
        if (maxTextSize < 1) {
            throw new IllegalArgumentException("maxTextSize must be at least 1: " + maxTextSize);
        }
    }

    /**
     * These limits with another part size limit.
     *
     * @param maxPartSize the most content bytes of one part, 0 = none
     * @return the new limits
     */
    public MultipartLimits withMaxPartSize(long maxPartSize) {
        return new MultipartLimits(maxPartSize, maxRequestSize, maxParts, maxPartHeaderBytes, spoolThreshold,
                spoolDirectory, maxTextSize);
    }

    /**
     * These limits with another body size limit.
     *
     * @param maxRequestSize the most bytes of the whole body, 0 = none
     * @return the new limits
     */
    public MultipartLimits withMaxRequestSize(long maxRequestSize) {
        return new MultipartLimits(maxPartSize, maxRequestSize, maxParts, maxPartHeaderBytes, spoolThreshold,
                spoolDirectory, maxTextSize);
    }

    /**
     * These limits with another part count limit.
     *
     * @param maxParts the most parts
     * @return the new limits
     */
    public MultipartLimits withMaxParts(int maxParts) {
        return new MultipartLimits(maxPartSize, maxRequestSize, maxParts, maxPartHeaderBytes, spoolThreshold,
                spoolDirectory, maxTextSize);
    }

    /**
     * These limits with another part header limit.
     *
     * @param maxPartHeaderBytes the most bytes of one part's header block
     * @return the new limits
     */
    public MultipartLimits withMaxPartHeaderBytes(int maxPartHeaderBytes) {
        return new MultipartLimits(maxPartSize, maxRequestSize, maxParts, maxPartHeaderBytes, spoolThreshold,
                spoolDirectory, maxTextSize);
    }

    /**
     * These limits with another spool threshold.
     *
     * @param spoolThreshold the bytes of stored parts held in memory, 0 = spool every stored part
     * @return the new limits
     */
    public MultipartLimits withSpoolThreshold(long spoolThreshold) {
        return new MultipartLimits(maxPartSize, maxRequestSize, maxParts, maxPartHeaderBytes, spoolThreshold,
                spoolDirectory, maxTextSize);
    }

    /**
     * These limits with another spool directory.
     *
     * @param spoolDirectory where temporary files go, or {@code null} for {@code java.io.tmpdir}
     * @return the new limits
     */
    public MultipartLimits withSpoolDirectory(Path spoolDirectory) {
        return new MultipartLimits(maxPartSize, maxRequestSize, maxParts, maxPartHeaderBytes, spoolThreshold,
                spoolDirectory, maxTextSize);
    }

    /**
     * These limits with another text size limit.
     *
     * @param maxTextSize the most bytes {@link Part#text()} reads
     * @return the new limits
     */
    public MultipartLimits withMaxTextSize(int maxTextSize) {
        return new MultipartLimits(maxPartSize, maxRequestSize, maxParts, maxPartHeaderBytes, spoolThreshold,
                spoolDirectory, maxTextSize);
    }
}
