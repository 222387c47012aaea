package org.loommpm.http.syntax;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class StatusReasonsTest {
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "100 | Continue", "101 | Switching Protocols", "102 | Processing", "103 | Early Hints", "200 | OK",
        "204 | No Content",
        "206 | Partial Content", "301 | Moved Permanently", "304 | Not Modified", "308 | Permanent Redirect",
        "400 | Bad Request", "404 | Not Found", "413 | Content Too Large", "414 | URI Too Long",
        "417 | Expectation Failed", "421 | Misdirected Request", "422 | Unprocessable Content",
        "425 | Too Early", "429 | Too Many Requests", "431 | Request Header Fields Too Large",
        "451 | Unavailable For Legal Reasons", "500 | Internal Server Error", "501 | Not Implemented",
        "503 | Service Unavailable", "505 | HTTP Version Not Supported",
        "104 | Unknown", "299 | Unknown", "306 | Unknown", "418 | Unknown", "599 | Unknown", "0 | Unknown",
    })
    void reasons(int status, String reason) {
        assertEquals(reason, StatusReasons.reason(status));
    }
}
