package org.loommpm.http;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class HeaderValidationTest {
    @Test
    void namesAndValuesAreChecked() {
        assertDoesNotThrow(() -> HeaderValidation.check("Last-Modified", "Sun, 22 Nov 2026 20:36:17 GMT"));
        assertThrows(IllegalArgumentException.class, () -> HeaderValidation.check("X:A", "v"));
        assertThrows(IllegalArgumentException.class, () -> HeaderValidation.check("X\u00e9", "v"));
        assertThrows(IllegalArgumentException.class, () -> HeaderValidation.check("X", "a\r\nb"));
    }
}
