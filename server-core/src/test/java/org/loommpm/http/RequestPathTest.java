package org.loommpm.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.loommpm.api.HttpException;

/**
 * The one path of a request (issue 51): what a rule matches is what a proxy forwards, read the
 * way Servlet containers read path parameters and dot-segments.
 */
class RequestPathTest {
    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        // raw                      | path (rules match it)  | encoded (a proxy forwards it)
        "/                          | /                      | /",
        "/b/x                       | /b/x                   | /b/x",
        "/b/                        | /b/                    | /b/",
        "/b/secret;x=1              | /b/secret              | /b/secret;x=1",
        "/b/secret;x=1/admin        | /b/secret/admin        | /b/secret;x=1/admin",
        "/b/secret/../ok            | /b/ok                  | /b/ok",
        "/b/x/../../b/y             | /b/y                   | /b/y",
        "/b/x/..;/secret            | /b/secret              | /b/secret",
        "/b/x/..;y=1/secret         | /b/secret              | /b/secret",
        "/b/x;p/../secret           | /b/secret              | /b/secret",
        "/b/;x/secret               | /b/secret              | /b/secret",
        "/b//secret                 | /b/secret              | /b/secret",
        "/b/./secret                | /b/secret              | /b/secret",
        "/b/x/%2e%2e/secret         | /b/secret              | /b/secret",
        "/b/x/%2E/y                 | /b/x/y                 | /b/x/y",
        "/b/x%2F..%2Fsecret         | /b/secret              | /b/secret",
        "/b/secret%3Bx              | /b/secret              | /b/secret;x",
        "/b/x/..                    | /b/                    | /b/",
        "/b/x/.                     | /b/x/                  | /b/x/",
        "/b/x/..;p                  | /b/                    | /b/",
        "/b/..                      | /                      | /",
        "/b/.x                      | /b/.x                  | /b/.x",
        "/b/a.b                     | /b/a.b                 | /b/a.b",
        "/b/caf%c3%a9               | /b/caf\u00e9           | /b/caf%C3%A9",
        "/b/a%20b                   | /b/a b                 | /b/a%20b",
        "/b/a%25b                   | /b/a%b                 | /b/a%25b",
        "/b/%7e%41                  | /b/~A                  | /b/~A",
        "/b/a%3Fb%23c               | /b/a?b#c               | /b/a%3Fb%23c",
        "/b/a\\b                     | /b/a\\b                 | /b/a%5Cb",
        "/b/pub;jsessionid=abc.n1   | /b/pub                 | /b/pub;jsessionid=abc.n1",
        "/b/pub;a=1;b=%2a/c         | /b/pub/c               | /b/pub;a=1;b=*/c",
        "/b/a@b:c!$&'()*+,=d        | /b/a@b:c!$&'()*+,=d    | /b/a@b:c!$&'()*+,=d",
    })
    void normalisesAndEncodesAgain(String raw, String path, String encoded) {
        RequestPath p = RequestPath.of(raw);
        assertEquals(path, p.path(), "path of " + raw);
        assertEquals(encoded, p.encoded(), "encoded form of " + raw);
        assertEquals(p, RequestPath.of(p.encoded()), "the encoded form is normal already");
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "/..", "/b/../..", "/b/../../x", "/%2e%2e/x", "/..;x/y",
        "/b/secret.", "/b/secret./x", "/b/secret..", "/b/secret%2e", "/b/secret.;x=1", "/b/secret%20",
        "/b/%", "/b/%00",
    })
    void refusesWhatCannotBeReadOneWay(String raw) {
        assertEquals(400, assertThrows(HttpException.class, () -> RequestPath.of(raw)).status(), raw);
    }

    @Test
    void aPathAlreadyNormalIsItsOwnPathAndEncodedForm() {
        String raw = "/static/app-1.2.js";
        RequestPath p = RequestPath.of(raw);
        assertSame(raw, p.path());
        assertSame(raw, p.encoded());
    }

    @Test
    void asteriskAndTheEmptyPathAreLeftAlone() {
        assertEquals(new RequestPath("*", "*"), RequestPath.of("*"));
        assertEquals(new RequestPath("", ""), RequestPath.of(""));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        // raw                     | prefix | past the prefix
        "/b/x;j=1/y                | /b/    | x;j=1/y",
        "/b;p=1/x                  | /b     | ;p=1/x",
        "/b;p=1/x                  | /b/    | x",
        "/app;x/y                  | /ap    | p;x/y",
        "/b/caf%C3%A9;k/x%20y      | /b/ca  | f%C3%A9;k/x%20y",
        "/b/x                      | /b/x   | ''",
        "/b;q/                     | /b/    | ''",
        "/b/x/y                    | /b/    | x/y",
    })
    void encodedFromCutsAPrefixOffThePath(String raw, String prefix, String rest) {
        RequestPath p = RequestPath.of(raw);
        assertEquals(rest, RequestPath.encodedFrom(p.path(), p.encoded(), prefix.length()));
    }
}
