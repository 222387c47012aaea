package org.loommpm.staticfiles.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * Parses a {@code Range: bytes=...} header against a file size (RFC 9110 §14.1.2).
 */
final class ByteRanges {
    /** Most ranges served as multipart; more (a known amplification trick) get the whole file. */
    static final int MAX_RANGES = 16;

    /** One satisfiable range, inclusive bounds. */
    record Range(long first, long last) {
        long length() {
            return last - first + 1;
        }
    }

    /** The header is absent, malformed or not worth honouring: send the whole file (200). */
    static final List<Range> WHOLE = List.of();
    /** Every range is unsatisfiable: 416. */
    static final List<Range> UNSATISFIABLE = List.of(new Range(-1, -1));

    private ByteRanges() {
    }

    /**
     * @return the ranges in request order, {@link #WHOLE} or {@link #UNSATISFIABLE}
     */
    static List<Range> parse(String header, long size) {
        if (header == null) {
            return WHOLE;
        }
        String h = header.trim();
        if (!h.regionMatches(true, 0, "bytes=", 0, 6)) {
            return WHOLE; // an unknown unit is ignored, as RFC 9110 allows
        }
        List<Range> out = new ArrayList<>(2);
        boolean any = false;
        for (String spec : h.substring(6).split(",")) {
            String s = spec.trim();
            if (s.isEmpty()) {
                continue;
            }
            any = true;
            int dash = s.indexOf('-');
            if (dash < 0) {
                return WHOLE;
            }
            long first;
            long last;
            try {
                if (dash == 0) {
                    long suffix = digits(s.substring(1));
                    if (suffix == 0) {
                        continue; // bytes=-0 cannot be satisfied
                    }
                    if (size == 0) {
                        // Satisfiable (RFC 9110 §14.1.1), yet no 206 can carry zero bytes: ignored.
                        return WHOLE;
                    }
                    first = Math.max(0, size - suffix);
                    last = size - 1;
                } else {
                    first = digits(s.substring(0, dash));
                    String l = s.substring(dash + 1);
                    last = l.isEmpty() ? size - 1 : Math.min(digits(l), size - 1);
                    if (!l.isEmpty() && digits(l) < first) {
                        return WHOLE; // invalid: last before first
                    }
                }
            } catch (NumberFormatException e) {
                return WHOLE;
            }
            if (first < size && first <= last) {
                out.add(new Range(first, last));
            }
        }
        if (!any) {
            return WHOLE;
        }
        if (out.isEmpty()) {
            return UNSATISFIABLE;
        }
        if (out.size() > MAX_RANGES || (out.size() > 1 && overlapping(out))) {
            return WHOLE;
        }
        return out;
    }

    /**
     * A position or suffix length; one beyond a long (valid syntax, and larger than any file)
     * saturates to {@link Long#MAX_VALUE}, so a far last-pos is clamped to the end and a far
     * first-pos is unsatisfiable, as RFC 9110 §14.1.2 has it.
     */
    private static long digits(String s) {
        if (s.isEmpty()) {
            throw new NumberFormatException(s);
        }
        int start = -1;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                throw new NumberFormatException(s);
            }
            if (start < 0 && c != '0') {
                start = i;
            }
        }
        if (start < 0) {
            return 0;
        }
        return s.length() - start > 18 ? Long.MAX_VALUE : Long.parseLong(s, start, s.length(), 10);
    }

    /** Overlapping ranges could make a small file cost many times its size: refused. */
    private static boolean overlapping(List<Range> ranges) {
        List<Range> sorted = new ArrayList<>(ranges);
        sorted.sort((a, b) -> Long.compare(a.first(), b.first()));
        for (int i = 1; i < sorted.size(); i++) {
            if (sorted.get(i).first() <= sorted.get(i - 1).last()) {
                return true;
            }
        }
        return false;
    }
}
