package org.loommpm.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.loommpm.api.HttpException;

class UriCodecTest {
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "/                 | /",
        "/a+b              | /a+b",
        "/a%20b            | /a b",
        "/a%2fb%2F         | /a/b/",
        "/%E2%82%ac        | /\u20ac",
        "/%F0%9F%98%80     | /\ud83d\ude00",
        "/caf%C3%A9        | /caf\u00e9",
        "/%25%32%30        | /%20",
        "/%7e              | /~",
    })
    void decodesPaths(String raw, String decoded) {
        assertEquals(decoded, UriCodec.decodePath(raw));
    }

    @Test
    void returnsAPathWithoutEscapesAsIs() {
        String raw = "/plain/path";
        assertSame(raw, UriCodec.decodePath(raw));
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "/%", "/%2", "/a%g0", "/a%0g", "/%%20", "/%00", "/a\u0000b", "/%C3", "/%C3%28", "/%FF",
        "/%ED%A0%80", "/%C0%AF", "/%E0%80%AF", "/%F8%88%80%80%80",
    })
    void rejectsMalformedPaths(String raw) {
        assertEquals(400, assertThrows(HttpException.class, () -> UriCodec.decodePath(raw)).status());
    }

    @Test
    void parsesQueries() {
        Map<String, List<String>> q = UriCodec.parseQuery("a=1&b=x+y&a=2&c&d=&%41%3d=%3D&e=%E2%82%AC");
        Map<String, List<String>> expected = new LinkedHashMap<>();
        expected.put("a", List.of("1", "2"));
        expected.put("b", List.of("x y"));
        expected.put("c", List.of(""));
        expected.put("d", List.of(""));
        expected.put("A=", List.of("="));
        expected.put("e", List.of("\u20ac"));
        assertEquals(expected, q);
        assertEquals(List.copyOf(expected.keySet()), List.copyOf(q.keySet()), "order of first appearance");
        assertTrue(q instanceof LinkedHashMap);
    }

    @Test
    void keepsMalformedEscapesInQueries() {
        Map<String, List<String>> q = UriCodec.parseQuery("a=%&b=%2&c=%zz&d=100%25&e=%C3%28");
        assertEquals(List.of("%"), q.get("a"));
        assertEquals(List.of("%2"), q.get("b"));
        assertEquals(List.of("%zz"), q.get("c"));
        assertEquals(List.of("100%"), q.get("d"));
        assertEquals(List.of("\ufffd("), q.get("e"));
    }

    @Test
    void skipsEmptyParametersAndSplitsAtTheFirstEquals() {
        Map<String, List<String>> q = UriCodec.parseQuery("&&a=b=c&&=v&");
        assertEquals(Map.of("a", List.of("b=c"), "", List.of("v")), q);
    }

    @Test
    void emptyOrNullQueryGivesAnEmptyMap() {
        assertEquals(Map.of(), UriCodec.parseQuery(null));
        assertEquals(Map.of(), UriCodec.parseQuery(""));
        UriCodec.parseQuery(null).put("mutable", List.of());
    }
}
