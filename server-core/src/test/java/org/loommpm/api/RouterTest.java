package org.loommpm.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RouterTest {

    // ---- precedence ----

    /**
     * A WebSocket route is a declaration bound when the router freezes; server-core's tests have
     * no server-websocket, so the freeze fails and says which module is missing.
     */
    @Test
    void aWebSocketRouteWithoutTheWebSocketModuleFailsWhenTheRouterFreezes() {
        Router router = new Router().websocket("/ws", new org.loommpm.websocket.WebSocketHandler() { });
        IllegalStateException e = assertThrows(IllegalStateException.class, router::invocationType);
        assertTrue(e.getMessage().contains("server-websocket"), e.getMessage());
    }

    @Test
    void invocationTypeFollowsTheChosenRouteAndTheFilters() {
        Handler nb = Handler.nonBlocking((q, s) -> { });
        assertEquals(InvocationType.NON_BLOCKING, nb.invocationType());
        assertEquals(InvocationType.BLOCKING, ((Handler) (q, s) -> { }).invocationType());
        Router r = new Router().get("/fast/{id}", nb).get("/slow", (q, s) -> { });
        assertEquals(InvocationType.BY_REQUEST, r.invocationType());
        assertEquals(InvocationType.NON_BLOCKING, r.invocationType("GET", "/fast/7"));
        assertEquals(InvocationType.NON_BLOCKING, r.invocationType("HEAD", "/fast/7"), "HEAD falls back to GET");
        assertEquals(InvocationType.BLOCKING, r.invocationType("GET", "/slow"));
        assertEquals(InvocationType.BLOCKING, r.invocationType("POST", "/fast/7"), "405 is answered on a worker");
        assertEquals(InvocationType.BLOCKING, r.invocationType("GET", "/nothing"), "404 too");

        Router filtered = new Router().get("/fast", nb).filter((q, s, next) -> next.handle(q, s));
        assertEquals(InvocationType.BLOCKING, filtered.invocationType(), "a filter that may block");
        assertEquals(InvocationType.BLOCKING, filtered.invocationType("GET", "/fast"));
        Router nbFiltered = new Router().get("/fast", nb).filter(new Filter() {
            @Override
            public void filter(Request q, Response s, Handler next) throws Exception {
                next.handle(q, s);
            }

            @Override
            public InvocationType invocationType() {
                return InvocationType.NON_BLOCKING;
            }
        });
        assertEquals(InvocationType.NON_BLOCKING, nbFiltered.invocationType("GET", "/fast"));
        assertEquals(InvocationType.BLOCKING, new Router().get("/x", (q, s) -> { }).invocationType());
    }

    @Test
    void nonBlockingHandlerHandsOutTheRouteFoundOnceWithItsParametersAndFilters() throws Exception {
        List<String> seen = new ArrayList<>();
        Handler nb = Handler.nonBlocking((q, s) -> s.send(("fast " + q.pathParam("id")).getBytes(StandardCharsets.UTF_8)));
        Router r = new Router().get("/fast/{id}", nb).get("/slow", (q, s) -> { }).filter(new Filter() {
            @Override
            public void filter(Request q, Response s, Handler next) throws Exception {
                seen.add(q.path());
                next.handle(q, s);
            }

            @Override
            public InvocationType invocationType() {
                return InvocationType.NON_BLOCKING;
            }
        });
        Handler fast = r.nonBlockingHandler("GET", "/fast/7");
        Recorded res = new Recorded();
        fast.handle(new StubRequest("GET", "/fast/7"), res);
        assertEquals("fast 7", res.text(), "path variables bound as by handle()");
        assertEquals(List.of("/fast/7"), seen, "the router's filters run around it");
        assertSame(fast, r.nonBlockingHandler("HEAD", "/fast/8"), "one handler per route, none made per request");
        assertNull(r.nonBlockingHandler("GET", "/slow"), "a blocking route");
        assertNull(r.nonBlockingHandler("POST", "/fast/7"), "405 is answered on a worker");
        assertNull(r.nonBlockingHandler("GET", "/nothing"), "404 too");
        assertNull(new Router().get("/x", nb).filter((q, s, next) -> next.handle(q, s))
                .nonBlockingHandler("GET", "/x"), "a filter that may block");
        assertSame(nb, nb.nonBlockingHandler("GET", "/any"), "a plain handler: itself when non-blocking");
        assertNull(((Handler) (q, s) -> { }).nonBlockingHandler("GET", "/any"));
    }

    @Test
    void literalBeatsVariableBeatsRest() throws Exception {
        Router r = new Router()
                .get("/files/{p...}", text("rest"))
                .get("/files/{name}", text("var"))
                .get("/files/index", text("literal"));
        assertEquals("literal", call(r, "GET", "/files/index").text());
        assertEquals("var", call(r, "GET", "/files/other").text());
        assertEquals("rest", call(r, "GET", "/files/a/b").text());
        assertEquals("rest", call(r, "GET", "/files/").text());
    }

    @Test
    void precedenceIsDecidedSegmentBySegmentWithBacktracking() throws Exception {
        Router r = new Router()
                .get("/a/{x}/c", text("var-then-c"))
                .get("/a/b/d", text("literal-then-d"));
        // "b" is tried as a literal first; its subtree has no "c", so {x} takes it.
        assertEquals("var-then-c", call(r, "GET", "/a/b/c").text());
        assertEquals("literal-then-d", call(r, "GET", "/a/b/d").text());
    }

    @Test
    void lessSpecificTemplateServesAMethodTheMoreSpecificOneLacks() throws Exception {
        Router r = new Router()
                .get("/users/me", text("me"))
                .post("/users/{id}", (q, s) -> s.send("post " + q.pathParam("id")));
        assertEquals("me", call(r, "GET", "/users/me").text());
        assertEquals("post me", call(r, "POST", "/users/me").text());
        Recorded put = call(r, "PUT", "/users/me");
        assertEquals(405, put.status);
        assertEquals("GET, HEAD, POST, OPTIONS", put.headers.first("Allow"));
    }

    @Test
    void rootAndTrailingSlashAreDistinct() throws Exception {
        Router r = new Router()
                .get("/", text("root"))
                .get("/a", text("a"))
                .get("/a/", text("a-slash"));
        assertEquals("root", call(r, "GET", "/").text());
        assertEquals("a", call(r, "GET", "/a").text());
        assertEquals("a-slash", call(r, "GET", "/a/").text());
        assertEquals(404, call(r, "GET", "/a//").status);
        assertEquals(404, call(r, "GET", "").status);
        assertEquals(404, call(r, "GET", "*").status);
    }

    @Test
    void literalsAreCaseSensitiveAndWholeSegment() throws Exception {
        Router r = new Router().get("/abc", text("abc"));
        assertEquals(404, call(r, "GET", "/ABC").status);
        assertEquals(404, call(r, "GET", "/ab").status);
        assertEquals(404, call(r, "GET", "/abcd").status);
    }

    // ---- parameters ----

    @Test
    void variablesAreExtracted() throws Exception {
        Router r = new Router().get("/users/{id}/posts/{post}",
                (q, s) -> s.send(q.pathParam("id") + "|" + q.pathParam("post") + "|"
                        + q.pathParam("nope")));
        assertEquals("42|7|null", call(r, "GET", "/users/42/posts/7").text());
    }

    @Test
    void variableNeedsANonEmptySegment() throws Exception {
        Router r = new Router().get("/users/{id}", text("user"));
        assertEquals(404, call(r, "GET", "/users/").status);
        assertEquals(404, call(r, "GET", "/users").status);
        assertEquals(404, call(r, "GET", "/users/1/x").status);
    }

    @Test
    void variableSeesTheDecodedSegment() throws Exception {
        Router r = new Router().get("/n/{name}", (q, s) -> s.send(q.pathParam("name")));
        assertEquals("a b?é", call(r, "GET", "/n/a b?é").text());
    }

    @Test
    void restTakesSlashesAndMayBeEmpty() throws Exception {
        Router r = new Router()
                .get("/static/{dir}/{path...}",
                        (q, s) -> s.send(q.pathParam("dir") + "[" + q.pathParam("path") + "]"));
        assertEquals("css[a/b/c.css]", call(r, "GET", "/static/css/a/b/c.css").text());
        assertEquals("css[]", call(r, "GET", "/static/css/").text());
        assertEquals("css[a/]", call(r, "GET", "/static/css/a/").text());
        assertEquals(404, call(r, "GET", "/static/css").status);
    }

    @Test
    void rootRestMatchesEverything() throws Exception {
        Router r = new Router().get("/{all...}", (q, s) -> s.send("[" + q.pathParam("all") + "]"));
        assertEquals("[]", call(r, "GET", "/").text());
        assertEquals("[x/y/]", call(r, "GET", "/x/y/").text());
    }

    @Test
    void anonymousStarIsThePathParameterStar() throws Exception {
        Router r = new Router().get("/assets/*", (q, s) -> s.send("[" + q.pathParam("*") + "]" + q.pathParams()));
        assertEquals("[x/y]{*=x/y}", call(r, "GET", "/assets/x/y").text());
        assertEquals("[]{*=}", call(r, "GET", "/assets/").text());
    }

    @Test
    void sameTemplateShapeMayUseOtherNamesForOtherMethods() throws Exception {
        Router r = new Router()
                .get("/items/{id}", (q, s) -> s.send("get " + q.pathParam("id") + q.pathParam("key")))
                .delete("/items/{key}", (q, s) -> s.send("delete " + q.pathParam("key") + q.pathParam("id")));
        assertEquals("get 5null", call(r, "GET", "/items/5").text());
        assertEquals("delete 5null", call(r, "DELETE", "/items/5").text());
    }

    @Test
    void routeWithoutVariablesGetsTheOriginalRequest() throws Exception {
        StubRequest req = new StubRequest("GET", "/plain");
        Request[] seen = new Request[1];
        Router r = new Router().get("/plain", (q, s) -> seen[0] = q);
        r.handle(req, new Recorded());
        assertSame(req, seen[0]);
    }

    @Test
    void routedRequestDelegatesEverythingElse() throws Exception {
        StubRequest req = new StubRequest("GET", "/u/9");
        req.headers.add("X-Test", "yes");
        Request[] seen = new Request[1];
        new Router().get("/u/{id}", (q, s) -> seen[0] = q).handle(req, new Recorded());
        Request q = seen[0];
        assertEquals("9", q.pathParam("id"));
        assertEquals("GET", q.method());
        assertEquals("/u/9", q.path());
        assertEquals("/u/9?k=v", q.rawTarget());
        assertEquals("k=v", q.query());
        assertEquals("v", q.queryParam("k"));
        assertEquals(Map.of("k", List.of("v")), q.queryParams());
        assertEquals("HTTP/1.1", q.protocol());
        assertSame(req.headers, q.headers());
        assertEquals("yes", q.header("x-test"));
        assertEquals(3, q.contentLength());
        assertArrayEquals(new byte[] {1, 2, 3}, q.bodyBytes());
        assertEquals("body", q.bodyString());
        assertEquals(3, q.body().readAllBytes().length);
        assertEquals(StubRequest.REMOTE, q.remoteAddress());
        assertEquals(StubRequest.LOCAL, q.localAddress());
    }

    // ---- 404 / 405 / HEAD / OPTIONS ----

    @Test
    void unmatchedPathIs404PlainText() throws Exception {
        Router r = new Router().get("/a", text("a"));
        Recorded res = call(r, "GET", "/b");
        assertEquals(404, res.status);
        assertEquals("Not Found\n", res.text());
        assertEquals("text/plain; charset=UTF-8", res.headers.first("Content-Type"));
        assertNull(res.headers.first("Allow"));
        assertEquals(404, call(new Router(), "GET", "/").status);
    }

    @Test
    void wrongMethodIs405WithExactAllow() throws Exception {
        Router r = new Router()
                .patch("/r", text("patch"))
                .route("PROPFIND", "/r", text("propfind"))
                .delete("/r", text("delete"))
                .post("/r", text("post"))
                .get("/r", text("get"))
                .put("/r", text("put"));
        Recorded res = call(r, "BREW", "/r");
        assertEquals(405, res.status);
        assertEquals("Method Not Allowed\n", res.text());
        assertEquals("text/plain; charset=UTF-8", res.headers.first("Content-Type"));
        assertEquals("GET, HEAD, POST, PUT, DELETE, PATCH, OPTIONS, PROPFIND",
                res.headers.first("Allow"));
        assertEquals(1, res.headers.count("Allow"));
    }

    @Test
    void allowIsTheUnionOfEveryMatchingTemplate() throws Exception {
        Router r = new Router()
                .post("/x/{id}", text("post"))
                .delete("/x/{p...}", text("delete"))
                .put("/x/y", text("put"))
                .post("/z", text("other path"));
        Recorded res = call(r, "PATCH", "/x/y");
        assertEquals(405, res.status);
        assertEquals("POST, PUT, DELETE, OPTIONS", res.headers.first("Allow"));
        assertEquals("POST, DELETE, OPTIONS", call(r, "PATCH", "/x/q").headers.first("Allow"));
        assertEquals("DELETE, OPTIONS", call(r, "PATCH", "/x/q/r").headers.first("Allow"));
    }

    @Test
    void headWithoutHeadRouteUsesGet() throws Exception {
        Router r = new Router().get("/g", text("from get"));
        Recorded res = call(r, "HEAD", "/g");
        assertEquals(200, res.status);
        assertEquals("from get", res.text());
        assertEquals("GET, HEAD, OPTIONS", call(r, "POST", "/g").headers.first("Allow"));
    }

    @Test
    void explicitHeadRouteWins() throws Exception {
        Router r = new Router().get("/g", text("get")).head("/g", text("head"));
        assertEquals("head", call(r, "HEAD", "/g").text());
        assertEquals("get", call(r, "GET", "/g").text());
    }

    @Test
    void headOnlyRouteDoesNotServeGet() throws Exception {
        Router r = new Router().head("/h", text("head"));
        Recorded res = call(r, "GET", "/h");
        assertEquals(405, res.status);
        assertEquals("HEAD, OPTIONS", res.headers.first("Allow"));
    }

    @Test
    void automaticOptionsIs204WithAllow() throws Exception {
        Router r = new Router().get("/o", text("get")).post("/o", text("post"));
        Recorded res = call(r, "OPTIONS", "/o");
        assertEquals(204, res.status);
        assertEquals("GET, HEAD, POST, OPTIONS", res.headers.first("Allow"));
        assertEquals("", res.text());
        assertEquals(0, res.sends);
        assertEquals(404, call(r, "OPTIONS", "/nothing").status);
    }

    @Test
    void explicitOptionsRouteWins() throws Exception {
        Router r = new Router().get("/o", text("get")).options("/o", text("mine"));
        Recorded res = call(r, "OPTIONS", "/o");
        assertEquals(200, res.status);
        assertEquals("mine", res.text());
        assertNull(res.headers.first("Allow"));
    }

    // ---- filters ----

    @Test
    void filtersRunInRegistrationOrderAroundTheHandler() throws Exception {
        List<String> log = new ArrayList<>();
        Router r = new Router()
                .filter((q, s, next) -> {
                    log.add("1>");
                    next.handle(q, s);
                    log.add("<1");
                })
                .get("/p/{id}", (q, s) -> log.add("handler " + q.pathParam("id")))
                .filter((q, s, next) -> {
                    log.add("2> " + q.pathParam("id"));
                    next.handle(q, s);
                    log.add("<2");
                });
        call(r, "GET", "/p/5");
        assertEquals(List.of("1>", "2> 5", "handler 5", "<2", "<1"), log);
    }

    @Test
    void filterCanShortCircuit() throws Exception {
        List<String> log = new ArrayList<>();
        Router r = new Router()
                .filter((q, s, next) -> {
                    log.add("auth");
                    s.send(401, "no");
                })
                .filter((q, s, next) -> {
                    log.add("inner");
                    next.handle(q, s);
                })
                .get("/secret", (q, s) -> log.add("handler"));
        Recorded res = call(r, "GET", "/secret");
        assertEquals(401, res.status);
        assertEquals("no", res.text());
        assertEquals(List.of("auth"), log);
    }

    @Test
    void filtersSeeBuiltInAnswers() throws Exception {
        List<String> log = new ArrayList<>();
        Router r = new Router()
                .filter((q, s, next) -> {
                    next.handle(q, s);
                    log.add(q.method() + " " + q.path() + " " + s.status());
                })
                .get("/a", text("a"));
        call(r, "GET", "/missing");
        call(r, "DELETE", "/a");
        call(r, "OPTIONS", "/a");
        call(r, "GET", "/a");
        assertEquals(List.of("GET /missing 404", "DELETE /a 405", "OPTIONS /a 204", "GET /a 200"),
                log);
    }

    @Test
    void builtInAnswerOverridesContentTypeSetByFilter() throws Exception {
        Router r = new Router().filter((q, s, next) -> {
            s.header("Content-Type", "application/json");
            next.handle(q, s);
        });
        Recorded res = call(r, "GET", "/x");
        assertEquals("text/plain; charset=UTF-8", res.headers.first("Content-Type"));
        assertEquals(1, res.headers.count("Content-Type"));
    }

    @Test
    void handlerExceptionPropagatesThroughFilters() {
        List<String> log = new ArrayList<>();
        Router r = new Router()
                .filter((q, s, next) -> {
                    try {
                        next.handle(q, s);
                    } finally {
                        log.add("finally");
                    }
                })
                .get("/boom", (q, s) -> {
                    throw new HttpException(418, "teapot");
                });
        HttpException e = assertThrows(HttpException.class, () -> call(r, "GET", "/boom"));
        assertEquals(418, e.status());
        assertEquals(List.of("finally"), log);
    }

    // ---- registration ----

    @Test
    void badTemplatesAreRejected() {
        Handler h = text("x");
        for (String t : List.of("", "a", "a/b", "/{a}/{a}", "/{a}/{a...}", "/{rest...}/x",
                "/*/x", "/{}", "/{...}", "/a{b}", "/{a}b", "/{a", "/a}", "/{a-b}", "/{a.b}",
                "/{{a}}")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> new Router().get(t, h), t);
            assertTrue(e.getMessage().endsWith(t), e.getMessage());
        }
    }

    @Test
    void badMethodsAreRejected() {
        for (String m : List.of("", "G T", "GET\r\n", "(GET)")) {
            assertThrows(IllegalArgumentException.class, () -> new Router().route(m, "/", text("x")), m);
        }
        assertThrows(NullPointerException.class, () -> new Router().get(null, text("x")));
        assertThrows(NullPointerException.class, () -> new Router().get("/", null));
        assertThrows(NullPointerException.class, () -> new Router().filter(null));
    }

    @Test
    void duplicateRegistrationIsRejected() {
        Router r = new Router().get("/a/{id}", text("1")).post("/a/{id}", text("2"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> r.get("/a/{id}", text("3")));
        assertEquals("Already routed: GET /a/{id} (or the same template with other variable names)",
                e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> r.get("/a/{other}", text("4")));
        assertThrows(IllegalArgumentException.class,
                () -> new Router().get("/s/*", text("5")).get("/s/{rest...}", text("6")));
        assertThrows(IllegalArgumentException.class,
                () -> new Router().route("BREW", "/", text("7")).route("BREW", "/", text("8")));
    }

    @Test
    void registrationAfterFirstRequestIsRejected() throws Exception {
        Router r = new Router().get("/a", text("a"));
        call(r, "GET", "/a");
        assertThrows(IllegalStateException.class, () -> r.get("/b", text("b")));
        assertThrows(IllegalStateException.class, () -> r.filter((q, s, next) -> next.handle(q, s)));
        assertEquals("a", call(r, "GET", "/a").text());
    }

    // ---- test doubles ----

    private static Handler text(String body) {
        return (q, s) -> s.send(body);
    }

    private static Recorded call(Router r, String method, String path) throws Exception {
        Recorded res = new Recorded();
        r.handle(new StubRequest(method, path), res);
        return res;
    }

    /** A request with a method, a path and headers; the rest fixed values for delegation checks. */
    private static final class StubRequest implements Request {
        static final InetSocketAddress REMOTE = InetSocketAddress.createUnresolved("client", 1);
        static final InetSocketAddress LOCAL = InetSocketAddress.createUnresolved("server", 2);
        final String method;
        final String path;
        final Headers headers = new Headers();

        StubRequest(String method, String path) {
            this.method = method;
            this.path = path;
        }

        @Override public String method() { return method; }
        @Override public String rawTarget() { return path + "?k=v"; }
        @Override public String path() { return path; }
        @Override public String encodedPath() { return path; }
        @Override public String query() { return "k=v"; }
        @Override public String queryParam(String name) { return name.equals("k") ? "v" : null; }
        @Override public Map<String, List<String>> queryParams() { return Map.of("k", List.of("v")); }
        @Override public String pathParam(String name) { return null; }
        @Override public String protocol() { return "HTTP/1.1"; }
        @Override public Headers headers() { return headers; }
        @Override public long contentLength() { return 3; }
        @Override public InputStream body() { return new ByteArrayInputStream(new byte[] {1, 2, 3}); }
        @Override public byte[] bodyBytes() { return new byte[] {1, 2, 3}; }
        @Override public String bodyString() { return "body"; }
        @Override public InetSocketAddress remoteAddress() { return REMOTE; }
        @Override public boolean isSecure() { return false; }
        @Override public InetSocketAddress localAddress() { return LOCAL; }
        final Map<String, Object> attributes = new java.util.HashMap<>();
        @Override public Map<String, Object> attributes() { return attributes; }
    }

    /** Records status, headers and the body sent. */
    private static final class Recorded implements Response {
        int status = 200;
        final Headers headers = new Headers();
        final ByteArrayOutputStream body = new ByteArrayOutputStream();
        int sends;

        String text() {
            return body.toString(StandardCharsets.UTF_8);
        }

        @Override public Response status(int status) { this.status = status; return this; }
        @Override public int status() { return status; }
        @Override public Response header(String name, String value) { headers.set(name, value); return this; }
        @Override public Headers headers() { return headers; }
        @Override public void send(byte[] bytes) { sends++; body.writeBytes(bytes); }
        @Override public OutputStream outputStream() { throw new UnsupportedOperationException(); }
        @Override public void sendFile(Path file) { throw new UnsupportedOperationException(); }
        @Override public boolean isCommitted() { return sends > 0; }
    }
}
