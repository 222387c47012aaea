package org.loommpm.compress.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.loommpm.api.Handler;
import org.loommpm.api.Headers;
import org.loommpm.server.LoomServer;
import org.loommpm.api.Response;
import org.loommpm.api.Router;
import org.loommpm.api.SuspendedResponse;
import org.loommpm.compress.CompressionFilter;
import org.loommpm.compress.CompressionSettings;
import org.loommpm.compress.ContentCoding;
import org.loommpm.testsupport.RawHttp;
import org.loommpm.testsupport.TestServers;

/**
 * {@code Response.sendInterim}: 103 Early Hints (RFC 8297) ahead of the answer, from a handler on
 * a worker, from one on the poller and from a suspended exchange; none for an HTTP/1.0 client
 * (RFC 9110 §15.2); and the misuses it refuses.
 */
class InterimResponseTest {
    private static final String LINK = "</style.css>; rel=preload; as=style";
    private static LoomServer server;

    private static Headers hints() {
        return new Headers().add("Link", LINK);
    }

    @BeforeAll
    static void start() throws Exception {
        Router router = new Router()
                .get("/hints", (req, res) -> {
                    boolean sent = res.sendInterim(103, hints());
                    res.send("sent=" + sent);
                })
                .get("/inline", Handler.nonBlocking((req, res) -> {
                    res.sendInterim(103, hints());
                    res.send("inline");
                }))
                .get("/coded", new CompressionFilter(CompressionSettings.builder()
                        .types(ContentCoding.GZIP, "text/plain").minimumSize(16).build()).around((req, res) -> {
                            res.sendInterim(103, hints());
                            res.header("Content-Type", "text/plain").send("coded ".repeat(100));
                        }))
                .get("/suspended", (req, res) -> {
                    SuspendedResponse later = res.suspend();
                    Thread.ofVirtual().start(() -> {
                        try {
                            later.sendInterim(103, hints());
                            later.sendInterim(102, new Headers());
                            later.send("later");
                        } catch (IOException e) {
                            later.abort();
                        }
                    });
                })
                .get("/misuse", (req, res) -> res.send(String.join(" ",
                        refusal(res, 100, new Headers()), refusal(res, 101, new Headers()),
                        refusal(res, 200, new Headers()), refusal(res, 103, new Headers().add("Content-Length", "0")),
                        refusal(res, 103, new Headers().add("Connection", "close")),
                        refusal(res, 103, new Headers().add("Link", "a\r\nX: y")))))
                .get("/late", (req, res) -> {
                    res.outputStream().write('x');
                    res.outputStream().flush();
                    res.outputStream().write((" " + refusal(res, 103, hints())).getBytes());
                });
        server = TestServers.start(router);
    }

    /** {@return the simple name of what sendInterim threw, or "sent"} */
    private static String refusal(Response res, int status, Headers fields) throws IOException {
        try {
            res.sendInterim(status, fields);
            return "sent";
        } catch (IllegalArgumentException | IllegalStateException e) {
            return e.getClass().getSimpleName();
        }
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void earlyHintsGoOutBeforeTheAnswer() throws Exception {
        try (RawHttp c = new RawHttp(server.port())) {
            for (int i = 0; i < 2; i++) { // and the connection stays usable
                c.send("GET /hints HTTP/1.1\r\nHost: x\r\n\r\n");
                RawHttp.Response hint = c.read();
                assertEquals(103, hint.status());
                assertEquals(LINK, hint.header("Link"));
                assertEquals(0, hint.body().length);
                RawHttp.Response r = c.read();
                assertEquals(200, r.status());
                assertEquals("sent=true", r.text());
            }
        }
    }

    @Test
    void aHandlerOnThePollerSendsThemToo() throws Exception {
        try (RawHttp c = new RawHttp(server.port())) {
            c.send("GET /inline HTTP/1.1\r\nHost: x\r\n\r\n");
            assertEquals(103, c.read().status());
            assertEquals("inline", c.read().text());
        }
    }

    @Test
    void theCompressionFilterLetsThemThrough() throws Exception {
        try (RawHttp c = new RawHttp(server.port())) {
            c.send("GET /coded HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n");
            assertEquals(LINK, c.read().header("Link"));
            RawHttp.Response r = c.read();
            assertEquals("gzip", r.header("Content-Encoding"));
            assertEquals("coded ".repeat(100), new String(CompressionTest.decode("gzip", r.body()), "UTF-8"));
        }
    }

    @Test
    void aSuspendedExchangeSendsThemBeforeItsHead() throws Exception {
        try (RawHttp c = new RawHttp(server.port())) {
            c.send("GET /suspended HTTP/1.1\r\nHost: x\r\n\r\n");
            RawHttp.Response hint = c.read();
            assertEquals(103, hint.status());
            assertEquals(LINK, hint.header("Link"));
            assertEquals(102, c.read().status());
            assertEquals("later", c.read().text());
        }
    }

    @Test
    void anHttp10ClientGetsNone() throws Exception {
        try (RawHttp c = new RawHttp(server.port())) {
            c.send("GET /hints HTTP/1.0\r\nHost: x\r\n\r\n");
            RawHttp.Response r = c.read();
            assertEquals(200, r.status());
            assertEquals("sent=false", r.text());
        }
    }

    @Test
    void whatNoInterimResponseMayBeIsRefused() throws Exception {
        try (RawHttp c = new RawHttp(server.port())) {
            c.send("GET /misuse HTTP/1.1\r\nHost: x\r\n\r\n");
            RawHttp.Response r = c.read();
            assertEquals(200, r.status(), "no interim response went out");
            assertEquals("IllegalArgumentException IllegalArgumentException IllegalArgumentException "
                    + "IllegalArgumentException IllegalArgumentException IllegalArgumentException", r.text());
            c.send("GET /late HTTP/1.1\r\nHost: x\r\n\r\n");
            assertEquals("x IllegalStateException", c.read().text());
        }
    }
}
