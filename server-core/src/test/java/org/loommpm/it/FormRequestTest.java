package org.loommpm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.loommpm.api.Router;
import org.loommpm.form.FormData;
import org.loommpm.form.FormLimits;
import org.loommpm.server.LoomServer;
import org.loommpm.testsupport.LogCapture;
import org.loommpm.testsupport.RawHttp;
import org.loommpm.testsupport.TestServers;

/**
 * {@code Request.form()} over HTTP/1.1 with the JDK's client and raw sockets: decoded once (a
 * filter and the handler both ask), repeated keys, charset; and each bad input answered with its
 * status, its log id in the LM0406 line.
 */
class FormRequestTest {
    private static LoomServer server;

    @BeforeAll
    static void start() throws Exception {
        Router router = new Router()
                .filter((req, res, next) -> {
                    if (req.path().equals("/twice")) {
                        req.attributes().put("seen-by-filter", req.form().first("a"));
                    }
                    next.handle(req, res);
                })
                .post("/form", (req, res) -> res.send(describe(req.form())))
                .post("/twice", (req, res) -> res.send(req.attributes().get("seen-by-filter") + " " + describe(req.form())))
                .post("/small", (req, res) -> res.send(describe(req.form(FormLimits.DEFAULTS.withMaxFields(2)))));
        server = TestServers.start(router);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static String describe(FormData f) {
        return f.asMap().toString();
    }

    @Test
    void theJdkClientPostsAForm() throws Exception {
        HttpClient client = HttpClient.newHttpClient();
        HttpResponse<String> r = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/form"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("name=Ada+Lovelace&lang=en&lang=fr&city=K%C3%B6ln&note="))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode());
        assertEquals("{name=[Ada Lovelace], lang=[en, fr], city=[Köln], note=[]}", r.body());
    }

    @Test
    void theBodyIsReadOnceAndCached() throws Exception {
        try (RawHttp http = new RawHttp(server.port())) {
            RawHttp.Response r = http.send(post("/twice", "application/x-www-form-urlencoded", "a=1&b=2")).read();
            assertEquals("1 {a=[1], b=[2]}", r.text());
            // The connection stays usable: the body was consumed exactly.
            assertEquals("{c=[3]}", http.send(post("/form", "application/x-www-form-urlencoded", "c=3")).read().text());
        }
    }

    @Test
    void charsetFromTheContentTypeOrTheCharsetField() throws Exception {
        try (RawHttp http = new RawHttp(server.port())) {
            assertEquals("{city=[Köln]}", http.send(post("/form",
                    "application/x-www-form-urlencoded; charset=ISO-8859-1", "city=K%F6ln")).read().text());
            assertEquals("{_charset_=[windows-1252], city=[Köln]}", http.send(post("/form",
                    "application/x-www-form-urlencoded", "_charset_=windows-1252&city=K%F6ln")).read().text());
        }
    }

    @Test
    void chunkedFormsAreDecodedToo() throws Exception {
        try (RawHttp http = new RawHttp(server.port())) {
            String req = "POST /form HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                    + "Transfer-Encoding: chunked\r\n\r\n3\r\na=1\r\n4\r\n&b=2\r\n0\r\n\r\n";
            assertEquals("{a=[1], b=[2]}", http.send(req).read().text());
        }
    }

    @Test
    void badInputGetsItsStatusAndLogId() throws Exception {
        String form = "application/x-www-form-urlencoded";
        assertRejected(post("/form", form, "a=%zz"), 400, "LM2700");
        assertRejected(post("/form", form, "a=" + "x".repeat(64 * 1024)), 413, "LM2701");
        assertRejected(chunked("/form", form, "a=" + "x".repeat(64 * 1024)), 413, "LM2701");
        assertRejected(post("/small", form, "a=1&b=2&c=3"), 413, "LM2702");
        assertRejected(post("/form", "text/plain", "a=1"), 415, "LM2703");
        assertRejected("POST /form HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\na=1", 415, "LM2703");
        assertRejected(post("/form", form + "; charset=klingon", "a=1"), 415, "LM2704");
    }

    @Test
    void thousandsOfFieldsAreRefusedAtTheLimit() throws Exception {
        assertRejected(post("/form", "application/x-www-form-urlencoded", "a=1&".repeat(10_000)), 413, "LM2702");
    }

    private static void assertRejected(String request, int status, String id) throws Exception {
        try (LogCapture log = new LogCapture(); RawHttp http = new RawHttp(server.port())) {
            RawHttp.Response r = http.send(request).read();
            assertEquals(status, r.status(), id);
            TestServers.waitFor(id + " logged", 5, () -> log.find(java.util.logging.Level.FINE, "LM0406").stream()
                    .anyMatch(rec -> Logs.text(rec).contains(" " + status + ": " + id + " ")));
        }
    }

    static String post(String path, String type, String body) {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        return "POST " + path + " HTTP/1.1\r\nHost: x\r\nContent-Type: " + type + "\r\nContent-Length: " + b.length
                + "\r\n\r\n" + body;
    }

    private static String chunked(String path, String type, String body) {
        return "POST " + path + " HTTP/1.1\r\nHost: x\r\nContent-Type: " + type + "\r\nTransfer-Encoding: chunked\r\n\r\n"
                + Integer.toHexString(body.length()) + "\r\n" + body + "\r\n0\r\n\r\n";
    }
}
