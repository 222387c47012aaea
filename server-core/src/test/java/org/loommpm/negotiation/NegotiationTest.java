package org.loommpm.negotiation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** RFC 9110 §12.5's lists, q-values and choices, and malformed input never throwing. */
class NegotiationTest {
    private static final String JSON = "application/json";
    private static final String HTML = "text/html";

    @Test
    void mediaRangesKeepParametersAndTheirQValue() {
        List<MediaRange> r = MediaRange.parseAccept(
                "text/html;level=1, TEXT/*;q=0.3, */*;q=.2;ext=1, text/plain; format=\"a,b;c\" ;q=0.5");
        assertEquals(4, r.size(), r.toString());
        assertEquals(Map.of("level", "1"), r.get(0).parameters());
        assertEquals("text", r.get(1).type());
        assertEquals("*", r.get(1).subtype());
        assertEquals(0.3, r.get(1).quality());
        assertEquals(0.2, r.get(2).quality(), "a leading dot, as Java's own client sends");
        assertEquals(Map.of(), r.get(2).parameters(), "what follows q is an extension, not a parameter");
        assertEquals("a,b;c", r.get(3).parameters().get("format"), "a quoted comma stays inside its element");
        assertEquals(0.5, r.get(3).quality());
        assertEquals(List.of(0, 1, 2, 3), List.of(r.get(2).specificity(), r.get(1).specificity(),
                MediaRange.parse(HTML).specificity(), r.get(0).specificity()));
    }

    @Test
    void theMostSpecificRangeGivesTheQValue() {
        String accept = "text/*;q=0.3, text/html;q=0.7, text/html;level=1, text/html;level=2;q=0.4, */*;q=0.5";
        // RFC 9110 §12.5.1's own example.
        assertEquals(1.0, q(accept, "text/html;level=1"));
        assertEquals(0.7, q(accept, "text/html"));
        assertEquals(0.3, q(accept, "text/plain"));
        assertEquals(0.5, q(accept, "image/jpeg"));
        assertEquals(0.4, q(accept, "text/html;level=2"));
        assertEquals(0.7, q(accept, "text/html;level=3"));
    }

    private static double q(String accept, String type) {
        MediaRange t = MediaRange.parse(type);
        MediaRange best = null;
        for (MediaRange r : MediaRange.parseAccept(accept)) {
            if (r.includes(t) && (best == null || r.specificity() > best.specificity())) {
                best = r;
            }
        }
        return best == null ? 0 : best.quality();
    }

    @Test
    void preferredTypeByQualityThenSpecificityThenOfferOrder() {
        assertEquals(JSON, Negotiation.preferredType("text/html;q=0.5, application/json", HTML, JSON));
        assertEquals(HTML, Negotiation.preferredType("*/*", HTML, JSON), "a tie: the server's order");
        assertEquals(JSON, Negotiation.preferredType("*/*, application/json", HTML, JSON),
                "a tie in q: the offer a more specific range names");
        assertEquals(JSON, Negotiation.preferredType("text/html;q=0, */*", HTML, JSON), "q=0 excludes");
        assertNull(Negotiation.preferredType("image/png", HTML, JSON), "none acceptable: a 406");
        assertNull(Negotiation.preferredType("text/*;q=0", "text/plain"));
        assertEquals("text/html; charset=UTF-8", Negotiation.preferredType("text/html;charset=utf-8",
                "text/html; charset=UTF-8"), "the offer as given; charset compared without case");
        assertNull(Negotiation.preferredType("text/html;charset=utf-8", HTML), "a range's parameter must be there");
    }

    @Test
    void browsersAndClientsDefaults() {
        String firefox = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";
        assertEquals(HTML, Negotiation.preferredType(firefox, JSON, HTML));
        assertEquals(JSON, Negotiation.preferredType(firefox, JSON, "text/csv"));
        String java = "text/html, image/gif, image/jpeg, *; q=.2, */*; q=.2";
        assertEquals(JSON, Negotiation.preferredType(java, JSON), "a lone * is */*");
        assertEquals(JSON, Negotiation.preferredType("application/json, */*", HTML, JSON));
    }

    @Test
    void anAbsentOrUnreadableAcceptAcceptsAnything() {
        assertEquals(HTML, Negotiation.preferredType(null, HTML, JSON));
        assertEquals(HTML, Negotiation.preferredType("", HTML, JSON));
        assertEquals(HTML, Negotiation.preferredType(" , ;q=1, html, */html, text/", HTML, JSON));
        assertNull(Negotiation.preferredType(null));
        assertThrows(IllegalArgumentException.class, () -> Negotiation.preferredType(null, "json"),
                "an offer that is not a media type is the handler's mistake");
        assertThrows(IllegalArgumentException.class, () -> Negotiation.preferredType(null, "text/*"));
    }

    @Test
    void unreadableQValuesRefuseTheirElement() {
        for (String q : List.of("abc", "-1", "1.5", "1e0", "0x1", "NaN", "", "0.5.5", ".")) {
            assertNull(Negotiation.preferredType("application/json;q=" + q, JSON), q);
        }
        assertEquals(JSON, Negotiation.preferredType("application/json;q=0.0001", JSON));
        assertEquals(JSON, Negotiation.preferredType("application/json; Q = 1.000", JSON));
    }

    @Test
    void tokenListsForEncodingsAndCharsets() {
        QualityList l = QualityList.parse("gzip;q=0.5, BR, identity;q=0, *;q=0.1");
        assertEquals(0.5, l.quality("gzip"));
        assertEquals(1.0, l.quality("br"), "case-insensitive");
        assertEquals(0.0, l.quality("identity"));
        assertEquals(0.1, l.quality("zstd"), "the * entry");
        assertEquals("br", l.preferred("zstd", "gzip", "br"));
        assertEquals(0.0, QualityList.parse("gzip").quality("br"));
        assertEquals(0.0, QualityList.parse("gzip;q=0, gzip").quality("gzip"), "the first entry of a token counts");
        assertTrue(QualityList.parse(null).isEmpty());
        assertTrue(QualityList.parse(" , ,").isEmpty());
        assertNull(QualityList.parse("").preferred("gzip"), "an empty list accepts nothing: the caller decides");
        assertEquals("gzip;q=0.5, br", QualityList.parse("gzip ; q=0.5 , br").toString());
    }

    @Test
    void languagesByBasicFilteringThenTruncation() {
        Locale en = Locale.ENGLISH;
        Locale enGb = Locale.UK;
        Locale de = Locale.GERMAN;
        Locale fr = Locale.FRENCH;
        assertEquals(de, Negotiation.preferredLocale("de-CH, en;q=0.5", en, de), "de answers de-CH (lookup)");
        assertEquals(enGb, Negotiation.preferredLocale("en", de, enGb), "en covers en-GB (filtering)");
        assertEquals(fr, Negotiation.preferredLocale("en;q=0.1, fr;q=0.5, en-US", en, fr),
                "an explicit en;q=0.1 outweighs en-US's truncation");
        assertEquals(en, Negotiation.preferredLocale("en-US, fr;q=0.5", en, fr));
        assertEquals(de, Negotiation.preferredLocale("*;q=0.5, fr;q=0", fr, de));
        assertNull(Negotiation.preferredLocale("ja", en, de), "none acceptable: the caller's default");
        assertEquals(en, Negotiation.preferredLocale(null, en, de));
        assertEquals(enGb, Negotiation.preferredLocale("en, en-GB", en, enGb), "a tie: the more specific match");
        assertEquals(0.8, QualityList.parse("en-us;q=0.8, en;q=0.3").languageQuality("en-US"));
        assertEquals(0.3, QualityList.parse("en-us;q=0.8, en;q=0.3").languageQuality("en-GB"));
        assertEquals(0.0, QualityList.parse("en-us").languageQuality("e"), "not a prefix at a subtag boundary");
    }

    @Test
    void randomInputNeverThrows() {
        Random random = new Random(54);
        String alphabet = "abtx/*;,=q.01\"\\ -\t\u00e9";
        for (int i = 0; i < 20_000; i++) {
            StringBuilder sb = new StringBuilder();
            for (int n = random.nextInt(40); n > 0; n--) {
                sb.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String h = sb.toString();
            Negotiation.preferredType(h, HTML, JSON, "text/plain;format=x");
            Negotiation.preferredLocale(h, Locale.ENGLISH, Locale.UK);
            QualityList.parse(h).preferred("gzip", "br");
            MediaRange.parseAccept(h).forEach(MediaRange::toString);
        }
        String huge = "text/html;q=0.1,".repeat(100_000);
        assertEquals(Lists.MAX_ELEMENTS, MediaRange.parseAccept(huge).size(), "a bounded amount of work");
    }
}
