package org.loommpm.negotiation;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A list of tokens or language ranges with q-values: {@code Accept-Encoding}
 * (RFC 9110 §12.5.3), {@code Accept-Charset}, {@code Accept-Language} (§12.5.4, with RFC 4647
 * language ranges). Immutable.
 *
 * <p>An empty list (no field, or nothing readable in it) gives every value quality 0: what an
 * absent field means depends on the field (any coding, any language), so the caller decides;
 * {@link Negotiation} and the request's {@code preferred...} methods take an absent field as
 * "anything". For {@code Accept-Encoding}, {@code identity} is acceptable unless excluded
 * ({@code identity;q=0}, or {@code *;q=0} without an {@code identity} entry): ask
 * {@link #quality(String)} only for real codings.
 */
public final class QualityList {
    /**
     * One element.
     *
     * @param value the token or language range as sent
     * @param quality its q-value in [0, 1] (0 when it could not be read)
     */
    public record Entry(String value, double quality) {
    }

    private static final QualityList EMPTY = new QualityList(List.of());

    private final List<Entry> entries;

    private QualityList(List<Entry> entries) {
        this.entries = entries;
    }

    /**
     * Reads a field value. Parameters other than {@code q} are ignored; empty elements are
     * skipped. Never throws.
     *
     * @param header the field value (several fields joined with commas), or null
     * @return the list, empty for null or nothing readable
     */
    public static QualityList parse(String header) {
        List<Lists.Element> elements = Lists.parse(header);
        if (elements.isEmpty()) {
            return EMPTY;
        }
        List<Entry> out = new ArrayList<>(elements.size());
        for (Lists.Element e : elements) {
            out.add(new Entry(e.value(), e.quality()));
        }
        return new QualityList(Collections.unmodifiableList(out));
    }

    /** {@return the entries in the order sent} */
    public List<Entry> entries() {
        return entries;
    }

    /** {@return whether nothing was listed (or the field was absent)} */
    public boolean isEmpty() {
        return entries.isEmpty();
    }

    /**
     * The q-value of a token: its own entry's (compared without regard to case; the first one when
     * it is listed twice), else the {@code *} entry's, else 0.
     *
     * @param token a token such as {@code gzip} or {@code utf-8}
     * @return the q-value in [0, 1]; above 0 means acceptable
     */
    public double quality(String token) {
        double star = -1;
        for (Entry e : entries) {
            if (e.value.equalsIgnoreCase(token)) {
                return e.quality;
            }
            if (star < 0 && e.value.equals("*")) {
                star = e.quality;
            }
        }
        return Math.max(star, 0);
    }

    /**
     * The q-value of a language tag ({@code en-GB}): the q-value of the most specific range that
     * matches it by RFC 4647 basic filtering ({@code en} matches {@code en} and {@code en-GB},
     * case-insensitively); when none does, the highest q-value of a range the tag is a prefix of
     * ({@code en} for a client asking {@code en-US}: RFC 4647 lookup's truncation); failing that,
     * the {@code *} entry's; else 0.
     *
     * @param tag a language tag
     * @return the q-value in [0, 1]; above 0 means acceptable
     */
    public double languageQuality(String tag) {
        return languageMatch(tag)[0];
    }

    /** {q, rank}: rank 2 + subtags for a filtering match, 1 for a truncation match, 0 for *, -1 none. */
    double[] languageMatch(String tag) {
        double bestQ = 0;
        int bestSubtags = 0;
        double prefixQ = -1;
        double star = -1;
        for (Entry e : entries) {
            String range = e.value;
            if (range.equals("*")) {
                star = star < 0 ? e.quality : star;
            } else if (covers(range, tag)) {
                int subtags = subtags(range);
                if (subtags > bestSubtags) {
                    bestSubtags = subtags;
                    bestQ = e.quality;
                }
            } else if (covers(tag, range)) {
                prefixQ = Math.max(prefixQ, e.quality);
            }
        }
        if (bestSubtags > 0) {
            return new double[] {bestQ, 2 + bestSubtags};
        }
        if (prefixQ >= 0) {
            return new double[] {prefixQ, 1};
        }
        return star >= 0 ? new double[] {star, 0} : new double[] {0, -1};
    }

    /** Whether {@code range} equals {@code tag} or is a prefix of it ending at a {@code -}. */
    private static boolean covers(String range, String tag) {
        return tag.regionMatches(true, 0, range, 0, range.length())
                && (tag.length() == range.length() || tag.charAt(range.length()) == '-');
    }

    private static int subtags(String range) {
        int n = 1;
        for (int i = 0; i < range.length(); i++) {
            n += range.charAt(i) == '-' ? 1 : 0;
        }
        return n;
    }

    /**
     * The offered token with the highest q-value above 0 (see {@link #quality(String)}); on a
     * tie, the one offered first.
     *
     * @param offers the tokens the server can send, in its order of preference
     * @return one of {@code offers}, or null when none is acceptable (or none is offered)
     */
    public String preferred(String... offers) {
        String best = null;
        double bestQ = 0;
        for (String o : offers) {
            double q = quality(o);
            if (q > bestQ) {
                best = o;
                bestQ = q;
            }
        }
        return best;
    }

    /** {@return the entries as a field would carry them} */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (Entry e : entries) {
            if (!sb.isEmpty()) {
                sb.append(", ");
            }
            sb.append(e.value);
            if (e.quality != 1) {
                sb.append(";q=").append(e.quality);
            }
        }
        return sb.toString();
    }
}
