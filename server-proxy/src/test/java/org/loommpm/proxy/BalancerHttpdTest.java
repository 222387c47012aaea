package org.loommpm.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.loommpm.server.LoomServer;

/** mod_proxy_balancer's documented behaviour, end to end against embedded backends. */
class BalancerHttpdTest {

    private static HttpResponse<String> get(LoomServer front, String path, String cookie) throws Exception {
        HttpRequest.Builder r = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + front.port() + path))
                .timeout(Duration.ofSeconds(30));
        if (cookie != null) {
            r.header("Cookie", cookie);
        }
        return Backends.CLIENT.send(r.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** stickysession=JSESSIONID|jsessionid: the cookie name, then the URL parameter name (httpd 2.4.4+). */
    @Test
    void stickySessionWithCookieAndPathNamesFollowsBoth() throws Exception {
        try (LoomServer a = Backends.start((req, res) -> res.send("a"));
             LoomServer b = Backends.start((req, res) -> res.send("b"));
             Balancer bal = Balancer.builder("s")
                     .member(Member.builder(Backends.url(a)).route("n1").build())
                     .member(Member.builder(Backends.url(b)).route("n2").build())
                     .stickySession("JSESSIONID|jsessionid").build();
             LoomServer front = Backends.start(ProxyHandler.builder("/", bal).build())) {
            for (int i = 0; i < 4; i++) {
                assertEquals("b", get(front, "/x", "JSESSIONID=abc.n2").body(), "cookie route");
                assertEquals("b", get(front, "/x;jsessionid=abc.n2", null).body(), "path parameter route");
                assertEquals("b", get(front, "/x?jsessionid=abc.n2", null).body(), "query route");
                assertEquals("b", get(front, "/x", "JSESSIONID=abc.n2; JSESSIONID=old.n1").body(), "first cookie");
            }
        }
    }

    /** The URL's ;NAME=value path parameter (servlet URL rewriting) names the route, as httpd reads it. */
    @Test
    void stickyRouteFromPathParameter() throws Exception {
        try (LoomServer a = Backends.start((req, res) -> res.send("a"));
             LoomServer b = Backends.start((req, res) -> res.send("b"));
             Balancer bal = Balancer.builder("p")
                     .member(Member.builder(Backends.url(a)).route("n1").build())
                     .member(Member.builder(Backends.url(b)).route("n2").build())
                     .stickySession("JSESSIONID").build();
             LoomServer front = Backends.start(ProxyHandler.builder("/", bal).build())) {
            for (int i = 0; i < 4; i++) {
                assertEquals("b", get(front, "/shop/cart;JSESSIONID=abc.n2?item=1", null).body());
            }
        }
    }

    /**
     * forcerecovery (default On): when every member is in error state, httpd forces their recovery
     * rather than answering 503 until a retry expires.
     */
    @Test
    void allMembersInErrorAreForcedBackIntoService() throws Exception {
        int deadA;
        int deadB;
        try (ServerSocket s1 = new ServerSocket(0); ServerSocket s2 = new ServerSocket(0)) {
            deadA = s1.getLocalPort();
            deadB = s2.getLocalPort();
        }
        try (Balancer bal = Balancer.builder("f")
                     .member(Member.builder("http://127.0.0.1:" + deadA + "/").build())
                     .member(Member.builder("http://127.0.0.1:" + deadB + "/").build()).build();
             LoomServer front = Backends.start(ProxyHandler.builder("/", bal).build())) {
            assertEquals(503, get(front, "/", null).statusCode(), "both refuse: 503, both in error for 60 s");
            try (LoomServer a = Backends.start((req, res) -> res.send("a"), deadA);
                 LoomServer b = Backends.start((req, res) -> res.send("b"), deadB)) {
                HttpResponse<String> r = get(front, "/", null);
                assertEquals(200, r.statusCode(), "all in error: recovery forced, the backends are back");
            }
        }
    }

    /** Recovery is forced only when every member is in error state, only for those not tried yet, and not when off. */
    @Test
    void forcedRecoveryNeedsEveryMemberInErrorAndCanBeTurnedOff() {
        Member a = Member.builder("http://127.0.0.1:1/").build();
        Member b = Member.builder("http://127.0.0.1:2/").build();
        Member off = Member.builder("http://127.0.0.1:3/").disabled(true).build();
        try (Balancer bal = Balancer.builder("r").member(a).member(b).member(off).build()) {
            a.markError(System.nanoTime());
            b.markError(System.nanoTime());
            assertEquals(-1, bal.choose(null, 0), "a disabled member is not in error state: no forced recovery");
        }
        Member c = Member.builder("http://127.0.0.1:1/").build();
        Member d = Member.builder("http://127.0.0.1:2/").build();
        try (Balancer bal = Balancer.builder("r").member(c).member(d).build()) {
            c.markError(System.nanoTime());
            d.markError(System.nanoTime());
            assertEquals(1, bal.choose(null, 0b01), "the untried member is recovered");
            assertTrue(c.inError(), "the member this request already tried stays in error state");
            assertEquals(-1, bal.choose(null, 0b11), "every member tried: nothing left");
        }
        Member e = Member.builder("http://127.0.0.1:1/").build();
        try (Balancer bal = Balancer.builder("r").member(e).forceRecovery(false).build()) {
            e.markError(System.nanoTime());
            assertEquals(-1, bal.choose(null, 0), "forcerecovery=Off: in error until retry expires");
        }
    }
}
