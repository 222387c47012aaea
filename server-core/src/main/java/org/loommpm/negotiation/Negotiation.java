package org.loommpm.negotiation;

import java.util.List;
import java.util.Locale;

/**
 * Chooses what to send among what a handler offers, from the request's {@code Accept...} field
 * (RFC 9110 §12.5): proactive negotiation. A missing field, an empty one, or one with nothing
 * readable in it accepts anything: the first offer wins.
 *
 * <p>Ranking, the same for types and languages: the highest q-value above 0; on a tie, the offer
 * that a more specific element matched ({@code application/json} over {@code *}{@code /*},
 * {@code en-GB} over {@code en}); then the order of the offers (the server's preference).
 */
public final class Negotiation {
    private Negotiation() {
    }

    /**
     * The media type to send for an {@code Accept} field (RFC 9110 §12.5.1). An offer's q-value
     * is that of the most specific range including it ({@code text/html;q=0, *}{@code /*} refuses
     * HTML and accepts the rest).
     *
     * @param accept the {@code Accept} field value (all its lines joined with commas), or null
     * @param offered the media types the handler can send, in its order of preference
     * @return one of {@code offered} as given, or null when none is acceptable (answer 406, or
     *     send a default anyway as RFC 9110 allows)
     * @throws IllegalArgumentException if an offer is not a media type ({@code type/subtype},
     *     optionally with parameters)
     */
    public static String preferredType(String accept, String... offered) {
        MediaRange[] offers = new MediaRange[offered.length];
        for (int i = 0; i < offered.length; i++) {
            offers[i] = MediaRange.parse(offered[i]);
        }
        List<MediaRange> ranges = MediaRange.parseAccept(accept);
        if (ranges.isEmpty()) {
            return offered.length > 0 ? offered[0] : null;
        }
        String best = null;
        double bestQ = 0;
        int bestSpecificity = -1;
        for (int i = 0; i < offers.length; i++) {
            MediaRange match = null;
            for (MediaRange r : ranges) {
                if (r.includes(offers[i]) && (match == null || r.specificity() > match.specificity())) {
                    match = r;
                }
            }
            if (match != null && match.quality() > 0 && (match.quality() > bestQ
                    || match.quality() == bestQ && match.specificity() > bestSpecificity)) {
                best = offered[i];
                bestQ = match.quality();
                bestSpecificity = match.specificity();
            }
        }
        return best;
    }

    /**
     * The locale to answer in for an {@code Accept-Language} field (RFC 9110 §12.5.4), matching
     * each offer's language tag ({@link Locale#toLanguageTag()}) as
     * {@link QualityList#languageQuality(String)} does.
     *
     * @param acceptLanguage the {@code Accept-Language} field value, or null
     * @param offered the locales the handler can answer in, in its order of preference
     * @return one of {@code offered}, or null when none is acceptable (send a default: a
     *     language mismatch is rarely worth a 406)
     */
    public static Locale preferredLocale(String acceptLanguage, Locale... offered) {
        QualityList list = QualityList.parse(acceptLanguage);
        if (list.isEmpty()) {
            return offered.length > 0 ? offered[0] : null;
        }
        Locale best = null;
        double bestQ = 0;
        double bestRank = -1;
        for (Locale l : offered) {
            double[] m = list.languageMatch(l.toLanguageTag());
            if (m[0] > 0 && (m[0] > bestQ || m[0] == bestQ && m[1] > bestRank)) {
                best = l;
                bestQ = m[0];
                bestRank = m[1];
            }
        }
        return best;
    }
}
