package org.loommpm.http.syntax;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class HttpCharsTest {
    private static final String TCHAR = "!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

    @Test
    void tokenCharactersAreExactlyThoseOfRfc9110() {
        for (char c = 0; c < 0x200; c++) {
            assertEquals(TCHAR.indexOf(c) >= 0, HttpChars.isTchar(c), "char " + (int) c);
        }
        for (int b = 0; b < 256; b++) {
            assertEquals(TCHAR.indexOf(b) >= 0, HttpChars.isTchar((byte) b), "byte " + b);
        }
    }

    @Test
    void tokensAreNonEmptyRunsOfTchar() {
        assertTrue(HttpChars.isToken("PROPFIND"));
        assertTrue(HttpChars.isToken(TCHAR));
        assertFalse(HttpChars.isToken(""));
        assertFalse(HttpChars.isToken("GE T"));
        assertFalse(HttpChars.isToken("G\u00c9T"));
        assertFalse(HttpChars.isToken("GET\u0100"));
    }

    @Test
    void hexDigits() {
        assertEquals(0, HttpChars.hexValue('0'));
        assertEquals(9, HttpChars.hexValue('9'));
        assertEquals(10, HttpChars.hexValue('a'));
        assertEquals(15, HttpChars.hexValue('F'));
        assertEquals(-1, HttpChars.hexValue('g'));
        assertEquals(-1, HttpChars.hexValue('/'));
        assertEquals(-1, HttpChars.hexValue(':'));
    }
}
