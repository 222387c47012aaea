package org.loommpm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.loommpm.server.LoomServer;
import org.loommpm.http.ResponseState;
import org.loommpm.testsupport.TestServers;

/**
 * A send refused for a field the handler added unchecked leaves the response uncommitted, so the
 * handler may fix the field and send again: the beforeHead action must reach the head once, not
 * once per attempt (an {@code add} or {@code append} rule would otherwise apply twice).
 */
class BeforeHeadRetryTest {
    @Test
    void aRefusedSendDoesNotRunTheActionTwice() throws Exception {
        try (LoomServer server = TestServers.start((req, res) -> {
            ((ResponseState) res).beforeHead(r -> r.headers().add("X-Rule", "1"));
            res.headers().add("X-Bad", "a\nb");
            assertThrows(IllegalArgumentException.class, () -> res.send("first"));
            res.headers().remove("X-Bad");
            res.send("ok");
        })) {
            HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + server.port() + "/")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals("ok", r.body());
            assertEquals(List.of("1"), r.headers().allValues("X-Rule"));
        }
    }
}
