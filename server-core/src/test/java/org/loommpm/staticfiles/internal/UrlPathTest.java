package org.loommpm.staticfiles.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class UrlPathTest {
    @ParameterizedTest
    @CsvSource({
        "/, /",
        "/a/b.txt, /a/b.txt",
        "/a//b, /a/b",
        "/a/./b, /a/b",
        "/a/b/../c, /a/c",
        "/a/b/.., /a/",
        "/a/., /a/",
        "/a/.hidden, /a/.hidden",
        "/a/..b, /a/..b",
        "/.., REJECT400",
        "/a/../.., REJECT400",
        "/a\\b, REJECT400",
    })
    void normalizes(String in, String out) throws Exception {
        if (out.startsWith("REJECT")) {
            UrlPath.Rejected e = assertThrows(UrlPath.Rejected.class, () -> UrlPath.normalize(in));
            assertEquals(Integer.parseInt(out.substring(6)), e.status());
        } else {
            assertEquals(out, UrlPath.normalize(in));
        }
    }

    @Test
    void controlCharactersAreRefused() {
        assertEquals(400, assertThrows(UrlPath.Rejected.class, () -> UrlPath.normalize("/a\u0000b")).status());
        assertEquals(400, assertThrows(UrlPath.Rejected.class, () -> UrlPath.normalize("/a\nb")).status());
    }
}
