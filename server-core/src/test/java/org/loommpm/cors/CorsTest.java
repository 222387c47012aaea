package org.loommpm.cors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.loommpm.api.HttpException;
import org.loommpm.api.Router;
import org.loommpm.server.LoomServer;
import org.loommpm.testsupport.LogCapture;
import org.loommpm.testsupport.RawHttp;
import org.loommpm.testsupport.TestServers;

/** The CORS protocol through a real server: a browser's requests written out by a client. */
class CorsTest {
    private static final String APP = "https://app.example.com";
    private final HttpClient client = HttpClient.newHttpClient();
    private final AtomicInteger handled = new AtomicInteger();
    private LoomServer server;

    private void start(Cors cors) throws Exception {
        Router r = new Router()
                .get("/api", (q, s) -> {
                    handled.incrementAndGet();
                    s.header("Location", "/x").send("data");
                })
                .put("/api", (q, s) -> s.send("put"))
                .get("/vary", (q, s) -> {
                    s.headers().add("Vary", "Accept");
                    s.send("v");
                })
                .get("/fail", (q, s) -> {
                    throw new HttpException(400, "bad input");
                })
                .get("/stream", (q, s) -> {
                    try (var out = s.outputStream()) {
                        out.write(new byte[200_000]);
                    }
                })
                .filter(cors);
        server = TestServers.start(r);
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private HttpResponse<String> send(String method, String path, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .method(method, HttpRequest.BodyPublishers.noBody());
        if (headers.length > 0) {
            b.headers(headers);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String field(HttpResponse<?> r, String name) {
        List<String> all = r.headers().allValues(name);
        return all.isEmpty() ? null : String.join(", ", all);
    }

    private static Cors typical() {
        return Cors.builder().allowOrigins(APP, "https://*.example.org")
                .allowMethods("GET", "POST", "PUT")
                .allowHeaders("Content-Type", "X-Token")
                .exposeHeaders("Location")
                .allowCredentials(true)
                .maxAge(Duration.ofMinutes(10))
                .build();
    }

    @Test
    void aRequestWithoutOriginReachesTheHandlerWithOnlyVaryOrigin() throws Exception {
        start(typical());
        HttpResponse<String> r = send("GET", "/api");
        assertEquals("data", r.body());
        assertEquals("Origin", field(r, "Vary"), "a shared cache must not give this answer to a CORS request");
        r.headers().map().keySet().forEach(n -> assertFalse(n.toLowerCase().startsWith("access-control"), n));
    }

    @Test
    void anyOriginWithoutCredentialsIsAStarAndNeedsNoVary() throws Exception {
        start(Cors.builder().allowAnyOrigin().build());
        HttpResponse<String> r = send("GET", "/api", "Origin", "https://anyone.test");
        assertEquals("*", field(r, "Access-Control-Allow-Origin"));
        assertEquals(null, field(r, "Vary"));
        assertEquals(null, field(send("GET", "/api"), "Vary"));
        assertEquals(null, field(r, "Access-Control-Allow-Credentials"));
    }

    @Test
    void anAllowedOriginIsEchoedWithCredentialsAndExposedHeaders() throws Exception {
        start(typical());
        HttpResponse<String> r = send("GET", "/api", "Origin", APP);
        assertEquals(200, r.statusCode());
        assertEquals(APP, field(r, "Access-Control-Allow-Origin"));
        assertEquals("true", field(r, "Access-Control-Allow-Credentials"));
        assertEquals("Location", field(r, "Access-Control-Expose-Headers"));
        assertEquals("Origin", field(r, "Vary"));
        assertEquals(null, field(r, "Access-Control-Allow-Methods"), "only a preflight lists methods");
    }

    @Test
    void wildcardOriginsMatchSubdomainsOnly() throws Exception {
        start(typical());
        for (String ok : List.of("https://a.example.org", "https://a.b-c.example.org", "HTTPS://A.EXAMPLE.ORG")) {
            assertEquals(ok, field(send("GET", "/api", "Origin", ok), "Access-Control-Allow-Origin"), ok);
        }
        for (String no : List.of("https://example.org", "https://evil-example.org", "https://a.example.org.evil.net",
                "http://a.example.org", "https://a.example.org:8443", "https://.example.org",
                "https://a..example.org", "https://x@a.example.org", "null", "https://app.example.com.evil.net",
                "https://app.example.com/")) {
            HttpResponse<String> r = send("GET", "/api", "Origin", no);
            assertEquals(200, r.statusCode(), "not refused: the browser keeps the page from reading it");
            assertEquals(null, field(r, "Access-Control-Allow-Origin"), no);
            assertEquals("Origin", field(r, "Vary"), no);
        }
    }

    @Test
    void anAllowedPreflightIsAnsweredWithoutTheHandler() throws Exception {
        start(typical());
        HttpResponse<String> r = send("OPTIONS", "/api", "Origin", APP, "Access-Control-Request-Method", "PUT",
                "Access-Control-Request-Headers", "content-type,x-token");
        assertEquals(204, r.statusCode());
        assertEquals(0, handled.get());
        assertEquals(APP, field(r, "Access-Control-Allow-Origin"));
        assertEquals("true", field(r, "Access-Control-Allow-Credentials"));
        assertEquals("GET, POST, PUT", field(r, "Access-Control-Allow-Methods"));
        assertEquals("content-type, x-token", field(r, "Access-Control-Allow-Headers"));
        assertEquals("600", field(r, "Access-Control-Max-Age"));
        assertEquals("Origin, Access-Control-Request-Method, Access-Control-Request-Headers", field(r, "Vary"));
        assertEquals(null, field(r, "Access-Control-Expose-Headers"), "not a preflight's field");
    }

    @Test
    void aRefusedPreflightIs403WithoutCorsFieldsAndSaysWhy() throws Exception {
        start(typical());
        try (LogCapture log = new LogCapture()) {
            HttpResponse<String> origin = send("OPTIONS", "/api", "Origin", "https://evil.test",
                    "Access-Control-Request-Method", "GET");
            HttpResponse<String> method = send("OPTIONS", "/api", "Origin", APP,
                    "Access-Control-Request-Method", "DELETE");
            HttpResponse<String> header = send("OPTIONS", "/api", "Origin", APP,
                    "Access-Control-Request-Method", "PUT", "Access-Control-Request-Headers", "content-type, x-admin");
            for (HttpResponse<String> r : List.of(origin, method, header)) {
                assertEquals(403, r.statusCode());
                assertEquals(null, field(r, "Access-Control-Allow-Origin"));
                assertEquals(null, field(r, "Access-Control-Allow-Methods"));
                assertEquals("Origin, Access-Control-Request-Method, Access-Control-Request-Headers", field(r, "Vary"));
            }
            assertEquals("CORS preflight refused: origin not allowed\n", origin.body());
            assertEquals("CORS preflight refused: method not allowed\n", method.body());
            assertEquals("CORS preflight refused: request header not allowed\n", header.body());
            assertEquals(0, handled.get());
            assertEquals(1, log.find(Level.FINE, "LM2770").size());
            assertEquals(1, log.find(Level.FINE, "LM2771").size());
            assertEquals(1, log.find(Level.FINE, "LM2772").size());
        }
    }

    @Test
    void credentialsNeverGetAStar() throws Exception {
        start(Cors.builder().allowAnyOrigin().allowAnyHeader().allowCredentials(true).build());
        HttpResponse<String> r = send("GET", "/api", "Origin", "https://anyone.test");
        assertEquals("https://anyone.test", field(r, "Access-Control-Allow-Origin"));
        assertEquals("Origin", field(r, "Vary"));
        assertEquals(null, field(send("GET", "/api", "Origin", "null"), "Access-Control-Allow-Origin"),
                "a sandboxed page must not read credentialed answers");
        HttpResponse<String> pre = send("OPTIONS", "/api", "Origin", "https://anyone.test",
                "Access-Control-Request-Method", "POST", "Access-Control-Request-Headers", "authorization, x-any");
        assertEquals(204, pre.statusCode());
        assertEquals("authorization, x-any", field(pre, "Access-Control-Allow-Headers"), "echoed, not *");
    }

    @Test
    void anExplicitNullOriginIsAllowed() throws Exception {
        start(Cors.builder().allowOrigins("null").build());
        assertEquals("null", field(send("GET", "/api", "Origin", "null"), "Access-Control-Allow-Origin"));
    }

    @Test
    void fieldsStayOnErrorsStreamsAndTheHandlersOwnVary() throws Exception {
        start(typical());
        HttpResponse<String> fail = send("GET", "/fail", "Origin", APP);
        assertEquals(400, fail.statusCode());
        assertEquals(APP, field(fail, "Access-Control-Allow-Origin"), "the page may read its 400");
        assertEquals("Origin", field(fail, "Vary"));
        HttpResponse<String> stream = send("GET", "/stream", "Origin", APP);
        assertEquals(200_000, stream.body().length());
        assertEquals(APP, field(stream, "Access-Control-Allow-Origin"));
        assertEquals("Origin, Accept", field(send("GET", "/vary", "Origin", APP), "Vary"));
    }

    @Test
    void anOptionsRequestThatIsNoPreflightReachesTheRouter() throws Exception {
        start(typical());
        HttpResponse<String> r = send("OPTIONS", "/api", "Origin", APP);
        assertEquals(204, r.statusCode());
        assertTrue(field(r, "Allow").contains("PUT"), "the router's own OPTIONS answer");
        assertEquals(APP, field(r, "Access-Control-Allow-Origin"));
    }

    @Test
    void twoOriginFieldsAreNoOrigin() throws Exception {
        start(typical());
        try (RawHttp raw = new RawHttp(server.port())) {
            RawHttp.Response r = raw.send("GET /api HTTP/1.1\r\nHost: x\r\nOrigin: " + APP + "\r\nOrigin: " + APP
                    + "\r\n\r\n").read();
            assertEquals(200, r.status());
            assertEquals(null, r.header("Access-Control-Allow-Origin"));
        }
    }

    @Test
    void configurationMistakesFailAtBuild() {
        for (String bad : List.of("https://example.com/", "example.com", "*.example.com", "https://a.*.example.com",
                "https://*example.com", "https://example.com/path", "https://*", "https://*.:443")) {
            assertThrows(IllegalArgumentException.class, () -> Cors.builder().allowOrigins(bad), bad);
        }
        assertThrows(IllegalStateException.class, () -> Cors.builder().build(), "no origin at all");
        assertThrows(IllegalArgumentException.class, () -> Cors.builder().allowHeaders("X Bad"));
        assertThrows(IllegalArgumentException.class, () -> Cors.builder().maxAge(Duration.ofSeconds(-1)));
    }
}
