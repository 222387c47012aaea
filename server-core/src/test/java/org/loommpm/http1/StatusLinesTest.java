package org.loommpm.http1;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class StatusLinesTest {
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "200 | HTTP/1.1 200 OK",
        "404 | HTTP/1.1 404 Not Found",
        "431 | HTTP/1.1 431 Request Header Fields Too Large",
        "599 | HTTP/1.1 599 Unknown",
        "999 | HTTP/1.1 999 Unknown",
    })
    void statusLines(int status, String line) {
        assertEquals(line + "\r\n", new String(StatusLines.statusLine(status), StandardCharsets.US_ASCII));
    }

    @Test
    void cachesKnownStatusLines() {
        assertSame(StatusLines.statusLine(200), StatusLines.statusLine(200));
        assertSame(StatusLines.statusLine(503), StatusLines.statusLine(503));
    }

    @ParameterizedTest
    @ValueSource(ints = {-1, 0, 99, 1000})
    void rejectsStatusesThatAreNotThreeDigits(int status) {
        assertThrows(IllegalArgumentException.class, () -> StatusLines.statusLine(status));
    }
}
