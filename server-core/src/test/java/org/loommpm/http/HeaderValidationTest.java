package org.loommpm.http;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.loommpm.api.Headers;

class HeaderValidationTest {
    @Test
    void namesAndValuesAreChecked() {
        assertDoesNotThrow(() -> HeaderValidation.check("Last-Modified", "Sun, 22 Nov 2026 20:36:17 GMT"));
        assertThrows(IllegalArgumentException.class, () -> HeaderValidation.check("X:A", "v"));
        assertThrows(IllegalArgumentException.class, () -> HeaderValidation.check("X\u00e9", "v"));
        assertThrows(IllegalArgumentException.class, () -> HeaderValidation.check("X", "a\r\nb"));
    }

    @Test
    void trailersAreCheckedAndCopied() {
        Headers given = new Headers().add("grpc-status", "0").add("Content-Digest", "sha-256=:x:");
        Headers copy = HeaderValidation.trailers(given);
        given.add("X-Later", "1");
        assertEquals("grpc-status: 0\nContent-Digest: sha-256=:x:\n", copy.toString());
        assertEquals(0, HeaderValidation.trailers(null).size());
        for (String forbidden : new String[] {"Content-Length", "transfer-encoding", "Host", "Authorization",
                "Content-Type", "Set-Cookie", "Trailer", "Cache-Control"}) {
            assertThrows(IllegalArgumentException.class,
                    () -> HeaderValidation.trailers(new Headers().add(forbidden, "1")), forbidden);
        }
        assertThrows(IllegalArgumentException.class, () -> HeaderValidation.trailers(new Headers().add("X", "a\nb")));
    }

    @Test
    void requestTrailersLoseTheForbiddenFields() {
        Headers received = new Headers().add("X-A", "1").add("Content-Type", "x/y").add("X-B", "2");
        List<String> dropped = new ArrayList<>();
        assertEquals("X-A: 1\nX-B: 2\n", HeaderValidation.allowedTrailers(received, dropped::add).toString());
        assertEquals(List.of("Content-Type"), dropped);
        Headers fine = new Headers().add("X-A", "1");
        assertSame(fine, HeaderValidation.allowedTrailers(fine, dropped::add));
    }
}
