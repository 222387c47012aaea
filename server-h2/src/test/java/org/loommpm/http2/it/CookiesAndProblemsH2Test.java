package org.loommpm.http2.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.CookieManager;
import java.net.CookiePolicy;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.text.MessageFormat;
import java.time.Duration;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.loommpm.api.HttpException;
import org.loommpm.api.Problem;
import org.loommpm.api.Router;
import org.loommpm.cookie.SetCookie;
import org.loommpm.server.LoomServer;
import org.loommpm.testsupport.LogCapture;

/**
 * Cookies and an {@link HttpException}'s own body over h2c, with the JDK's HttpClient: the
 * {@link CookieManager} round trip; HEAD of a failing request (the head alone); a 64 KiB Cookie
 * field past H2MaxHeaderListSize (431, LM0709) and too many cookies within it (431, LM2750).
 */
class CookiesAndProblemsH2Test {
    private static final String GONE = Problem.of(410, "the item was removed").toJson();
    private static LoomServer server;

    @BeforeAll
    static void start() throws Exception {
        server = LoomServer.builder()
                .listen("127.0.0.1", 0)
                .configure(c -> c.gracefulShutdownTimeout(Duration.ofSeconds(5)))
                .handler(new Router()
                        .get("/ping", (req, res) -> res.send(req.protocol()))
                        .get("/login", (req, res) -> {
                            res.cookie(SetCookie.builder("sid", "abc").path("/").httpOnly(true).build());
                            res.cookie(SetCookie.builder("lang", "en").path("/").build());
                            res.send("in");
                        })
                        .get("/cookies", (req, res) -> res.send(req.cookies().stream()
                                .map(c -> c.name() + "=" + c.value()).collect(Collectors.joining("|"))))
                        .get("/gone", (req, res) -> {
                            throw HttpException.problem(Problem.of(410, "the item was removed"), "LM0000 test: gone");
                        }))
                .start();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.port() + path);
    }

    private static HttpClient h2c(HttpClient.Builder b) throws Exception {
        HttpClient client = b.version(HttpClient.Version.HTTP_2).build();
        assertEquals("HTTP/2.0", client.send(HttpRequest.newBuilder(uri("/ping")).build(),
                HttpResponse.BodyHandlers.ofString()).body());
        return client;
    }

    @Test
    void theCookieManagerRoundTrip() throws Exception {
        HttpClient client = h2c(HttpClient.newBuilder().cookieHandler(new CookieManager(null, CookiePolicy.ACCEPT_ALL)));
        HttpResponse<String> login = client.send(HttpRequest.newBuilder(uri("/login")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(HttpClient.Version.HTTP_2, login.version());
        assertEquals(List.of("sid=abc; Path=/; HttpOnly", "lang=en; Path=/"), login.headers().allValues("set-cookie"));
        String sent = client.send(HttpRequest.newBuilder(uri("/cookies")).build(), HttpResponse.BodyHandlers.ofString())
                .body();
        assertTrue(sent.equals("sid=abc|lang=en") || sent.equals("lang=en|sid=abc"), sent);
    }

    @Test
    void theProblemIsTheBodyAndHeadGetsNone() throws Exception {
        HttpClient client = h2c(HttpClient.newBuilder());
        HttpResponse<String> r = client.send(HttpRequest.newBuilder(uri("/gone")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(HttpClient.Version.HTTP_2, r.version());
        assertEquals(410, r.statusCode());
        assertEquals("application/problem+json", r.headers().firstValue("content-type").orElseThrow());
        assertEquals(GONE, r.body());
        HttpResponse<String> head = client.send(HttpRequest.newBuilder(uri("/gone"))
                .method("HEAD", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(410, head.statusCode());
        assertEquals("", head.body());
        assertEquals(String.valueOf(GONE.length()), head.headers().firstValue("content-length").orElseThrow());
    }

    @Test
    void aCookieFieldOf64KiBIs431() throws Exception {
        HttpClient client = h2c(HttpClient.newBuilder());
        try (LogCapture log = new LogCapture()) {
            HttpResponse<String> r = client.send(HttpRequest.newBuilder(uri("/cookies"))
                    .header("Cookie", "big=" + "x".repeat(64 * 1024)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(431, r.statusCode());
            assertTrue(logged(log, "LM0709").contains("431"));
        }
    }

    @Test
    void tooManyCookiesWithinTheListSizeIs431() throws Exception {
        HttpClient client = h2c(HttpClient.newBuilder());
        StringBuilder cookies = new StringBuilder();
        for (int i = 0; i < 1000; i++) {
            cookies.append("c").append(i).append("=1; ");
        }
        try (LogCapture log = new LogCapture()) {
            HttpResponse<String> r = client.send(HttpRequest.newBuilder(uri("/cookies"))
                    .header("Cookie", cookies.toString()).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(431, r.statusCode());
            assertTrue(r.body().contains("Cookie"), r.body());
            assertTrue(logged(log, "LM0709").contains("LM2750"));
        }
    }

    private static String logged(LogCapture log, String id) {
        return log.find(Level.FINE, id).stream().map(CookiesAndProblemsH2Test::format).collect(Collectors.joining("\n"));
    }

    private static String format(LogRecord r) {
        return r.getParameters() == null ? r.getMessage() : MessageFormat.format(r.getMessage(), r.getParameters());
    }
}
