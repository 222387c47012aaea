package org.loommpm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.loommpm.api.HttpException;
import org.loommpm.api.Problem;
import org.loommpm.api.Router;
import org.loommpm.json.JsonCodecs;
import org.loommpm.server.LoomServer;
import org.loommpm.testsupport.RawHttp;
import org.loommpm.testsupport.TestServers;

/**
 * An {@link HttpException} with a body of its own (a problem document) is answered with that body
 * over HTTP/1.1 (the HEAD answer is its head alone, with the body's length); {@code Request.json}
 * checks the Content-Type before it needs a codec (415); and server-core alone, without
 * loom-mpm-jackson, says clearly that the codec is missing.
 */
class ProblemResponseTest {
    private static final String CONFLICT = Problem.of(409, "the name \"x\" is taken").toJson();
    private static LoomServer server;

    @BeforeAll
    static void start() throws Exception {
        server = TestServers.start(new Router()
                .get("/taken", (req, res) -> {
                    res.header("X-Before", "dropped"); // a failure's answer replaces the handler's fields
                    throw HttpException.problem(Problem.of(409, "the name \"x\" is taken"), "LM0000 test: taken");
                })
                .get("/plain", (req, res) -> {
                    throw new HttpException(403, "LM0000 test: plain");
                })
                .post("/json", (req, res) -> res.send("read " + req.json(Object.class)))
                .get("/codec", (req, res) -> {
                    try {
                        JsonCodecs.find();
                        res.send("found");
                    } catch (IllegalStateException e) {
                        res.send(e.getMessage());
                    }
                }));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void theProblemIsTheBodyWithItsContentType() throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port()
                + "/taken")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(409, r.statusCode());
        assertEquals("application/problem+json", r.headers().firstValue("Content-Type").orElseThrow());
        assertEquals(CONFLICT, r.body());
        assertEquals(String.valueOf(CONFLICT.getBytes(StandardCharsets.UTF_8).length),
                r.headers().firstValue("Content-Length").orElseThrow());
        assertTrue(r.headers().firstValue("X-Before").isEmpty());
    }

    @Test
    void headGetsTheHeadWithTheBodysLengthAndNoBody() throws Exception {
        try (RawHttp c = new RawHttp(server.port(), 2000)) {
            RawHttp.Response r = c.send("HEAD /taken HTTP/1.1\r\nHost: x\r\n\r\n").readHead();
            assertEquals(409, r.status());
            assertEquals("application/problem+json", r.header("Content-Type"));
            assertEquals(String.valueOf(CONFLICT.length()), r.header("Content-Length"));
            assertTrue(c.closedByServer(), "no body bytes follow the head: the connection just ends");
        }
    }

    @Test
    void withoutABodyTheReasonPhraseAsBefore() throws Exception {
        try (RawHttp c = new RawHttp(server.port())) {
            RawHttp.Response r = c.send("GET /plain HTTP/1.1\r\nHost: x\r\n\r\n").read();
            assertEquals(403, r.status());
            assertEquals("text/plain; charset=UTF-8", r.header("Content-Type"));
            assertEquals("Forbidden\n", r.text());
        }
    }

    @Test
    void jsonOfAnotherContentTypeIs415WithAProblem() throws Exception {
        try (RawHttp c = new RawHttp(server.port())) {
            RawHttp.Response r = c.send("POST /json HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
                    + "Content-Length: 2\r\n\r\n{}").read();
            assertEquals(415, r.status());
            assertEquals("application/problem+json", r.header("Content-Type"));
            assertEquals(Problem.of(415, "The request body must be JSON (application/json).").toJson(), r.text());
        }
    }

    @Test
    void withoutACodecTheMessageNamesLoomMpmJackson() throws Exception {
        IllegalStateException e = assertThrows(IllegalStateException.class, JsonCodecs::find);
        assertTrue(e.getMessage().contains("loom-mpm-jackson"), e.getMessage());
        try (RawHttp c = new RawHttp(server.port())) {
            assertEquals(e.getMessage(), c.send("GET /codec HTTP/1.1\r\nHost: x\r\n\r\n").read().text());
            // Request.json without a codec is the application's deployment error: 500, nothing shown.
            RawHttp.Response r = c.send("POST /json HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 2\r\n\r\n{}").read();
            assertEquals(500, r.status());
            assertNull(r.header("X-Before"));
        }
    }
}
