package org.loommpm.api;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.loommpm.http.syntax.HttpChars;
import org.loommpm.websocket.WebSocketEndpoint;
import org.loommpm.websocket.WebSocketHandler;

/**
 * A {@link Handler} that picks another handler by request method and path template.
 *
 * <h2>Templates</h2>
 * A template starts with {@code /} and is split on {@code /} into segments, each one of:
 * <ul>
 *   <li>a literal, matched exactly (case-sensitive);
 *   <li>{@code {name}}, matching exactly one non-empty segment, available to the handler as
 *       {@code request.pathParam("name")};
 *   <li>as the last segment only, {@code {name...}} or the anonymous {@code *}, matching the rest
 *       of the path: possibly empty, possibly containing {@code /}. The anonymous one's value is
 *       {@code request.pathParam("*")} (what a handler mounted under a prefix, such as
 *       {@code staticfiles.StaticFiles}, serves).
 * </ul>
 * Names are letters, digits and {@code _}, unique within a template. Matching runs on
 * {@link Request#path()}, which the server has already percent-decoded.
 *
 * <p>A trailing slash is significant: {@code /a} matches only {@code /a}, and {@code /a/} only
 * {@code /a/} (an empty last segment). {@code /files/{p...}} matches {@code /files/} with
 * {@code p = ""} and {@code /files/x/y} with {@code p = "x/y"}, but not {@code /files}.
 *
 * <h2>Choosing a handler</h2>
 * Among the templates matching the path, the most specific one that has a handler for the
 * request's method wins: comparing segment by segment from the left, a literal beats
 * {@code {var}}, which beats a rest wildcard. Two templates that differ only in their variable
 * names are the same template, so registering the same method for both is rejected rather than
 * leaving one unreachable. Methods are case-sensitive tokens.
 * <ul>
 *   <li>{@code HEAD} falls back to the {@code GET} handler of a template without a {@code HEAD}
 *       handler (the server drops the body).
 *   <li>{@code OPTIONS} without an {@code OPTIONS} handler gets {@code 204} with {@code Allow}.
 *   <li>A path some template matches, with a method none of them has, gets {@code 405} with
 *       {@code Allow}.
 *   <li>A path no template matches gets {@code 404}.
 * </ul>
 * {@code Allow} lists every method of every matching template, plus {@code HEAD} when
 * {@code GET} is there and always {@code OPTIONS}, comma-separated in the order {@code GET,
 * HEAD, POST, PUT, DELETE, PATCH, OPTIONS}, then other methods in the order they were first
 * registered on this router.
 *
 * <h2>Filters</h2>
 * Filters run in registration order around the chosen handler, including the built-in 404, 405
 * and {@code OPTIONS} answers, so a logging filter sees every request. They run after the route
 * is chosen, so they see the path parameters.
 *
 * <h2>Non-blocking routes</h2>
 * A route whose handler is {@link InvocationType#NON_BLOCKING} (see
 * {@link Handler#nonBlocking(Handler)}) may run on the poller thread that read the request, when
 * every filter of this router is non-blocking too; a route whose handler is
 * {@link InvocationType#BY_REQUEST} (a {@code proxy.ProxyHandler}, a nested router) may, when
 * that handler hands out a poller entry for the request; other routes, and the built-in 404,
 * 405 and {@code OPTIONS} answers, run on virtual threads. {@link #invocationType(String, String)} is
 * how the server asks, per request.
 *
 * <h2>Threads</h2>
 * A router is built on one thread, then only read. It is not synchronized: build it completely
 * before handing it to the server, whose start (thread start, executor submission) orders every
 * registration before the first {@link #handle}. The first {@code handle} freezes the router;
 * registering afterwards throws {@link IllegalStateException}.
 */
public final class Router implements Handler {
    // Standard methods get fixed indexes, which also fixes their order in Allow.
    private static final int GET = 0;
    private static final int HEAD = 1;
    private static final int OPTIONS = 6;
    private static final List<String> STANDARD_METHODS =
            List.of("GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS");
    private static final byte[] NOT_FOUND_BODY = "Not Found\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] NOT_ALLOWED_BODY =
            "Method Not Allowed\n".getBytes(StandardCharsets.US_ASCII);

    // Build state: written only before the first handle(), read by every handle().
    private final Node root = new Node();
    private final List<String> methods = new ArrayList<>(STANDARD_METHODS);
    private final List<Route> routes = new ArrayList<>();
    private final List<Filter> filters = new ArrayList<>();

    /**
     * The frozen view: immutable, published through this volatile field. Two threads racing on
     * the first request may each compile one; they are equal, so either may win.
     */
    private volatile Table table;

    /** An empty router: every request gets 404 until routes are added. */
    public Router() {
    }

    /**
     * Routes {@code GET} (and {@code HEAD}, unless it has its own handler) for a template.
     *
     * @param template the path, with {@code {name}} variables
     * @param handler the handler for matching requests
     * @return this router
     */
    public Router get(String template, Handler handler) {
        return route("GET", template, handler);
    }

    /**
     * Routes {@code POST} for a template.
     *
     * @param template the path, with {@code {name}} variables
     * @param handler the handler for matching requests
     * @return this router
     */
    public Router post(String template, Handler handler) {
        return route("POST", template, handler);
    }

    /**
     * Routes {@code PUT} for a template.
     *
     * @param template the path, with {@code {name}} variables
     * @param handler the handler for matching requests
     * @return this router
     */
    public Router put(String template, Handler handler) {
        return route("PUT", template, handler);
    }

    /**
     * Routes {@code DELETE} for a template.
     *
     * @param template the path, with {@code {name}} variables
     * @param handler the handler for matching requests
     * @return this router
     */
    public Router delete(String template, Handler handler) {
        return route("DELETE", template, handler);
    }

    /**
     * Routes {@code PATCH} for a template.
     *
     * @param template the path, with {@code {name}} variables
     * @param handler the handler for matching requests
     * @return this router
     */
    public Router patch(String template, Handler handler) {
        return route("PATCH", template, handler);
    }

    /**
     * Routes {@code OPTIONS} for a template, replacing the automatic 204 answer there.
     *
     * @param template the path, with {@code {name}} variables
     * @param handler the handler for matching requests
     * @return this router
     */
    public Router options(String template, Handler handler) {
        return route("OPTIONS", template, handler);
    }

    /**
     * Routes {@code HEAD} for a template, taking precedence over its {@code GET} handler.
     *
     * @param template the path, with {@code {name}} variables
     * @param handler the handler for matching requests
     * @return this router
     */
    public Router head(String template, Handler handler) {
        return route("HEAD", template, handler);
    }

    /**
     * Routes a method for a template.
     *
     * @param method the method token, case-sensitive (e.g. {@code GET}, {@code PROPFIND})
     * @param template the path template; see the class comment
     * @param handler the handler for matching requests
     * @return this router
     * @throws IllegalArgumentException if the method is not a token, the template is malformed,
     *     or this method is already routed for this template
     * @throws IllegalStateException if the router has already handled a request
     */
    public Router route(String method, String template, Handler handler) {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(template, "template");
        Objects.requireNonNull(handler, "handler");
        checkNotFrozen();
        if (!HttpChars.isToken(method)) {
            throw new IllegalArgumentException("Not a method token: '" + method + "'");
        }
        if (!template.startsWith("/")) {
            throw new IllegalArgumentException("Template must start with '/': " + template);
        }
        // Validate the whole template before touching the trie, so a rejected one leaves no trace.
        String[] segments = template.substring(1).split("/", -1);
        String[] params = new String[segments.length];
        Set<String> names = new HashSet<>();
        boolean rest = false;
        for (int i = 0; i < segments.length; i++) {
            String s = segments[i];
            if (s.equals("*") || (s.startsWith("{") && s.endsWith("...}"))) {
                if (i != segments.length - 1) {
                    throw new IllegalArgumentException(
                            "Rest wildcard '" + s + "' must be the last segment: " + template);
                }
                rest = true;
                // "*" cannot clash: a variable's name is letters, digits and _.
                params[i] = s.equals("*") ? "*" : checkName(s.substring(1, s.length() - 4), names, template);
            } else if (s.startsWith("{") && s.endsWith("}")) {
                params[i] = checkName(s.substring(1, s.length() - 1), names, template);
            } else if (s.indexOf('{') >= 0 || s.indexOf('}') >= 0) {
                throw new IllegalArgumentException(
                        "A variable must be a whole segment, '{name}': " + template);
            }
        }
        Node node = root;
        for (int i = 0; i < segments.length; i++) {
            if (rest && i == segments.length - 1) {
                node = node.rest == null ? (node.rest = new Node()) : node.rest;
            } else if (params[i] != null) {
                node = node.var == null ? (node.var = new Node()) : node.var;
            } else {
                node = node.literalChild(segments[i]);
            }
        }
        int m = methods.indexOf(method);
        if (m < 0) {
            m = methods.size();
            methods.add(method);
        }
        Route route = new Route(routes.size(), handler, params, rest, template);
        node.put(m, route, method, template);
        routes.add(route);
        return this;
    }

    /**
     * Routes WebSocket handshakes (RFC 6455) for a template to {@code handler}, accepting any
     * origin, no subprotocol, and permessage-deflate when the client offers it. See
     * {@link #websocket(String, WebSocketEndpoint)}.
     *
     * @param template the path, with {@code {name}} variables
     * @param handler the handler of the sessions opened on this path
     * @return this router
     * @throws IllegalArgumentException if the template is malformed or already has a GET route
     * @throws IllegalStateException if the router has already handled a request
     */
    public Router websocket(String template, WebSocketHandler handler) {
        return websocket(template, WebSocketEndpoint.of(handler));
    }

    /**
     * Routes WebSocket handshakes for a template: a {@code GET} route whose handler checks the
     * handshake and, when it is valid, answers {@code 101} and hands the connection to the
     * endpoint's {@link WebSocketHandler}. It is an ordinary route: the router's filters run
     * around it (an access rule or an authentication filter that answers first refuses the
     * upgrade like any request), path variables reach the session
     * ({@link org.loommpm.websocket.WebSocketSession#pathParam}), and the template cannot also
     * have a plain {@code GET} handler. A plain {@code GET} without {@code Upgrade: websocket}
     * gets {@code 426}. WebSockets run over HTTP/1.1 (cleartext or TLS) and over HTTP/2 streams:
     * the template also gets a {@code CONNECT} route with the same handler, for HTTP/2's extended
     * {@code CONNECT} with {@code :protocol websocket} (RFC 8441).
     *
     * <p>The route is a declaration: the router binds it to module server-websocket's handler
     * (found through {@link WebSocketBinding}) when it freezes, and fails then with an
     * {@link IllegalStateException} if that module is not on the class path.
     *
     * @param template the path, with {@code {name}} variables
     * @param endpoint the handler and handshake policy (subprotocols, origin check, compression)
     * @return this router
     * @throws IllegalArgumentException if the template is malformed or already has a GET route
     * @throws IllegalStateException if the router has already handled a request
     */
    public Router websocket(String template, WebSocketEndpoint endpoint) {
        Objects.requireNonNull(endpoint, "endpoint");
        Handler declared = new DeclaredWebSocket(endpoint);
        return route("GET", template, declared).route("CONNECT", template, declared);
    }

    /**
     * Adds a filter. Filters run in the order added, the first outermost.
     *
     * @return this router
     * @throws IllegalStateException if the router has already handled a request
     * @param filter the filter
     */
    public Router filter(Filter filter) {
        Objects.requireNonNull(filter, "filter");
        checkNotFrozen();
        filters.add(filter);
        return this;
    }

    /** Routes the request; see the class comment. Freezes the router on first use. */
    @Override
    public void handle(Request request, Response response) throws Exception {
        Table t = table();
        String path = request.path();
        String method = request.method();
        Route route = find(path, t.methodIndex(method), null);
        if (route != null) {
            t.routed[route.id].handle(request, response);
            return;
        }
        // A miss: walk again collecting every matching template's methods. Allow depends on the
        // path, so these answers' chains are built per request; only hits need to be free.
        boolean[] allowed = new boolean[t.methods.length];
        find(path, -1, allowed);
        String allow = allow(t.methods, allowed);
        if (allow == null) {
            t.notFound.handle(request, response);
        } else if (method.equals("OPTIONS")) {
            chain(t.filters, (q, s) -> s.status(204).header("Allow", allow)).handle(request, response);
        } else {
            chain(t.filters, (q, s) -> {
                s.header("Allow", allow);
                plain(s, 405, NOT_ALLOWED_BODY);
            }).handle(request, response);
        }
    }

    /**
     * {@link InvocationType#BY_REQUEST} when some route is non-blocking and so is every filter
     * (the server then asks {@link #invocationType(String, String)} per request), else
     * {@link InvocationType#BLOCKING}. Freezes the router, as {@link #handle} does.
     */
    @Override
    public InvocationType invocationType() {
        return table().anyNonBlocking ? InvocationType.BY_REQUEST : InvocationType.BLOCKING;
    }

    /**
     * The invocation type of the route {@code method} and {@code path} select: its handler's
     * (asked per request for a {@link InvocationType#BY_REQUEST} one), when every filter is
     * non-blocking; {@link InvocationType#BLOCKING} for a miss (404, 405,
     * {@code OPTIONS}). Does not block; freezes the router.
     */
    @Override
    public InvocationType invocationType(String method, String path) {
        Table t = table();
        if (!t.anyNonBlocking) {
            return InvocationType.BLOCKING;
        }
        Route route = find(path, t.methodIndex(method), null);
        if (route == null || t.types[route.id] != InvocationType.BY_REQUEST) {
            return route == null ? InvocationType.BLOCKING : t.types[route.id];
        }
        return nonBlockingHandler(method, path) != null ? InvocationType.NON_BLOCKING : InvocationType.BLOCKING;
    }

    /**
     * The matched route's handler, filters included, when it and every filter are non-blocking
     * (for a {@link InvocationType#BY_REQUEST} handler: what its own
     * {@link Handler#nonBlockingHandler} hands out, within the filters), else {@code null} (also for a miss: 404, 405, {@code OPTIONS}): the route is found once,
     * where {@link #invocationType(String, String)} and then {@link #handle} would find it twice.
     * Does not block; freezes the router.
     */
    @Override
    public Handler nonBlockingHandler(String method, String path) {
        Table t = table();
        if (!t.anyNonBlocking) {
            return null;
        }
        Route route = find(path, t.methodIndex(method), null);
        if (route == null || t.types[route.id] == InvocationType.BLOCKING) {
            return null;
        }
        if (t.types[route.id] == InvocationType.NON_BLOCKING) {
            return t.routed[route.id];
        }
        Handler nb = route.handler.nonBlockingHandler(method, path); // BY_REQUEST: the handler decides
        if (nb == null) {
            return null;
        }
        if (nb == route.handler) {
            return t.routed[route.id];
        }
        OnLoop cached = t.onLoop[route.id];
        if (cached == null || cached.nb() != nb) {
            cached = new OnLoop(nb, routed(route, chain(t.filters, nb)));
            t.onLoop[route.id] = cached;
        }
        return cached.routed();
    }

    private Table table() {
        Table t = table;
        if (t == null) {
            t = compile();
            table = t;
        }
        return t;
    }

    private Table compile() {
        Filter[] fs = filters.toArray(new Filter[0]);
        Handler[] routed = new Handler[routes.size()];
        InvocationType[] types = new InvocationType[routes.size()];
        boolean filtersNonBlocking = true;
        for (Filter f : fs) {
            filtersNonBlocking &= f.invocationType() == InvocationType.NON_BLOCKING;
        }
        boolean any = false;
        Map<Handler, Handler> bound = new IdentityHashMap<>();
        for (Route r : routes) {
            Handler h = r.handler instanceof DeclaredWebSocket d
                    ? bound.computeIfAbsent(d, k -> d.bind()) : r.handler;
            routed[r.id] = routed(r, chain(fs, h));
            // A BY_REQUEST handler (a proxy, a nested router) is asked per request
            // (nonBlockingHandler below); filters must all be non-blocking either way.
            InvocationType ht = h.invocationType();
            types[r.id] = !filtersNonBlocking || ht == InvocationType.BLOCKING ? InvocationType.BLOCKING : ht;
            any |= types[r.id] != InvocationType.BLOCKING;
        }
        return new Table(methods.toArray(new String[0]), routed,
                chain(fs, (q, s) -> plain(s, 404, NOT_FOUND_BODY)), fs, types, any, new OnLoop[routes.size()]);
    }

    private void checkNotFrozen() {
        if (table != null) {
            throw new IllegalStateException("Router already handles requests; build it first");
        }
    }

    /**
     * With {@code allowed == null}, the most specific route for method index {@code m}, or null.
     * With {@code allowed} given, marks the methods of every template matching the path instead
     * (pass {@code m = -1}) and returns null.
     */
    private Route find(String path, int m, boolean[] allowed) {
        return path.startsWith("/") ? walk(root, path, 1, m, allowed) : null;
    }

    // Recursion depth is bounded by the trie's depth, not the path's: it only follows children.
    private static Route walk(Node node, String path, int start, int m, boolean[] allowed) {
        int slash = path.indexOf('/', start);
        int end = slash < 0 ? path.length() : slash;
        Node literal = node.literal(path, start, end);
        Route r = literal == null ? null : step(literal, path, slash, m, allowed);
        if (r == null && node.var != null && end > start) {
            r = step(node.var, path, slash, m, allowed);
        }
        if (r == null && node.rest != null) {
            r = node.rest.select(m, allowed);
        }
        return r;
    }

    private static Route step(Node child, String path, int slash, int m, boolean[] allowed) {
        return slash < 0 ? child.select(m, allowed) : walk(child, path, slash + 1, m, allowed);
    }

    /** The Allow value for the marked methods, or null when none is marked (no path match). */
    private static String allow(String[] methods, boolean[] allowed) {
        boolean any = false;
        for (boolean a : allowed) {
            any |= a;
        }
        if (!any) {
            return null;
        }
        allowed[HEAD] |= allowed[GET];
        allowed[OPTIONS] = true;
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < methods.length; i++) {
            if (allowed[i]) {
                sb.append(sb.isEmpty() ? "" : ", ").append(methods[i]);
            }
        }
        return sb.toString();
    }

    // Sets Content-Type outright: a filter may have set another one before calling on.
    private static void plain(Response response, int status, byte[] body) throws IOException {
        response.status(status).header("Content-Type", "text/plain; charset=UTF-8");
        response.send(body);
    }

    /** What a hit on {@code route} runs: tells a {@link RouteAware} request, binds path variables, calls the chain. */
    private static Handler routed(Route route, Handler chain) {
        return (request, response) -> {
            if (request instanceof RouteAware aware) {
                aware.routeMatched(route.template);
            }
            // Only routes with variables ({name}, {name...}, *) pay for the wrapper and the captured values.
            Request bound = route.names.length == 0
                    ? request
                    : new RoutedRequest(request, route.names, route.values(request.path()));
            chain.handle(bound, response);
        };
    }

    private static Handler chain(Filter[] filters, Handler last) {
        Handler next = last;
        for (int i = filters.length - 1; i >= 0; i--) {
            Filter f = filters[i];
            Handler inner = next;
            next = (q, s) -> f.filter(q, s, inner);
        }
        return next;
    }

    private static String checkName(String name, Set<String> seen, String template) {
        if (name.isEmpty()) {
            throw new IllegalArgumentException("Empty variable name: " + template);
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(c == '_' || (c < 128 && Character.isLetterOrDigit(c)))) {
                throw new IllegalArgumentException(
                        "Variable names are letters, digits and '_': '" + name + "' in " + template);
            }
        }
        if (!seen.add(name)) {
            throw new IllegalArgumentException("Duplicate variable '" + name + "': " + template);
        }
        return name;
    }


    /** What handle() reads after freezing; method names by index, routed chains by route id. */
    /**
     * A {@link InvocationType#BY_REQUEST} route's poller entry ({@code nb}, what its handler's
     * {@link Handler#nonBlockingHandler} gave) with the filters and the route around it: kept per
     * route so that a handler handing out the same entry each time costs no allocation per
     * request. Written by whichever poller finds it missing (immutable, so a race only builds it
     * twice).
     */
    private record OnLoop(Handler nb, Handler routed) {
    }

    private record Table(String[] methods, Handler[] routed, Handler notFound, Filter[] filters,
                         InvocationType[] types, boolean anyNonBlocking, OnLoop[] onLoop) {
        int methodIndex(String method) {
            for (int i = 0; i < methods.length; i++) {
                if (methods[i].equals(method)) {
                    return i;
                }
            }
            return -1;
        }
    }

    /** A {@link #websocket} route until the router freezes, then bound by {@link WebSocketBinding}. */
    private record DeclaredWebSocket(WebSocketEndpoint endpoint) implements Handler {
        Handler bind() {
            return WebSocketBinding.find().handler(endpoint);
        }

        @Override
        public void handle(Request request, Response response) {
            throw new IllegalStateException("a WebSocket route is bound when the router freezes");
        }
    }

    /** One registration: a handler and how to read its parameters back out of a path. */
    private static final class Route {
        final int id;
        final Handler handler;
        /** Per template segment: the variable's name ({@code *} for the anonymous rest), or null for literals. */
        final String[] params;
        /** Whether the last segment is a rest wildcard. */
        final boolean rest;
        /** The named variables, in template order. */
        final String[] names;
        /** As registered: what a {@link RouteAware} request is told. */
        final String template;

        Route(int id, Handler handler, String[] params, boolean rest, String template) {
            this.template = template;
            this.id = id;
            this.handler = handler;
            this.params = params;
            this.rest = rest;
            this.names = names(params);
        }

        /** A plain loop: a stream here would load the stream framework into every server's start. */
        private static String[] names(String[] params) {
            int n = 0;
            for (String p : params) {
                n += p != null ? 1 : 0;
            }
            String[] out = new String[n];
            int k = 0;
            for (String p : params) {
                if (p != null) {
                    out[k++] = p;
                }
            }
            return out;
        }

        /** The variables' values in {@link #names} order, for a path this route matched. */
        String[] values(String path) {
            String[] out = new String[names.length];
            int k = 0;
            int start = 1;
            for (int i = 0; i < params.length; i++) {
                boolean last = i == params.length - 1;
                int end = last && rest ? path.length() : path.indexOf('/', start);
                if (end < 0) {
                    end = path.length();
                }
                if (params[i] != null) {
                    out[k++] = path.substring(start, end);
                }
                start = end + 1;
            }
            return out;
        }
    }

    /** A trie node: one per distinct template prefix (variable names do not count). */
    private static final class Node {
        private static final String[] NO_KEYS = {};
        private static final Node[] NO_NODES = {};
        private static final Route[] NO_ROUTES = {};

        // Literal children as parallel arrays: few per node, so a scan comparing the path region
        // in place is cheaper than hashing and needs no substring.
        private String[] keys = NO_KEYS;
        private Node[] children = NO_NODES;
        private Node var;
        private Node rest;
        /** Routes ending here, by method index; empty when no template ends here. */
        private Route[] routes = NO_ROUTES;

        Node literal(String path, int start, int end) {
            int len = end - start;
            for (int i = 0; i < keys.length; i++) {
                if (keys[i].length() == len && path.startsWith(keys[i], start)) {
                    return children[i];
                }
            }
            return null;
        }

        Node literalChild(String key) {
            for (int i = 0; i < keys.length; i++) {
                if (keys[i].equals(key)) {
                    return children[i];
                }
            }
            keys = Arrays.copyOf(keys, keys.length + 1);
            children = Arrays.copyOf(children, children.length + 1);
            keys[keys.length - 1] = key;
            return children[children.length - 1] = new Node();
        }

        void put(int m, Route route, String method, String template) {
            if (m >= routes.length) {
                // At least the standard methods, so select() can read GET and HEAD unchecked.
                routes = Arrays.copyOf(routes, Math.max(m + 1, STANDARD_METHODS.size()));
            }
            if (routes[m] != null) {
                throw new IllegalArgumentException(
                        "Already routed: " + method + " " + template + " (or the same template"
                                + " with other variable names)");
            }
            routes[m] = route;
        }

        /** Marks this node's methods if asked; returns its route for method index m, or null. */
        Route select(int m, boolean[] allowed) {
            if (routes.length == 0) {
                return null;
            }
            if (allowed != null) {
                for (int i = 0; i < routes.length; i++) {
                    allowed[i] |= routes[i] != null;
                }
            }
            if (m < 0 || m >= routes.length) {
                return null;
            }
            Route r = routes[m];
            return r == null && m == HEAD ? routes[GET] : r;
        }
    }
}
