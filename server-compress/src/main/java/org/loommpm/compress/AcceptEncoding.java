package org.loommpm.compress;

import java.util.Set;
import java.util.function.Predicate;

/**
 * Chooses a content coding from {@code Accept-Encoding} (RFC 9110 §12.5.3): the offered coding
 * with the highest q-value above 0, an explicit entry winning over {@code *}; on a tie brotli
 * before gzip (smaller for the same effort). {@code x-gzip} counts as gzip. Pure. (The static-file
 * handler picks precompressed siblings with server-core's {@code negotiation.QualityList}.)
 */
public final class AcceptEncoding {
    private AcceptEncoding() {
    }

    /**
     * Chooses the coding for one response.
     *
     * @param header the request's {@code Accept-Encoding} (all its values joined by commas), or null
     * @param offered the codings the server would apply to this response
     * @return the coding to apply, or null for identity
     */
    public static ContentCoding choose(String header, Set<ContentCoding> offered) {
        if (header == null || offered.isEmpty()) {
            return null;
        }
        ContentCoding best = null;
        double bestQ = 0;
        for (ContentCoding c : new ContentCoding[] {ContentCoding.BROTLI, ContentCoding.GZIP}) {
            if (!offered.contains(c)) {
                continue;
            }
            double q = quality(header, c);
            if (q > bestQ) {
                best = c;
                bestQ = q;
            }
        }
        return best;
    }

    /** The q-value the header gives {@code coding}: its own entry, else {@code *}'s, else 0. */
    static double quality(String header, ContentCoding coding) {
        return quality(header, name -> name.equalsIgnoreCase(coding.token())
                || (coding == ContentCoding.GZIP && name.equalsIgnoreCase("x-gzip")));
    }

    /**
     * The q-value the header gives the coding named exactly {@code token} (case-insensitive, no
     * aliases): its own entry, else {@code *}'s, else 0. A q-value outside [0, 1] or unparsable counts as 0.
     *
     * @param header the request's {@code Accept-Encoding}, not null
     * @param token the content-coding token, e.g. {@code "br"}
     * @return the q-value in [0, 1]; above 0 means acceptable
     */
    public static double quality(String header, String token) {
        return quality(header, token::equalsIgnoreCase);
    }

    private static double quality(String header, Predicate<String> isCoding) {
        double star = 0;
        for (String part : header.split(",")) {
            String p = part.strip();
            int semi = p.indexOf(';');
            String name = (semi < 0 ? p : p.substring(0, semi)).strip();
            double q = semi < 0 ? 1 : qValue(p.substring(semi + 1));
            if (isCoding.test(name)) {
                return q;
            }
            if (name.equals("*")) {
                star = q;
            }
        }
        return star;
    }

    private static double qValue(String params) {
        for (String param : params.split(";")) {
            String t = param.strip();
            if (t.regionMatches(true, 0, "q=", 0, 2)) {
                try {
                    double q = Double.parseDouble(t.substring(2).strip());
                    return q >= 0 && q <= 1 ? q : 0;
                } catch (NumberFormatException e) {
                    return 0;
                }
            }
        }
        return 1;
    }
}
