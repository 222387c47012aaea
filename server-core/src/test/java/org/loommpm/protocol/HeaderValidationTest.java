package org.loommpm.protocol;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class HeaderValidationTest {
    @Test
    void tokenCharactersAreExactlyThoseOfRfc9110() {
        String tchar = "!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
        for (char c = 0; c < 0x200; c++) {
            assertEquals(tchar.indexOf(c) >= 0, HeaderValidation.isTchar(c), "char " + (int) c);
        }
    }

    @Test
    void namesAndValuesAreChecked() {
        assertDoesNotThrow(() -> HeaderValidation.check("Last-Modified", "Sun, 22 Nov 2026 20:36:17 GMT"));
        assertThrows(IllegalArgumentException.class, () -> HeaderValidation.check("X:A", "v"));
        assertThrows(IllegalArgumentException.class, () -> HeaderValidation.check("X\u00e9", "v"));
        assertThrows(IllegalArgumentException.class, () -> HeaderValidation.check("X", "a\r\nb"));
    }
}
