package org.loommpm.form;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UrlEncodedFormTest {
    private static FormData decode(String body) throws IOException {
        return decode(body.getBytes(StandardCharsets.ISO_8859_1), null);
    }

    private static FormData decode(byte[] body, Charset cs) throws IOException {
        return UrlEncodedForm.decode(new ByteArrayInputStream(body), cs, 64 * 1024, 1000);
    }

    @Test
    void decodesRepeatedKeysInOrderWithPlusAsSpace() throws IOException {
        FormData f = decode("name=Ada+Lovelace&tag=a&tag=b%26c&empty=&flag&&tag=%E2%82%AC");
        assertEquals("Ada Lovelace", f.first("name"));
        assertEquals(List.of("a", "b&c", "€"), f.all("tag"));
        assertEquals("", f.first("empty"));
        assertEquals("", f.first("flag"));
        assertTrue(f.contains("flag"));
        assertNull(f.first("missing"));
        assertEquals(List.of(), f.all("missing"));
        assertEquals(List.of("name", "tag", "empty", "flag"), List.copyOf(f.names()));
        assertEquals(6, f.size());
        assertEquals(Map.of("name", List.of("Ada Lovelace"), "tag", List.of("a", "b&c", "€"), "empty", List.of(""),
                "flag", List.of("")), f.asMap());
        assertEquals("tag", f.name(5));
        assertEquals("€", f.value(5));
    }

    @Test
    void anEmptyBodyIsAnEmptyForm() throws IOException {
        assertTrue(decode("").isEmpty());
        assertTrue(decode("&&&").isEmpty());
        assertEquals(FormData.empty(), decode(""));
    }

    @Test
    void malformedPercentEncodingIs400WithItsLogId() {
        for (String bad : new String[] {"a=%", "a=%4", "a=%zz", "%G0=1", "a=1&b=%%41"}) {
            FormException e = assertThrows(FormException.class, () -> decode(bad), bad);
            assertEquals(400, e.status());
            assertTrue(e.getMessage().startsWith("LM2700 "), e.getMessage());
        }
    }

    @Test
    void limitsAre413() {
        FormException bytes = assertThrows(FormException.class, () -> UrlEncodedForm.decode(
                new ByteArrayInputStream("a=12345".getBytes(StandardCharsets.US_ASCII)), null, 6, 10));
        assertEquals(413, bytes.status());
        assertTrue(bytes.getMessage().startsWith("LM2701 "), bytes.getMessage());
        FormException fields = assertThrows(FormException.class, () -> UrlEncodedForm.decode(
                new ByteArrayInputStream("a&b&c".getBytes(StandardCharsets.US_ASCII)), null, 100, 2));
        assertEquals(413, fields.status());
        assertTrue(fields.getMessage().startsWith("LM2702 "), fields.getMessage());
    }

    @Test
    void exactlyAtTheLimitsIsAccepted() throws IOException {
        FormData f = UrlEncodedForm.decode(new ByteArrayInputStream("a=1&b=2".getBytes(StandardCharsets.US_ASCII)),
                null, 7, 2);
        assertEquals(2, f.size());
    }

    @Test
    void charsetFromTheContentTypeThenCharsetFieldThenUtf8() throws IOException {
        byte[] latin = "city=K%F6ln".getBytes(StandardCharsets.US_ASCII);
        assertEquals("Köln", decode(latin, UrlEncodedForm.charsetOf(
                "application/x-www-form-urlencoded; charset=\"ISO-8859-1\"")).first("city"));
        assertEquals("Köln", decode("_charset_=iso-8859-1&city=K%F6ln").first("city"));
        assertEquals("K\uFFFDln", decode("city=K%F6ln").first("city"), "not UTF-8: replaced, as browsers do");
        assertEquals("Köln", decode("city=K%C3%B6ln").first("city"));
        assertNull(UrlEncodedForm.charsetOf("application/x-www-form-urlencoded"));
    }

    @Test
    void anUnknownCharsetIs415() {
        FormException e = assertThrows(FormException.class,
                () -> UrlEncodedForm.charsetOf("application/x-www-form-urlencoded; charset=klingon"));
        assertEquals(415, e.status());
        assertTrue(e.getMessage().startsWith("LM2704 "));
        FormException field = assertThrows(FormException.class, () -> decode("_charset_=kl%0Aingon&a=1"));
        assertEquals(415, field.status());
        assertFalse(field.getMessage().contains("\n"), "no line break of the client's in a log line");
    }

    @Test
    void isFormAcceptsParametersAndAnyCase() {
        assertTrue(UrlEncodedForm.isForm("application/x-www-form-urlencoded"));
        assertTrue(UrlEncodedForm.isForm("Application/X-WWW-Form-URLEncoded ; charset=UTF-8"));
        assertFalse(UrlEncodedForm.isForm("multipart/form-data; boundary=x"));
        assertFalse(UrlEncodedForm.isForm(null));
    }

    @Test
    void encodeRoundTrips() throws IOException {
        FormData f = FormData.builder().add("a b", "1+1=2 & more").add("ü", "€/%").add("a b", "").build();
        String wire = UrlEncodedForm.encode(f, StandardCharsets.UTF_8);
        assertEquals("a+b=1%2B1%3D2+%26+more&%C3%BC=%E2%82%AC%2F%25&a+b=", wire);
        assertEquals(f, decode(wire));
    }

    @Test
    void limitsAreChecked() {
        assertThrows(IllegalArgumentException.class, () -> new FormLimits(0, 1));
        assertThrows(IllegalArgumentException.class, () -> new FormLimits(1, 0));
        assertEquals(64 * 1024, FormLimits.DEFAULTS.maxBytes());
        assertEquals(1000, FormLimits.DEFAULTS.maxFields());
    }
}
