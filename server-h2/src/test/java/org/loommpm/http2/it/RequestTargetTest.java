package org.loommpm.http2.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.loommpm.proxy.ProxyHandler;

/**
 * What an HTTP/2 request's method, target and host become for handlers and for the HTTP/1.1
 * request the proxy builds from them (RFC 9113 §8.1.1, §8.3.1; RFC 9110 §7.2, §7.6.1): one
 * consistent host, and no pseudo-header field that would be malformed, or would split the
 * request line or the Host of the backend's request, ever reaches a handler.
 */
class RequestTargetTest {
    private static final int PROTOCOL_ERROR = 1;
    private final BlockingQueue<String> backendHeads = new LinkedBlockingQueue<>();
    private final BlockingQueue<String> handled = new LinkedBlockingQueue<>();
    private ServerSocket backend;
    private H2Server front;

    /** A raw HTTP/1.1 backend that records each request head it receives and answers "ok". */
    @BeforeEach
    void start() throws Exception {
        backend = new ServerSocket(0);
        Thread.ofVirtual().start(() -> {
            for (;;) {
                try (Socket s = backend.accept()) {
                    backendHeads.add(readHead(s.getInputStream()));
                    s.getOutputStream().write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"
                            .getBytes(StandardCharsets.ISO_8859_1));
                } catch (Exception e) {
                    return; // closed by the test
                }
            }
        });
        ProxyHandler proxy = ProxyHandler.builder("/", "http://127.0.0.1:" + backend.getLocalPort() + "/")
                .preserveHost(true).build();
        front = H2Server.start((req, res) -> {
            handled.add(req.method() + " " + req.rawTarget() + " host=" + req.headers().all("Host"));
            proxy.handle(req, res);
        });
    }

    @AfterEach
    void stop() throws Exception {
        front.close();
        backend.close();
    }

    private static String readHead(InputStream in) throws Exception {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            head.write(b);
            matched = b == "\r\n\r\n".charAt(matched) ? matched + 1 : b == '\r' ? 1 : 0;
        }
        return head.toString(StandardCharsets.ISO_8859_1);
    }

    private String backendHead() throws InterruptedException {
        String head = backendHeads.poll(10, TimeUnit.SECONDS);
        assertNotNull(head, "the backend got no request");
        return head;
    }

    /** The request is reset PROTOCOL_ERROR, no handler sees it, and the connection goes on. */
    private void malformed(String... fields) throws Exception {
        try (FrameClient c = FrameClient.open(front.port())) {
            c.headers(1, true, fields);
            assertEquals(PROTOCOL_ERROR, c.expectRst(1), String.join(" ", fields));
            c.headers(3, true, FrameClient.get("/after"));
            assertEquals("ok", c.response(3).text());
        }
        assertEquals("GET /after host=[localhost]", handled.poll(10, TimeUnit.SECONDS), String.join(" ", fields));
        assertTrue(handled.isEmpty(), "a malformed request reached the handler: " + handled);
        assertTrue(backendHead().startsWith("GET /after HTTP/1.1\r\n"));
        assertTrue(backendHeads.isEmpty(), "a malformed request reached the backend: " + backendHeads);
    }

    @Test
    void theAuthorityIsTheHostHandlersAndTheBackendSee() throws Exception {
        try (FrameClient c = FrameClient.open(front.port())) {
            c.headers(1, true, ":method", "GET", ":scheme", "http", ":path", "/x", ":authority", "good.example",
                    "host", "evil.example");
            assertEquals("ok", c.response(1).text());
        }
        assertEquals("GET /x host=[good.example]", handled.poll(10, TimeUnit.SECONDS));
        String head = backendHead();
        // RFC 9113 §8.3.1: an intermediary building a Host field MUST take :authority's value.
        assertTrue(head.contains("\r\nHost: good.example\r\n"), head);
        assertTrue(head.contains("\r\nX-Forwarded-Host: good.example\r\n"), head);
        assertFalse(head.contains("evil"), head);
    }

    @Test
    void aMethodThatIsNotATokenIsMalformed() throws Exception {
        malformed(":method", "GET /admin", ":scheme", "http", ":path", "/x", ":authority", "a");
        malformed(":method", "", ":scheme", "http", ":path", "/x", ":authority", "a");
    }

    @Test
    void aPathThatIsNotAnAbsolutePathAndQueryIsMalformed() throws Exception {
        for (String path : List.of("/x HTTP/1.0", "/x\tHTTP/1.0", "/x\u000by", "/x#fragment", "/caf\u00e9")) {
            malformed(":method", "GET", ":scheme", "http", ":path", path, ":authority", "a");
        }
    }

    @Test
    void anInvalidAuthorityIsMalformed() throws Exception {
        for (String authority : List.of("user@a", "a b", "a/b?", "a:99999", "")) {
            malformed(":method", "GET", ":scheme", "http", ":path", "/x", ":authority", authority);
        }
        malformed(":method", "GET", ":scheme", "http", ":path", "/x", ":authority", "", "host", "evil.example");
        // RFC 9113 §8.5: CONNECT names host and port.
        malformed(":method", "CONNECT", ":authority", "a");
    }

    @Test
    void aSecondOrAnInvalidHostFieldIsMalformed() throws Exception {
        malformed(":method", "GET", ":scheme", "http", ":path", "/x", "host", "a.example", "host", "b.example");
        malformed(":method", "GET", ":scheme", "http", ":path", "/x", "host", "a.example/x?");
    }

    @Test
    void validTargetsAndAuthoritiesStillPass() throws Exception {
        try (FrameClient c = FrameClient.open(front.port())) {
            c.headers(1, true, ":method", "PATCH", ":scheme", "https", ":path", "/a/%20b;c?d=e&f=/g:h@i", ":authority",
                    "[::1]:8443");
            assertEquals("ok", c.response(1).text());
            c.headers(3, true, ":method", "GET", ":scheme", "http", ":path", "/y", "host", "h.example:81");
            assertEquals("ok", c.response(3).text());
        }
        assertEquals("PATCH /a/%20b;c?d=e&f=/g:h@i host=[[::1]:8443]", handled.poll(10, TimeUnit.SECONDS));
        assertEquals("GET /y host=[h.example:81]", handled.poll(10, TimeUnit.SECONDS));
    }

    @Test
    void fieldsTheUpgradedRequestsConnectionNamesStayOnItsHop() throws Exception {
        try (Socket s = new Socket("127.0.0.1", front.port())) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(("GET /up HTTP/1.1\r\nHost: a.example\r\nConnection: Upgrade, HTTP2-Settings, x-hop\r\n"
                    + "Upgrade: h2c\r\nHTTP2-Settings: AAMAAABk\r\nx-hop: secret\r\nx-end: kept\r\n\r\n")
                    .getBytes(StandardCharsets.ISO_8859_1));
            out.write(FrameClient.PREFACE);
            out.write(new byte[] {0, 0, 0, 4, 0, 0, 0, 0, 0}); // an empty SETTINGS
            out.flush();
            String head = backendHead();
            // RFC 9110 §7.6.1: a field named by Connection is the HTTP/1.1 hop's, never forwarded.
            assertFalse(head.contains("secret"), head);
            assertTrue(head.contains("\r\nx-end: kept\r\n"), head);
        }
    }

    /** HTTP/1.2 is processed as HTTP/1.1 (RFC 9110 §2.5), h2c upgrade included: 101, then stream 1. */
    @Test
    void aHigherMinorVersionUpgradesAsHttp11() throws Exception {
        try (Socket s = new Socket("127.0.0.1", front.port())) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(("GET /up HTTP/1.2\r\nHost: a.example\r\nConnection: Upgrade, HTTP2-Settings\r\n"
                    + "Upgrade: h2c\r\nHTTP2-Settings: AAMAAABk\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.write(FrameClient.PREFACE);
            out.write(new byte[] {0, 0, 0, 4, 0, 0, 0, 0, 0}); // an empty SETTINGS
            out.flush();
            byte[] first = s.getInputStream().readNBytes(34);
            assertEquals("HTTP/1.1 101 Switching Protocols\r\n", new String(first, StandardCharsets.ISO_8859_1));
            assertEquals("GET /up host=[a.example]", handled.poll(10, TimeUnit.SECONDS));
            assertTrue(backendHead().startsWith("GET /up HTTP/1.1\r\n"));
        }
    }

    @Test
    void anUpgradedAbsoluteFormRequestKeepsItsPath() throws Exception {
        try (Socket s = new Socket("127.0.0.1", front.port())) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(("GET http://a.example/up?q=1 HTTP/1.1\r\nHost: b.example\r\nConnection: Upgrade, HTTP2-Settings\r\n"
                    + "Upgrade: h2c\r\nHTTP2-Settings: AAMAAABk\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.write(FrameClient.PREFACE);
            out.write(new byte[] {0, 0, 0, 4, 0, 0, 0, 0, 0}); // an empty SETTINGS
            out.flush();
            assertEquals("GET /up?q=1 host=[a.example]", handled.poll(10, TimeUnit.SECONDS));
            String head = backendHead();
            assertTrue(head.startsWith("GET /up?q=1 HTTP/1.1\r\nHost: a.example\r\n"), head);
        }
    }
}
