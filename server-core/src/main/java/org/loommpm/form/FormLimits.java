package org.loommpm.form;

/**
 * How much of a form body {@code Request.form(FormLimits)} reads and decodes: the decoded form is
 * held in memory, so both are bounded. Past either limit the request is answered 413.
 *
 * @param maxBytes the most bytes of body read (1 to {@value #MAX_BYTES}); a larger body is
 *                 refused (LM2701), at once when its Content-Length says so
 * @param maxFields the most fields ({@code name=value} pairs) decoded (at least 1); one more is
 *                  refused (LM2702)
 */
public record FormLimits(long maxBytes, int maxFields) {
    /** The largest {@link #maxBytes} allowed: what one array can hold. */
    public static final long MAX_BYTES = Integer.MAX_VALUE - 16;

    /** 64 KiB and 1,000 fields: an HTML form's text fields, with room to spare (file uploads are multipart). */
    public static final FormLimits DEFAULTS = new FormLimits(64 * 1024, 1000);

    /**
     * Checks the limits.
     *
     * @throws IllegalArgumentException when a limit is outside its range
     */
    public FormLimits {
        if (maxBytes < 1 || maxBytes > MAX_BYTES) {
            throw new IllegalArgumentException("maxBytes must be 1 to " + MAX_BYTES + ": " + maxBytes);
        }
        if (maxFields < 1) {
            throw new IllegalArgumentException("maxFields must be at least 1: " + maxFields);
        }
    }

    /**
     * These limits with another byte limit.
     *
     * @param maxBytes the most bytes of body read
     * @return the new limits
     */
    public FormLimits withMaxBytes(long maxBytes) {
        return new FormLimits(maxBytes, maxFields);
    }

    /**
     * These limits with another field limit.
     *
     * @param maxFields the most fields decoded
     * @return the new limits
     */
    public FormLimits withMaxFields(int maxFields) {
        return new FormLimits(maxBytes, maxFields);
    }
}
