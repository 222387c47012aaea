package org.loommpm.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ProblemTest {
    @Test
    void aboutBlankWithTheReasonPhraseAsTitle() {
        assertEquals("{\"type\":\"about:blank\",\"title\":\"Bad Request\",\"status\":400,\"detail\":\"no\"}",
                Problem.of(400, "no").toJson());
        assertEquals("{\"type\":\"about:blank\",\"title\":\"Unsupported Media Type\",\"status\":415}",
                Problem.of(415, null).toJson());
    }

    @Test
    void everyMemberInOrder() {
        assertEquals("{\"type\":\"https://example.com/probs/out-of-credit\",\"title\":\"You do not have enough credit.\","
                + "\"status\":403,\"detail\":\"Your current balance is 30, but that costs 50.\","
                + "\"instance\":\"/account/12345/msgs/abc\"}",
                new Problem("https://example.com/probs/out-of-credit", "You do not have enough credit.", 403,
                        "Your current balance is 30, but that costs 50.", "/account/12345/msgs/abc").toJson());
    }

    @Test
    void stringsAreEscaped() {
        String json = new Problem(null, null, 500, "q\" b\\ n\n r\r t\t \u0001 \u001f \u007f \u2028 é 😀 \ud800x", null)
                .toJson();
        assertEquals("{\"type\":\"about:blank\",\"status\":500,\"detail\":\"q\\\" b\\\\ n\\n r\\r t\\t \\u0001 \\u001f "
                + "\u007f \\u2028 é 😀 \\ud800x\"}", json);
    }

    @Test
    void theStatusIsChecked() {
        assertThrows(IllegalArgumentException.class, () -> Problem.of(99, null));
        assertThrows(IllegalArgumentException.class, () -> Problem.of(600, null));
        assertNull(Problem.of(299, null).title());
    }

    @Test
    void anHttpExceptionCarriesItAsItsBody() {
        HttpException e = HttpException.problem(Problem.of(404, "no such item"), "LM0000 test");
        assertEquals(404, e.status());
        assertEquals("application/problem+json", e.contentType());
        assertArrayEquals(Problem.of(404, "no such item").toJson().getBytes(StandardCharsets.UTF_8), e.body());
        assertNull(new HttpException(400, "x").body());
    }
}
