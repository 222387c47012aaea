package org.loommpm.compress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AcceptEncodingTest {
    private static final Set<ContentCoding> BOTH = EnumSet.allOf(ContentCoding.class);

    @Test
    void brotliWinsTiesGzipWinsOnQuality() {
        assertEquals(ContentCoding.BROTLI, AcceptEncoding.choose("gzip, deflate, br", BOTH));
        assertEquals(ContentCoding.GZIP, AcceptEncoding.choose("br;q=0.5, gzip;q=0.8", BOTH));
        assertEquals(ContentCoding.BROTLI, AcceptEncoding.choose("br;q=1.0, gzip;q=0.8", BOTH));
        assertEquals(ContentCoding.GZIP, AcceptEncoding.choose("gzip, deflate, br", Set.of(ContentCoding.GZIP)));
        assertEquals(ContentCoding.GZIP, AcceptEncoding.choose("x-gzip", BOTH));
    }

    @Test
    void zeroAndMissingMeanIdentity() {
        assertNull(AcceptEncoding.choose(null, BOTH));
        assertNull(AcceptEncoding.choose("", BOTH));
        assertNull(AcceptEncoding.choose("identity", BOTH));
        assertNull(AcceptEncoding.choose("gzip;q=0, br;q=0", BOTH));
        assertNull(AcceptEncoding.choose("deflate", BOTH));
        assertNull(AcceptEncoding.choose("gzip;q=abc", BOTH));
        assertNull(AcceptEncoding.choose("gzip;q=2", BOTH), "an invalid q-value counts as 0");
    }

    @Test
    void starCoversWhatIsNotListed() {
        assertEquals(ContentCoding.BROTLI, AcceptEncoding.choose("*", BOTH));
        assertEquals(ContentCoding.GZIP, AcceptEncoding.choose("br;q=0, *", BOTH));
        assertNull(AcceptEncoding.choose("*;q=0", BOTH));
        assertEquals(ContentCoding.GZIP, AcceptEncoding.choose("*;q=0, GZIP", BOTH));
    }

    /** The token form the static-file handler uses for precompressed siblings (no x-gzip alias). */
    @Test
    void tokenQuality() {
        assertTrue(AcceptEncoding.quality("gzip, deflate, br", "br") > 0);
        assertFalse(AcceptEncoding.quality("gzip;q=0, br", "gzip") > 0);
        assertTrue(AcceptEncoding.quality("*", "gzip") > 0);
        assertFalse(AcceptEncoding.quality("*;q=0", "gzip") > 0);
        assertFalse(AcceptEncoding.quality("identity", "gzip") > 0);
        assertTrue(AcceptEncoding.quality("GZIP;q=0.5", "gzip") > 0);
        assertFalse(AcceptEncoding.quality("x-gzip", "gzip") > 0, "the token form has no aliases");
    }

    @Test
    void settingsMatchTypesWithoutParameters() {
        CompressionSettings s = CompressionSettings.builder().types(ContentCoding.GZIP, "text/html", "Application/JSON")
                .types(ContentCoding.BROTLI, "text/html").build();
        assertEquals(BOTH, s.codingsFor("text/html; charset=UTF-8"));
        assertEquals(Set.of(ContentCoding.GZIP), s.codingsFor("application/json"));
        assertEquals(Set.of(), s.codingsFor("image/png"));
        assertEquals(Set.of(), s.codingsFor(null));
        CompressionSettings all = CompressionSettings.builder().allTypes(ContentCoding.GZIP).build();
        assertEquals(Set.of(ContentCoding.GZIP), all.codingsFor("image/png"));
        assertEquals(Set.of(ContentCoding.GZIP), all.codingsFor(null));
    }
}
