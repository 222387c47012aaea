package org.loommpm.http1;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class StatusReasonsTest {
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "100 | Continue", "101 | Switching Protocols", "103 | Early Hints", "200 | OK", "204 | No Content",
        "206 | Partial Content", "301 | Moved Permanently", "304 | Not Modified", "308 | Permanent Redirect",
        "400 | Bad Request", "404 | Not Found", "413 | Content Too Large", "414 | URI Too Long",
        "417 | Expectation Failed", "421 | Misdirected Request", "422 | Unprocessable Content",
        "425 | Too Early", "429 | Too Many Requests", "431 | Request Header Fields Too Large",
        "451 | Unavailable For Legal Reasons", "500 | Internal Server Error", "501 | Not Implemented",
        "503 | Service Unavailable", "505 | HTTP Version Not Supported",
        "102 | Unknown", "299 | Unknown", "306 | Unknown", "418 | Unknown", "599 | Unknown", "0 | Unknown",
    })
    void reasons(int status, String reason) {
        assertEquals(reason, StatusReasons.reason(status));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "200 | HTTP/1.1 200 OK",
        "404 | HTTP/1.1 404 Not Found",
        "431 | HTTP/1.1 431 Request Header Fields Too Large",
        "599 | HTTP/1.1 599 Unknown",
        "999 | HTTP/1.1 999 Unknown",
    })
    void statusLines(int status, String line) {
        assertEquals(line + "\r\n", new String(StatusReasons.statusLine(status), StandardCharsets.US_ASCII));
    }

    @Test
    void cachesKnownStatusLines() {
        assertSame(StatusReasons.statusLine(200), StatusReasons.statusLine(200));
        assertSame(StatusReasons.statusLine(503), StatusReasons.statusLine(503));
    }

    @ParameterizedTest
    @ValueSource(ints = {-1, 0, 99, 1000})
    void rejectsStatusesThatAreNotThreeDigits(int status) {
        assertThrows(IllegalArgumentException.class, () -> StatusReasons.statusLine(status));
    }
}
