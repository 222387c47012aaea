package org.loommpm.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.loommpm.server.LoomServer;

/** {@code ProxyPassReverseCookiePath} and {@code ProxyPassReverseCookieDomain}, as mod_proxy maps them. */
class ReverseCookieTest {
    private final ReverseMap map = new ReverseMap()
            .cookiePath("/", "/app/")
            .cookieDomain("backend.internal", "www.example.com");

    @Test
    void pathAndDomainAttributesAreMappedBackWhole() {
        assertEquals("s=1; Path=/app/; Domain=www.example.com; HttpOnly",
                map.cookie("s=1; Path=/cart; Domain=backend.internal; HttpOnly"));
        assertEquals("s=1;domain=www.example.com;path=/app/",
                map.cookie("s=1;domain=BACKEND.internal;path=/"), "attribute names and the domain ignore case");
    }

    @Test
    void whatNoRuleMatchesIsLeftAlone() {
        String other = "s=1; Path=x/; Domain=elsewhere.org; Secure";
        assertEquals(other, map.cookie(other));
        assertEquals("path=/; Max-Age=60", map.cookie("path=/; Max-Age=60"), "a cookie named path is no attribute");
        assertEquals("s=1", map.cookie("s=1"));
    }

    @Test
    void aHandlerAddsItsOwnRulesToACopyOfTheMapItWasGiven() throws Exception {
        ReverseMap shared = new ReverseMap();
        try (ProxyHandler a = ProxyHandler.builder("/a/", "http://127.0.0.1:1/").reverse(shared).build();
             ProxyHandler b = ProxyHandler.builder("/b/", "http://127.0.0.1:2/").reverse(shared).build()) {
            assertTrue(shared.isEmpty(), "the caller's map is left as it was");
            assertTrue(!a.reverseMap().isEmpty() && a.reverseMap() != b.reverseMap());
        }
    }

    @Test
    void bothProxyPathsRewriteEverySetCookie() throws Exception {
        for (boolean onPoller : new boolean[] {true, false}) {
            try (ServerSocket be = new ServerSocket(0);
                 ProxyHandler proxy = ProxyHandler.builder("/app/", "http://127.0.0.1:" + be.getLocalPort() + "/")
                         .reverse(map).onPoller(onPoller).build();
                 LoomServer front = Backends.start(proxy)) {
                Thread.ofVirtual().start(() -> {
                    try (Socket s = be.accept()) {
                        s.getInputStream().read(new byte[4096]);
                        s.getOutputStream().write(("HTTP/1.1 200 OK\r\nSet-Cookie: a=1; Path=/\r\n"
                                + "Set-Cookie: b=2; Domain=backend.internal\r\nContent-Length: 2\r\n\r\nok")
                                .getBytes(StandardCharsets.US_ASCII));
                    } catch (Exception ignored) {
                        // the test ends
                    }
                });
                String got;
                try (Socket client = new Socket("127.0.0.1", front.port())) {
                    client.setSoTimeout(10_000);
                    client.getOutputStream().write("GET /app/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                            .getBytes(StandardCharsets.US_ASCII));
                    got = new String(client.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
                }
                assertTrue(got.contains("\r\nSet-Cookie: a=1; Path=/app/\r\nSet-Cookie: b=2; Domain=www.example.com\r\n"),
                        "onPoller=" + onPoller + ": " + got);
            }
        }
    }
}
