package org.loommpm.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.loommpm.server.LoomServer;
import org.loommpm.testsupport.LogCapture;
import org.loommpm.testsupport.TestServers;

/**
 * {@link Request#pathParam(String, Class)}, {@link Request#queryParam(String, Class)} and the
 * negotiation helpers through a real server and client: a bad value is the client's 400 with a
 * log id, a missing path variable the code's 500.
 */
class TypedParamsTest {
    enum Color { RED, GREEN, Blue, BLUE }

    private static LoomServer server;
    private static final HttpClient CLIENT = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        Router r = new Router()
                .get("/int/{id}", (q, s) -> s.send("id+1=" + (q.pathParam("id", int.class) + 1)))
                .get("/long/{id}", (q, s) -> s.send("long " + q.pathParam("id", Long.class)))
                .get("/uuid/{id}", (q, s) -> s.send("uuid " + q.pathParam("id", UUID.class)))
                .get("/color/{c}", (q, s) -> s.send("color " + q.pathParam("c", Color.class).name()))
                .get("/bool/{b}", (q, s) -> s.send("bool " + q.pathParam("b", boolean.class)))
                .get("/double/{d}", (q, s) -> s.send("double " + q.pathParam("d", double.class)))
                .get("/typo/{id}", (q, s) -> s.send("typo " + q.pathParam("ID", int.class)))
                .get("/query", (q, s) -> s.send("page=" + q.queryParam("page", Integer.class)
                        + " size=" + q.queryParam("size", int.class) + " name=" + q.queryParam("name", String.class)))
                .get("/doc", (q, s) -> {
                    String type = q.negotiateType("application/json", "text/html");
                    Locale l = q.preferredLocale(Locale.ENGLISH, Locale.GERMAN);
                    s.header("Content-Type", type).send(type + " " + l);
                })
                .get("/maybe", (q, s) -> s.send(String.valueOf(q.preferredType("text/csv"))));
        server = TestServers.start(r);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static HttpResponse<String> get(String path, String... headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path));
        if (headers.length > 0) {
            b.headers(headers);
        }
        return CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static void ok(String path, String body) throws Exception {
        HttpResponse<String> r = get(path);
        assertEquals(200, r.statusCode(), path + ": " + r.body());
        assertEquals(body, r.body(), path);
    }

    @Test
    void valuesOfEachType() throws Exception {
        ok("/int/41", "id+1=42");
        ok("/int/-7", "id+1=-6");
        ok("/long/9000000000", "long 9000000000");
        ok("/uuid/123e4567-e89b-12d3-a456-426614174000", "uuid 123e4567-e89b-12d3-a456-426614174000");
        ok("/color/RED", "color RED");
        ok("/color/green", "color GREEN");
        ok("/color/Blue", "color Blue");
        ok("/bool/TRUE", "bool true");
        ok("/double/-1.5e3", "double -1500.0");
        ok("/query?page=2&size=10&name=x%20y", "page=2 size=10 name=x y");
        ok("/query?size=3", "page=null size=3 name=null");
    }

    @Test
    void badValuesAre400WithALogId() throws Exception {
        try (LogCapture log = new LogCapture()) {
            for (String path : List.of("/int/abc", "/int/2147483648", "/int/%D9%A1", "/int/1.0", "/long/0x10",
                    "/uuid/1-2-3-4-5", "/uuid/123e4567-e89b-12d3-a456-42661417400g", "/color/blue",
                    "/color/PURPLE", "/bool/yes", "/double/NaN", "/double/1d", "/double/Infinity")) {
                HttpResponse<String> r = get(path);
                assertEquals(400, r.statusCode(), path + ": " + r.body());
                assertEquals("Bad Request\n", r.body(), "the log gets the reason, not the client");
            }
            for (String path : List.of("/query?page=x&size=1", "/query?size=", "/query")) {
                assertEquals(400, get(path).statusCode(), path);
            }
            List<LogRecord> lines = log.find(Level.FINE, "LM0406");
            String all = lines.stream().map(l -> String.valueOf(l.getParameters()[3])).toList().toString();
            assertTrue(all.contains("LM2760 path parameter 'id': 'abc' is not an int"), all);
            assertTrue(all.contains("LM2760 path parameter 'c': 'blue' is not one of RED, GREEN, Blue, BLUE"), all);
            assertTrue(all.contains("LM2761 query parameter 'page': 'x' is not an int"), all);
            assertTrue(all.contains("LM2761 query parameter 'size': '' is not an int"), all);
            assertTrue(all.contains("LM2762 query parameter 'size' is required (int) but absent"), all);
        }
    }

    @Test
    void aVariableTheRouteDoesNotHaveIsTheCodesMistake() throws Exception {
        try (LogCapture log = new LogCapture()) {
            assertEquals(500, get("/typo/1").statusCode());
            TestServers.waitFor("LM0401", 5, () -> !log.find(Level.SEVERE, "LM0401").isEmpty());
        }
    }

    @Test
    void negotiationHelpers() throws Exception {
        HttpResponse<String> r = get("/doc", "Accept", "text/html, application/json;q=0.9",
                "Accept-Language", "de-AT, en;q=0.5");
        assertEquals("text/html de", r.body());
        assertEquals("application/json en", get("/doc").body(), "no Accept: the first offer");
        assertEquals(406, get("/doc", "Accept", "image/png").statusCode());
        assertEquals("text/csv", get("/maybe", "Accept", "text/plain;q=0.5", "Accept", "text/csv").body(),
                "every Accept line counts");
        assertEquals("null", get("/maybe", "Accept", "text/plain").body());
    }
}
