package org.loommpm.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.loommpm.api.Router;
import org.loommpm.server.LoomServer;

/**
 * The bench jar's toolkit endpoints on the loom app, as the issue specifies them for checks from
 * outside: {@code POST /form}, {@code POST /upload}, {@code POST /json} and its CORS preflight.
 */
class LoomToolkitTest {
    private final HttpClient client = HttpClient.newHttpClient();
    private LoomServer server;

    @BeforeEach
    void start() throws Exception {
        server = LoomServer.builder().listen("127.0.0.1", 0).handler(LoomToolkit.routes(new Router())).start();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private HttpResponse<String> send(HttpRequest.Builder b) throws Exception {
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpRequest.Builder at(String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path));
    }

    @Test
    void formAnswersTheDecodedFormAsJson() throws Exception {
        HttpResponse<String> r = send(at("/form").header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("x=1&x=2&y=%C3%A9+z")));
        assertEquals("{\"x\":[\"1\",\"2\"],\"y\":[\"é z\"]}", r.body());
        assertEquals(400, send(at("/form").header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("x=%zz"))).statusCode());
    }

    @Test
    void uploadAnswersEachPartsSizeAndDigest() throws Exception {
        String boundary = "b0undary";
        String body = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhello\r\n--" + boundary
                + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\n\r\nabc\r\n--" + boundary + "--\r\n";
        HttpResponse<String> r = send(at("/upload").header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofString(body)));
        String abc = HexFormat.of().formatHex(Toolkit.sha256().digest("abc".getBytes(StandardCharsets.UTF_8)));
        assertEquals(200, r.statusCode(), r.body());
        assertTrue(r.body().contains("{\"name\":\"file\",\"filename\":\"a.txt\",\"size\":3,\"sha256\":\"" + abc + "\"}"), r.body());
        assertTrue(r.body().startsWith("[{\"name\":\"note\",\"filename\":null,\"size\":5,"), r.body());
    }

    @Test
    void jsonEchoesTheObjectAndAllowsExampleTest() throws Exception {
        HttpResponse<String> r = send(at("/json").header("Content-Type", "application/json")
                .header("Origin", "http://example.test").POST(HttpRequest.BodyPublishers.ofString("{\"a\":[1,2]}")));
        assertEquals("{\"a\":[1,2],\"echo\":true}", r.body());
        assertEquals("http://example.test", r.headers().firstValue("Access-Control-Allow-Origin").orElse(""));
        assertEquals("{\"message\":\"Hello, World!\"}", send(at("/json")).body());
        assertEquals(400, send(at("/json").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"a\":"))).statusCode());
    }

    @Test
    void thePreflightIsAnsweredForExampleTestOnly() throws Exception {
        HttpResponse<String> ok = send(at("/json").method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                .header("Origin", "http://example.test").header("Access-Control-Request-Method", "POST")
                .header("Access-Control-Request-Headers", "content-type"));
        assertEquals(204, ok.statusCode());
        assertEquals("http://example.test", ok.headers().firstValue("Access-Control-Allow-Origin").orElse(""));
        HttpResponse<String> other = send(at("/json").method("OPTIONS", HttpRequest.BodyPublishers.noBody())
                .header("Origin", "http://evil.test").header("Access-Control-Request-Method", "POST"));
        assertEquals(403, other.statusCode());
    }
}
