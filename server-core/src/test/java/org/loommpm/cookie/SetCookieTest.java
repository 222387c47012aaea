package org.loommpm.cookie;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class SetCookieTest {
    @Test
    void everyAttributeInItsPlace() {
        SetCookie c = SetCookie.builder("id", "a3fWa")
                .expires(Instant.parse("2015-10-21T07:28:00Z"))
                .maxAge(Duration.ofHours(1))
                .domain("example.com")
                .path("/app")
                .secure(true)
                .httpOnly(true)
                .sameSite(SetCookie.SameSite.NONE)
                .partitioned(true)
                .build();
        assertEquals("id=a3fWa; Expires=Wed, 21 Oct 2015 07:28:00 GMT; Max-Age=3600; Domain=example.com; Path=/app; "
                + "Secure; HttpOnly; SameSite=None; Partitioned", c.toHeaderValue());
        assertEquals(c.toHeaderValue(), c.toString());
    }

    @Test
    void theMinimalCookieHasNoAttributes() {
        assertEquals("a=b", SetCookie.builder("a", "b").build().toHeaderValue());
        assertEquals("a=", SetCookie.builder("a", "").build().toHeaderValue());
        assertEquals("a=\"quoted\"", SetCookie.builder("a", "\"quoted\"").build().toHeaderValue());
    }

    @Test
    void expiresIsAnImfFixdateWithATwoDigitDay() {
        assertEquals("a=b; Expires=Sun, 06 Nov 1994 08:49:37 GMT",
                SetCookie.builder("a", "b").expires(Instant.parse("1994-11-06T08:49:37.900Z")).build().toHeaderValue());
        assertThrows(IllegalArgumentException.class,
                () -> SetCookie.builder("a", "b").expires(Instant.parse("1600-12-31T23:59:59Z")));
        assertThrows(IllegalArgumentException.class, () -> SetCookie.builder("a", "b").expires(Instant.MAX));
    }

    @Test
    void expireRemovesTheCookie() {
        assertEquals("sid=; Max-Age=0; Path=/", SetCookie.expire("sid").path("/").build().toHeaderValue());
    }

    @Test
    void invalidNamesAreRefused() {
        for (String name : List.of("", "a b", "a=b", "a;b", "a\"", "(x)", "ä", "a\u0000", "a,b", "a/b")) {
            assertThrows(IllegalArgumentException.class, () -> SetCookie.builder(name, "v"), name);
            assertFalse(SetCookie.isValidName(name), name);
        }
        assertTrue(SetCookie.isValidName("!#$%&'*+-.^_`|~09azAZ"));
    }

    @Test
    void invalidValuesAreRefused() {
        for (String value : List.of("a b", "a;b", "a,b", "a\\b", "a\"b", "\"", "\"a", "é", "a\tb", "a\r\nSet-Cookie: x=y")) {
            assertThrows(IllegalArgumentException.class, () -> SetCookie.builder("n", value), value);
            assertFalse(SetCookie.isValidValue(value), value);
        }
        assertTrue(SetCookie.isValidValue("!#$%&'()*+-./09:<=>?@AZ[]^_`az{|}~"));
        assertTrue(SetCookie.isValidValue("\"\""));
    }

    @Test
    void nameAndValueTogetherAtMost4096() {
        SetCookie.builder("n", "v".repeat(4095)).build();
        assertThrows(IllegalArgumentException.class, () -> SetCookie.builder("n", "v".repeat(4096)));
    }

    @Test
    void attributeValuesAreChecked() {
        assertThrows(IllegalArgumentException.class, () -> SetCookie.builder("a", "b").path("app"));
        assertThrows(IllegalArgumentException.class, () -> SetCookie.builder("a", "b").path("/a;Domain=evil"));
        assertThrows(IllegalArgumentException.class, () -> SetCookie.builder("a", "b").path("/a\r\nX: y"));
        assertThrows(IllegalArgumentException.class, () -> SetCookie.builder("a", "b").domain("a b.com"));
        assertThrows(IllegalArgumentException.class, () -> SetCookie.builder("a", "b").domain(""));
        assertThrows(IllegalArgumentException.class, () -> SetCookie.builder("a", "b").domain("x.com;Secure"));
        assertThrows(IllegalArgumentException.class, () -> SetCookie.builder("a", "b").maxAge(Duration.ofSeconds(-1)));
    }

    @Test
    void sameSiteNoneAndPartitionedRequireSecure() {
        assertThrows(IllegalArgumentException.class,
                () -> SetCookie.builder("a", "b").sameSite(SetCookie.SameSite.NONE).build());
        assertThrows(IllegalArgumentException.class, () -> SetCookie.builder("a", "b").partitioned(true).build());
        assertEquals("a=b; SameSite=Strict",
                SetCookie.builder("a", "b").sameSite(SetCookie.SameSite.STRICT).build().toHeaderValue());
    }

    @Test
    void prefixesAreEnforcedWithoutRegardToCase() {
        assertThrows(IllegalArgumentException.class, () -> SetCookie.builder("__Secure-a", "b").build());
        assertThrows(IllegalArgumentException.class, () -> SetCookie.builder("__secure-a", "b").build());
        SetCookie.builder("__Secure-a", "b").secure(true).build();
        assertThrows(IllegalArgumentException.class,
                () -> SetCookie.builder("__Host-a", "b").secure(true).build()); // no Path=/
        assertThrows(IllegalArgumentException.class,
                () -> SetCookie.builder("__HOST-a", "b").secure(true).path("/").domain("x.com").build());
        assertEquals("__Host-a=b; Path=/; Secure",
                SetCookie.builder("__Host-a", "b").secure(true).path("/").build().toHeaderValue());
    }

    @Test
    void whatIsBuiltParsesBack() {
        SetCookie c = SetCookie.builder("token", "\"abc.DEF-123\"").build();
        assertEquals(List.of(new Cookie("token", "abc.DEF-123")), CookieParser.parse(c.toHeaderValue(), 10));
    }
}
