package org.loommpm.cli.expires;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** mod_expires' codes as httpd reads them (check_code), and the type lookup. */
class ExpiresCodeTest {
    @Test
    void readsEveryForm() {
        assertEquals(new ExpiresCode(false, 30L * 86_400 + 15 * 86_400 + 2 * 3_600),
                ExpiresCode.parse("access plus 1 month 15 days 2 hours"));
        assertEquals(new ExpiresCode(false, 90), ExpiresCode.parse("now plus 90 s"));
        assertEquals(new ExpiresCode(true, 5 * 3_600 + 3 * 60), ExpiresCode.parse("modification plus 5 hours 3 minutes"));
        assertEquals(new ExpiresCode(true, 7L * 86_400 + 86_400 + 3_600 + 60 + 1), ExpiresCode.parse("m p 1 w 1 d 1 h 1 mi 1 s"));
        assertEquals(new ExpiresCode(false, 365L * 86_400), ExpiresCode.parse("access 1 year"));
        assertEquals(new ExpiresCode(false, 3600), ExpiresCode.parse("A3600"));
        assertEquals(new ExpiresCode(true, 60), ExpiresCode.parse("M60"));
        assertEquals(new ExpiresCode(false, 0), ExpiresCode.parse("access"));
        assertEquals(new ExpiresCode(false, 2L * 30 * 86_400), ExpiresCode.parse("Access plus 2 months"),
                "read as meant (httpd reads a capital A as its short form: A0)");
    }

    @Test
    void refusesWhatHttpdRefuses() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ExpiresCode.parse("later plus 1 day")).getMessage()
                .contains("unrecognised <base> 'later'"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ExpiresCode.parse("access plus one day")).getMessage()
                .contains("numeric value expected <num> 'one'"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ExpiresCode.parse("access plus 1")).getMessage()
                .contains("missing <type>"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ExpiresCode.parse("access plus 1 fortnight")).getMessage()
                .contains("unrecognised <type>"));
        assertThrows(IllegalArgumentException.class, () -> ExpiresCode.parse(""));
    }

    @Test
    void aTypeThenItsWildcardThenTheDefault() {
        ExpiresCode css = new ExpiresCode(false, 1);
        ExpiresCode images = new ExpiresCode(false, 2);
        ExpiresCode fallback = new ExpiresCode(false, 3);
        var p = new ExpiresScopes.Policy(Map.of("text/css", css, "image/*", images), fallback);
        assertEquals(css, p.codeFor("text/css; charset=utf-8"));
        assertEquals(css, p.codeFor("TEXT/CSS"));
        assertEquals(images, p.codeFor("image/png"));
        assertEquals(fallback, p.codeFor("text/html"));
        assertEquals(fallback, p.codeFor(null));
    }
}
