package org.loommpm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.CookieManager;
import java.net.CookiePolicy;
import java.net.HttpCookie;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.text.MessageFormat;
import java.time.Duration;
import java.util.List;
import java.util.logging.Level;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.loommpm.api.Router;
import org.loommpm.cookie.Cookie;
import org.loommpm.cookie.SetCookie;
import org.loommpm.server.LoomServer;
import org.loommpm.testsupport.LogCapture;
import org.loommpm.testsupport.RawHttp;
import org.loommpm.testsupport.TestServers;

/**
 * {@code Request.cookies()}, {@code Request.cookie(name)} and {@code Response.cookie(SetCookie)}
 * against real clients: the JDK's {@link CookieManager} stores what the server sets and sends it
 * back; raw sockets send what browsers send (several fields, malformed pairs) and what attackers
 * send (a 64 KiB Cookie field, thousands of cookies), each answered with its exact status.
 */
class CookiesTest {
    private static LoomServer server;

    @BeforeAll
    static void start() throws Exception {
        server = TestServers.start(new Router()
                .get("/login", (req, res) -> {
                    res.cookie(SetCookie.builder("sid", "s3cr3t").path("/").httpOnly(true)
                            .sameSite(SetCookie.SameSite.LAX).maxAge(Duration.ofHours(1)).build());
                    res.cookie(SetCookie.builder("theme", "dark").path("/").build());
                    res.send("in");
                })
                .get("/logout", (req, res) -> {
                    res.cookie(SetCookie.expire("sid").path("/").build());
                    res.send("out");
                })
                .get("/whoami", (req, res) -> res.send("sid=" + req.cookie("sid") + " theme=" + req.cookie("theme")))
                .get("/all", (req, res) -> res.send(req.cookies().stream()
                        .map(c -> c.name() + "=" + c.value()).collect(Collectors.joining("|")))));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.port() + path);
    }

    @Test
    void theJdkCookieManagerStoresWhatIsSetAndSendsItBack() throws Exception {
        CookieManager jar = new CookieManager(null, CookiePolicy.ACCEPT_ALL);
        HttpClient client = HttpClient.newBuilder().cookieHandler(jar).build();
        HttpResponse<String> login = client.send(HttpRequest.newBuilder(uri("/login")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(List.of("sid=s3cr3t; Max-Age=3600; Path=/; HttpOnly; SameSite=Lax", "theme=dark; Path=/"),
                login.headers().allValues("Set-Cookie"));
        HttpCookie sid = jar.getCookieStore().get(uri("/")).stream().filter(c -> c.getName().equals("sid"))
                .findFirst().orElseThrow();
        assertTrue(sid.isHttpOnly());
        assertEquals(3600, sid.getMaxAge());
        assertEquals("sid=s3cr3t theme=dark", client.send(HttpRequest.newBuilder(uri("/whoami")).build(),
                HttpResponse.BodyHandlers.ofString()).body());
        client.send(HttpRequest.newBuilder(uri("/logout")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals("sid=null theme=dark", client.send(HttpRequest.newBuilder(uri("/whoami")).build(),
                HttpResponse.BodyHandlers.ofString()).body());
    }

    @Test
    void severalCookieFieldsAreOneListAndMalformedPairsAreSkipped() throws Exception {
        try (RawHttp c = new RawHttp(server.port())) {
            RawHttp.Response r = c.send("GET /all HTTP/1.1\r\nHost: x\r\nCookie: a=1; junk; =x; b=\"2\"\r\n"
                    + "Cookie: a=3\r\n\r\n").read();
            assertEquals(200, r.status());
            assertEquals("a=1|b=2|a=3", r.text());
        }
    }

    @Test
    void noCookieHeaderMeansNoCookies() throws Exception {
        try (RawHttp c = new RawHttp(server.port())) {
            assertEquals("", c.send("GET /all HTTP/1.1\r\nHost: x\r\n\r\n").read().text());
        }
    }

    @Test
    void aCookieFieldOf64KiBIs431FromTheHeadLimits() throws Exception {
        // Today's behaviour, kept: the field line is over LimitRequestFieldSize (8190), so the head
        // is refused before any handler runs (LM0403), and the connection closed.
        try (LogCapture log = new LogCapture(); RawHttp c = new RawHttp(server.port())) {
            RawHttp.Response r = c.send("GET /all HTTP/1.1\r\nHost: x\r\nCookie: big=" + "x".repeat(64 * 1024)
                    + "\r\n\r\n").read();
            assertEquals(431, r.status());
            assertEquals("close", r.header("Connection"));
            assertTrue(log.find(Level.FINE, "LM0403").stream().anyMatch(rec -> format(rec).contains("431")),
                    "LM0403 logged");
        }
    }

    @Test
    void moreThan200CookiesIs431NamingTheCookieField() throws Exception {
        // With the field limit raised, 64 KiB of cookies reach the handler: the cookie count bounds them.
        try (LoomServer big = TestServers.start((req, res) -> res.send("n=" + req.cookies().size()),
                c -> c.limitRequestFieldSize(128 * 1024));
             LogCapture log = new LogCapture(); RawHttp c = new RawHttp(big.port())) {
            StringBuilder cookies = new StringBuilder();
            for (int i = 0; cookies.length() < 64 * 1024; i++) {
                cookies.append("c").append(i).append("=v; ");
            }
            RawHttp.Response r = c.send("GET / HTTP/1.1\r\nHost: x\r\nCookie: " + cookies + "\r\n\r\n").read();
            assertEquals(431, r.status());
            assertEquals("text/plain; charset=UTF-8", r.header("Content-Type"));
            assertTrue(r.text().contains("Cookie"), r.text());
            assertTrue(log.find(Level.FINE, "LM0406").stream().anyMatch(rec -> format(rec).contains("LM2750")),
                    "LM0406 with LM2750 logged");
        }
        try (LoomServer big = TestServers.start((req, res) -> res.send("n=" + req.cookies().size()));
             RawHttp c = new RawHttp(big.port())) {
            StringBuilder cookies = new StringBuilder();
            for (int i = 0; i < 200; i++) {
                cookies.append("c").append(i).append("=1;");
            }
            assertEquals("n=200", c.send("GET / HTTP/1.1\r\nHost: x\r\nCookie: " + cookies + "\r\n\r\n").read().text());
        }
    }

    @Test
    void anInvalidSetCookieIsRefusedBeforeAnythingIsSent() throws Exception {
        try (LoomServer s = TestServers.start((req, res) -> {
                 res.send(Stream.of("a b", "a;b", "a\r\nX-Injected: 1").map(v -> {
                     try {
                         SetCookie.builder("n", v);
                         return "accepted";
                     } catch (IllegalArgumentException e) {
                         return "refused";
                     }
                 }).collect(Collectors.joining(",")));
             });
             RawHttp c = new RawHttp(s.port())) {
            RawHttp.Response r = c.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n").read();
            assertEquals("refused,refused,refused", r.text());
            assertNull(r.header("Set-Cookie"));
            assertNull(r.header("X-Injected"));
        }
        assertThrows(IllegalArgumentException.class, () -> SetCookie.builder("bad name", "v"));
        assertFalse(new Cookie("a", "b").value().isEmpty());
    }

    private static String format(java.util.logging.LogRecord r) {
        return r.getParameters() == null ? r.getMessage() : MessageFormat.format(r.getMessage(), r.getParameters());
    }
}
