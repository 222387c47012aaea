package org.loommpm.proxy;

import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.loommpm.api.Handler;
import org.loommpm.api.Headers;
import org.loommpm.api.HttpException;
import org.loommpm.api.InvocationType;
import org.loommpm.api.Request;
import org.loommpm.api.Response;
import org.loommpm.http.RequestPath;
import org.loommpm.http.ResponseState;
import org.loommpm.spi.EventLoop;

/**
 * A reverse proxy as a {@link Handler} (httpd's {@code ProxyPass}): requests whose path starts
 * with a prefix go to a backend URL, or to a {@link Balancer}'s members, with the prefix
 * replaced by the backend's path. The path is the request's normalised one
 * ({@link Request#path()}, what any rule before the proxy matched), sent on encoded again with
 * its path parameters ({@link Request#encodedPath()}), and the query as sent.
 *
 * <pre>{@code
 * // everything to one backend
 * LoomServer.builder().port(8080).handler(ProxyHandler.to("http://127.0.0.1:9000/")).start();
 *
 * // /app/... to a balancer, the rest elsewhere
 * Balancer pool = Balancer.builder("app")
 *         .member(Member.builder("http://10.0.0.1:9000/").loadFactor(2).build())
 *         .member(Member.builder("http://10.0.0.2:9000/").build())
 *         .member(Member.builder("http://10.0.0.3:9000/").hotStandby(true).build())
 *         .lbMethod(LbMethod.BYBUSYNESS).build();
 * Handler app = ProxyHandler.builder("/app/", pool).build();
 * Router r = new Router();
 * for (String m : List.of("GET", "HEAD", "POST", "PUT", "DELETE", "PATCH")) {
 *     r.route(m, "/app/*", app);
 * }
 * }</pre>
 *
 * <p>What it does per request: removes the hop-by-hop fields (RFC 9110 §7.6.1) both ways, sets
 * {@code Host} to the backend's (or keeps the client's: {@link Builder#preserveHost}), adds
 * {@code X-Forwarded-For}/{@code -Host}/{@code -Server}/{@code -Proto} (and {@code Via} when
 * asked), streams the bodies both ways with back-pressure, forwards
 * {@code Expect: 100-continue}, and rewrites {@code Location}, {@code Content-Location} and
 * {@code URI} back ({@link ReverseMap}).
 *
 * <p>Upgrades ({@link Builder#upgrade}, httpd's {@code upgrade=}): an HTTP/1.1 request asking
 * for the allowed protocol ({@link UpgradePolicy}) goes to the backend with its {@code Upgrade}
 * and {@code Connection: Upgrade}; a {@code 101} from the backend is answered {@code 101} and
 * the connection becomes a {@link Tunnel} that relays bytes both ways until either side closes
 * (LM2311, LM2312); any other answer is relayed as usual. An HTTP/2 extended CONNECT (RFC 8441)
 * for the allowed protocol goes to the backend as such an HTTP/1.1 upgrade ({@link ExtendedConnect},
 * a {@code GET} with a key of the proxy's own for a WebSocket); the backend's 101 is answered
 * {@code 200} and the stream becomes the tunnel ({@link StreamTunnel}). A 101 naming another
 * protocol, or with a wrong {@code Sec-WebSocket-Accept}, and a 2xx instead of the 101 to an
 * extended CONNECT, are answered 502 (LM2314); an extended CONNECT for a protocol not passed
 * through is answered 501 (LM2317).
 *
 * <p>Failures: a connect that fails or times out puts the member in error state for its
 * {@code retry} time (LM2301) and the next member is tried (nothing was sent, so any method may
 * move); a request the backend did not answer is sent again, to a fresh connection or another
 * member, only when it is idempotent and no byte of its body had been read (LM2309). Otherwise:
 * 503 when no member is usable (LM2303) or no pooled connection frees up in time (LM2310), 504 when the backend does
 * not answer within the timeout (LM2305), 502 when it closes or breaks HTTP (LM2304). A backend
 * that fails after the response began cuts the client's response off (LM2306): the server closes
 * the connection without the final chunk (HTTP/1.1) or resets the stream (HTTP/2), so a
 * truncated body is never passed off as complete.
 *
 * <p><b>Threads.</b> A request the poller that read it may serve ({@link #nonBlockingHandler}:
 * a whole request on a cleartext connection, no upgrade, no {@code Expect}, not {@code HEAD})
 * is proxied on that poller ({@link LoopExchange}), over backend connections the poller owns,
 * with no worker and no thread switch ({@link Builder#onPoller} turns this off). Everything else
 * runs on the exchange's worker (a virtual thread), which leases a backend connection, owns it
 * for the exchange, and returns it to the member's pool; backend I/O parks the virtual thread on
 * the JDK's poller (no carrier blocked, no thread per backend socket). A handler is immutable
 * once built and shared by every worker and poller. {@link #close} closes its balancer (health
 * checks, idle connections).
 */
public final class ProxyHandler implements Handler, AutoCloseable {
    private static final System.Logger LOG = System.getLogger("org.loommpm.proxy");
    /** Stale-connection retries per request, beyond the members' own attempts. */
    private static final int MAX_STALE_RETRIES = 3;

    private final String prefix;
    private final String extraPath;
    private final Balancer balancer;
    private final boolean ownsBalancer;
    private final boolean preserveHost;
    private final boolean addHeaders;
    private final String via;
    private final String serverName;
    private final ReverseMap reverse;
    private final int timeoutMillis;
    /** The upgrades passed through, or {@code null} for none (an extended CONNECT is then answered 501). */
    private final UpgradePolicy upgrade;
    /** Whether requests the poller may serve are proxied there ({@link LoopExchange}). */
    private final boolean onPoller;
    private final Handler onLoop = new OnLoop();

    private ProxyHandler(Builder b) {
        this.prefix = b.prefix;
        this.extraPath = b.extraPath;
        this.balancer = b.balancer != null ? b.balancer
                : Balancer.single(Member.builder(b.url.toString()).retry(b.retry).build(), b.timeout);
        this.ownsBalancer = b.balancer == null;
        this.preserveHost = b.preserveHost;
        this.addHeaders = b.addHeaders;
        this.via = b.via;
        this.serverName = b.serverName;
        if (b.autoReverse) {
            // Its own rules go into a copy: the map the builder was given may serve other handlers.
            this.reverse = b.reverse.copy();
            for (Member m : balancer.members()) {
                reverse.add(prefix, join(m.url().toString(), extraPath));
            }
        } else {
            this.reverse = b.reverse;
        }
        this.timeoutMillis = (int) Math.min(Integer.MAX_VALUE, b.timeout.toMillis());
        this.upgrade = b.upgrade == null ? null : new UpgradePolicy(b.upgrade);
        this.onPoller = b.onPoller;
    }

    /**
     * Proxies every request to {@code url} (the request path is appended to its path).
     *
     * @param url the backend's URL
     * @return the handler
     */
    public static ProxyHandler to(String url) {
        return builder("/", url).build();
    }

    /**
     * A proxy for requests under {@code prefix} to {@code url}: {@code /app/x?y} with prefix
     * {@code /app/} and URL {@code http://b:9000/base/} goes to {@code /base/x?y}.
     *
     * @param prefix the request path prefix, e.g. {@code /app/}
     * @param url the backend's URL
     * @return a builder
     */
    public static Builder builder(String prefix, String url) {
        return new Builder(prefix, BackendUrl.parse(url), null);
    }

    /**
     * A proxy for requests under {@code prefix} to the members of {@code balancer}.
     *
     * @param prefix the request path prefix, e.g. {@code /app/}
     * @param balancer the members requests go to
     * @return a builder
     */
    public static Builder builder(String prefix, Balancer balancer) {
        return new Builder(prefix, null, Objects.requireNonNull(balancer, "balancer"));
    }

    /**
     * {@link InvocationType#BY_REQUEST} unless {@link Builder#onPoller} is off: see
     * {@link #nonBlockingHandler}.
     */
    @Override
    public InvocationType invocationType() {
        return onPoller ? InvocationType.BY_REQUEST : InvocationType.BLOCKING;
    }

    @Override
    public InvocationType invocationType(String method, String path) {
        return nonBlockingHandler(method, path) != null ? InvocationType.NON_BLOCKING : InvocationType.BLOCKING;
    }

    /**
     * The handler that proxies a request on the poller that read it ({@link LoopExchange}): for
     * any method but {@code HEAD} (whose answer keeps the backend's {@code Content-Length}) and
     * {@code CONNECT}, under the prefix. The server calls it there only for a whole request on a
     * cleartext connection without {@code Upgrade} or {@code Expect} (see {@link InvocationType});
     * everything else comes to {@link #handle} on a virtual thread.
     */
    @Override
    public Handler nonBlockingHandler(String method, String path) {
        if (!onPoller || method.equals("HEAD") || method.equals("CONNECT") || !path.startsWith(prefix)) {
            return null;
        }
        return onLoop;
    }

    /** The poller's entry: {@link LoopExchange}, or {@link #handle} if called on a worker after all. */
    private final class OnLoop implements Handler {
        @Override
        public void handle(Request req, Response res) throws Exception {
            EventLoop loop = EventLoop.current();
            if (loop == null) {
                ProxyHandler.this.handle(req, res);
                return;
            }
            if (!matches(req.path())) {
                throw new HttpException(404, "not under the proxy's prefix " + prefix);
            }
            LoopExchange.start(ProxyHandler.this, loop, req, res);
        }

        @Override
        public InvocationType invocationType() {
            return InvocationType.NON_BLOCKING;
        }
    }

    /**
     * Fills a client's response fields from a backend's head: its end-to-end fields, those
     * {@link ReverseMap} maps back, and with {@link Builder#via} this proxy appended to its
     * {@code Via}: a proxy adds itself to each message it forwards (RFC 9110 §7.6.3), and httpd's
     * {@code ProxyVia On} does so both ways.
     */
    void responseFields(ResponseHead rh, Headers to, String clientHost, boolean secure) {
        ProxyExchange.copyEndToEnd(rh.headers(), to);
        if (!reverse.isEmpty()) {
            reverse.rewrite(to, clientHost, secure);
        }
        if (via != null) {
            String mine = (rh.http11() ? "1.1 " : "1.0 ") + via;
            List<String> prior = to.all("Via");
            to.set("Via", prior.isEmpty() ? mine : String.join(", ", prior) + ", " + mine);
        }
    }

    /** {@return {@code ProxyTimeout} for an attempt on {@code m}: its own {@code timeout}, else the handler's} */
    long timeoutNanos(Member m) {
        return m.timeout() != null ? m.timeout().toNanos() : timeoutMillis * 1_000_000L;
    }

    /** {@return the path prefix it serves} */
    public String prefix() {
        return prefix;
    }

    /** {@return the map its responses' fields are rewritten with ({@code ProxyPassReverse} and its cookie rules)} */
    public ReverseMap reverseMap() {
        return reverse;
    }

    /** {@return the balancer it sends to (a one-member one for a URL)} */
    public Balancer balancer() {
        return balancer;
    }

    /**
     * Whether a request path falls under this proxy's prefix: a plain string prefix, as httpd
     * compares ({@code /app/} does not take {@code /app}). The path is {@link Request#path()},
     * decoded and normalised, whatever the target's form (absolute-form too): the backend gets
     * that path, so what this prefix (and any rule before it) saw is what the backend serves.
     *
     * @param path the request's path ({@link Request#path()})
     * @return whether this proxy serves it
     */
    public boolean matches(String path) {
        return path.startsWith(prefix);
    }

    @Override
    public void handle(Request req, Response res) throws Exception {
        String target = req.rawTarget();
        if (!matches(req.path())) {
            throw new HttpException(404, "not under the proxy's prefix " + prefix);
        }
        ProxyExchange.RequestBody body = bodyFraming(req);
        boolean expect = req.protocol().equals("HTTP/1.1") && req.headers().hasToken("Expect", "100-continue");
        // A client waiting for a 100 has sent no chunk yet: its framing is checked as it is relayed.
        InputStream clientBody = body == ProxyExchange.RequestBody.CHUNKED && !expect
                && req.headers().contains("Transfer-Encoding") ? ProxyExchange.firstChunkRead(req.body()) : req.body();
        boolean idempotent = body == ProxyExchange.RequestBody.NONE && idempotent(req.method());
        ClientUpgrade upgradeTo = UpgradePolicy.requested(upgrade, req, res, body != ProxyExchange.RequestBody.NONE);
        String route = StickyRoute.of(req, balancer.stickySession());
        long tried = 0;
        int connectFailures = 0;
        int staleRetries = 0;
        AttemptFailed last = null;
        for (;;) {
            int i = balancer.choose(route, tried);
            if (i < 0) {
                answerUnavailable(req, last);
                return;
            }
            Member m = balancer.member(i);
            MemberPool.Lease lease;
            try {
                lease = m.pool().lease(idempotent);
            } catch (MemberPool.PoolExhaustedException e) {
                LOG.log(Level.WARNING, "LM2310 503 for {0} {1}: {2}", req.method(), target, e.getMessage());
                throw new HttpException(503, e.getMessage());
            } catch (IOException e) {
                m.markError(System.nanoTime());
                LOG.log(Level.WARNING, "LM2301 cannot connect to {0} ({1}): member in error state for {2} ms",
                        m, e.toString(), m.retry().toMillis());
                tried |= 1L << i;
                if (++connectFailures > balancer.maxAttempts()) {
                    answerUnavailable(req, null);
                    return;
                }
                continue;
            }
            boolean reusable = false;
            boolean tunnelled = false;
            m.busy.incrementAndGet();
            try {
                int timeout = m.timeout() != null ? (int) Math.min(Integer.MAX_VALUE, m.timeout().toMillis())
                        : timeoutMillis;
                ProxyExchange ex = new ProxyExchange(req, clientBody, res, lease, timeout, this).upgrading(upgradeTo);
                head(lease.connection(), req, m, body, upgradeTo);
                reusable = ex.run(body, expect);
                if (ex.switched() != null) {
                    switchProtocols(req, res, upgradeTo, ex.switched(), m, lease, timeout);
                    tunnelled = true; // the lease is the tunnel's from here
                }
                if (m.errorUntil != 0) {
                    m.errorUntil = 0;
                }
                return;
            } catch (AttemptFailed f) {
                last = f;
                // Not a non-idempotent request, even on a reused connection: the backend may have
                // acted on it before it closed (RFC 9112 §9.3.1.1: a proxy MUST NOT retry it).
                boolean again = f.repeatable && !res.isCommitted() && idempotent
                        && (f.kind == AttemptFailed.Kind.STALE || f.kind == AttemptFailed.Kind.NO_RESPONSE);
                if (again && staleRetries++ < MAX_STALE_RETRIES + balancer.members().size()) {
                    LOG.log(Level.DEBUG, "LM2309 {0} {1} sent again after {2} failed before answering: {3}",
                            req.method(), target, m, f.getMessage());
                    if (f.kind != AttemptFailed.Kind.STALE) {
                        tried |= 1L << i;
                    }
                    continue;
                }
                fail(req, res, m, f);
                return;
            } finally {
                m.busy.decrementAndGet();
                if (!tunnelled) {
                    m.pool().release(lease.connection(), reusable);
                }
            }
        }
    }

    /**
     * The backend answered 101 (or a 2xx where only a switch may succeed, which is refused): the
     * client is answered as its upgrade says (a 101, or a 200 on its stream), and the backend
     * connection is handed to a {@link TunnelRelay} for what that answer opens. Returns normally
     * only if the hand-off is set; otherwise throws (the caller closes the backend connection).
     */
    private static void switchProtocols(Request req, Response res, ClientUpgrade up, ResponseHead rh, Member m,
                                        MemberPool.Lease lease, int timeout) throws IOException {
        String refusal = up.refusal(rh);
        if (refusal != null) {
            LOG.log(Level.WARNING, "LM2314 502 for {0} {1}: the answer of {2} to the upgrade cannot be passed on: {3}",
                    req.method(), req.rawTarget(), m, refusal);
            throw new HttpException(502, "the backend's answer to the upgrade cannot be passed on: " + refusal);
        }
        if (!(res instanceof ResponseState state)) {
            // A filter wrapped the server's response: the connection cannot be handed over through it.
            LOG.log(Level.ERROR, "LM2315 500 for {0} {1}: the response is not the server''s own (wrapped by a "
                    + "filter), the upgrade cannot be passed through", req.method(), req.rawTarget());
            throw new HttpException(500, "the response is wrapped by a filter: no upgrade through it");
        }
        up.answer(state, rh, new TunnelRelay(lease.connection(), m.pool(), m, timeout * 1_000_000L,
                rh.headers().first("Upgrade")));
    }

    private static void fail(Request req, Response res, Member m, AttemptFailed f) {
        switch (f.kind) {
            case TIMEOUT -> LOG.log(Level.WARNING, "LM2305 {0} for {1} {2}: {3} did not answer in time ({4})",
                    res.isCommitted() ? "cut off" : "504", req.method(), req.rawTarget(), m, f.getMessage());
            case ABORTED -> LOG.log(Level.WARNING, "LM2306 response to {0} {1} cut off: {2} failed mid-response ({3})",
                    req.method(), req.rawTarget(), m, f.getMessage());
            default -> LOG.log(Level.WARNING, "LM2304 502 for {0} {1}: {2} {3}", req.method(), req.rawTarget(), m,
                    f.getMessage());
        }
        throw new HttpException(res.isCommitted() ? 502 : f.kind.status, f.getMessage());
    }

    private void answerUnavailable(Request req, AttemptFailed last) {
        if (last != null) {
            // Members were reached but failed; the last failure is the answer.
            LOG.log(Level.WARNING, "LM2304 {0} for {1} {2}: no member left to try after {3}", last.kind.status,
                    req.method(), req.rawTarget(), last.getMessage());
            throw new HttpException(last.kind.status, last.getMessage());
        }
        LOG.log(Level.ERROR, "LM2303 503 for {0} {1}: no usable member in {2}", req.method(), req.rawTarget(), balancer);
        throw new HttpException(503, "no usable member in " + balancer);
    }

    static boolean idempotent(String method) {
        return switch (method) {
            case "GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE" -> true;
            default -> false;
        };
    }

    static ProxyExchange.RequestBody bodyFraming(Request req) {
        long len = req.contentLength();
        if (len > 0) {
            return ProxyExchange.RequestBody.LENGTH;
        }
        if (len == 0) {
            return ProxyExchange.RequestBody.NONE;
        }
        if (req.headers().contains("Transfer-Encoding")) {
            return ProxyExchange.RequestBody.CHUNKED;
        }
        // HTTP/2 frames a body without a length; the methods that carry one are sent chunked.
        if (req.protocol().equals("HTTP/2.0")) {
            return switch (req.method()) {
                case "GET", "HEAD", "OPTIONS", "DELETE", "TRACE", "CONNECT" -> ProxyExchange.RequestBody.NONE;
                default -> ProxyExchange.RequestBody.CHUNKED;
            };
        }
        return ProxyExchange.RequestBody.NONE;
    }

    /**
     * Composes the request head toward {@code m} in the connection's output buffer, without its
     * final empty line: straight into bytes, with no string built per request.
     */
    private void head(BackendConnection c, Request req, Member m, ProxyExchange.RequestBody body,
                      ClientUpgrade upgradeTo) {
        requestLine(c, upgradeTo == null ? req.method() : upgradeTo.method(req), pastPrefix(req), req.query(),
                req.header("Host"), m);
        fields(c, req, body, upgradeTo);
    }

    /**
     * Composes the request line and {@code Host} toward {@code m}: what differs from one member
     * to another.
     *
     * @param rest the request's path past this proxy's prefix ({@link #pastPrefix})
     * @param query the raw query, or {@code null}
     */
    void requestLine(HeadSink c, String method, String rest, String query, String clientHost, Member m) {
        c.ascii(method).ascii(" ");
        targetPath(c, m.url().path(), rest);
        if (query != null) {
            c.ascii("?").ascii(query);
        }
        c.ascii(" HTTP/1.1\r\n");
        c.ascii("Host: ").ascii(preserveHost && clientHost != null ? clientHost : m.authority()).ascii("\r\n");
    }

    /**
     * Composes the request's fields after {@code Host}, without the final empty line: the
     * client's end-to-end ones, the forwarding ones, the upgrade's, and the body's framing.
     */
    void fields(HeadSink c, Request req, ProxyExchange.RequestBody body, ClientUpgrade upgradeTo) {
        String host = req.header("Host");
        Headers h = req.headers();
        boolean namesOthers = HopByHop.namesOthers(h);
        for (int i = 0; i < h.size(); i++) {
            String name = h.name(i);
            if (HopByHop.is(name, h, namesOthers) || name.startsWith(":") || Headers.equalsIgnoreCase(name, "Host")
                    || Headers.equalsIgnoreCase(name, "Content-Length") || Headers.equalsIgnoreCase(name, "Expect")
                    || upgradeTo != null && upgradeTo.drops(name)) {
                continue;
            }
            if (addHeaders && Headers.equalsIgnoreCase(name, "X-Forwarded-For")) {
                continue; // appended to below
            }
            if (via != null && Headers.equalsIgnoreCase(name, "Via")) {
                continue; // appended to below
            }
            c.ascii(name).ascii(": ").ascii(h.value(i)).ascii("\r\n");
        }
        if (addHeaders) {
            c.ascii("X-Forwarded-For: ");
            priorValues(c, h, "X-Forwarded-For");
            clientAddress(c, req.remoteAddress());
            c.ascii("\r\n");
            if (host != null) {
                c.ascii("X-Forwarded-Host: ").ascii(host).ascii("\r\n");
            }
            if (serverName != null) {
                c.ascii("X-Forwarded-Server: ").ascii(serverName).ascii("\r\n");
            }
            c.ascii("X-Forwarded-Proto: ").ascii(req.isSecure() ? "https" : "http").ascii("\r\n");
        }
        if (via != null) {
            c.ascii("Via: ");
            priorValues(c, h, "Via");
            c.ascii(req.protocol().equals("HTTP/2.0") ? "2" : req.protocol().substring(5)).ascii(" ").ascii(via)
                    .ascii("\r\n");
        }
        if (upgradeTo != null) {
            upgradeTo.appendTo(c);
        }
        switch (body) {
            case LENGTH -> c.ascii("Content-Length: ").decimal(req.contentLength()).ascii("\r\n");
            case CHUNKED -> c.ascii("Transfer-Encoding: chunked\r\n");
            case NONE -> {
                if (req.contentLength() == 0) {
                    c.ascii("Content-Length: 0\r\n");
                }
            }
        }
    }

    /**
     * The request's path past this proxy's prefix, as it goes to the backend: the normalised
     * path the prefix matched, encoded again with its path parameters
     * ({@link RequestPath#encodedFrom}), never the target as sent, which may name another
     * resource ({@code /app/x/../../admin}).
     */
    String pastPrefix(Request req) {
        return RequestPath.encodedFrom(req.path(), req.encodedPath(), prefix.length());
    }

    /**
     * Writes the backend's path: the member's path, the balancer's path, then {@code rest}, the
     * request's past this proxy's prefix, as {@link #join} would concatenate them.
     */
    private void targetPath(HeadSink c, String base, String rest) {
        if (base.isEmpty() && extraPath.isEmpty() && rest.isEmpty()) {
            c.ascii("/");
            return;
        }
        char first = !extraPath.isEmpty() ? extraPath.charAt(0) : !rest.isEmpty() ? rest.charAt(0) : 0;
        if (base.endsWith("/") && first == '/') {
            c.ascii(base, 0, base.length() - 1);
        } else {
            c.ascii(base);
        }
        c.ascii(extraPath).ascii(rest);
    }

    /** Writes each {@code name} field's value of {@code h} followed by {@code ", "} (a list to append to). */
    private static void priorValues(HeadSink c, Headers h, String name) {
        for (int i = 0; i < h.size(); i++) {
            if (Headers.equalsIgnoreCase(h.name(i), name)) {
                c.ascii(h.value(i)).ascii(", ");
            }
        }
    }

    /** Writes the client's address: an IPv4 one digit by digit, with no string formatted for it. */
    private static void clientAddress(HeadSink c, InetSocketAddress peer) {
        InetAddress a = peer.getAddress();
        if (a instanceof Inet4Address) {
            byte[] b = a.getAddress();
            c.decimal(b[0] & 0xff).ascii(".").decimal(b[1] & 0xff).ascii(".").decimal(b[2] & 0xff).ascii(".")
                    .decimal(b[3] & 0xff);
        } else {
            c.ascii(a != null ? a.getHostAddress() : peer.getHostString());
        }
    }

    /** Concatenates two path parts as httpd does, without doubling a slash at the seam. */
    static String join(String a, String b) {
        if (a.endsWith("/") && b.startsWith("/")) {
            return a + b.substring(1);
        }
        return a + b;
    }

    /** Closes the balancer if this handler made it (a URL); a shared balancer is its owner's to close. */
    @Override
    public void close() {
        if (ownsBalancer) {
            balancer.close();
        }
    }

    /** A proxy's settings (httpd's {@code Proxy*} directives). */
    public static final class Builder {
        private final String prefix;
        private final BackendUrl url;
        private final Balancer balancer;
        private String extraPath = "";
        private boolean preserveHost;
        private boolean addHeaders = true;
        private String via;
        private String serverName;
        private ReverseMap reverse = new ReverseMap();
        private boolean autoReverse = true;
        private Duration timeout = Balancer.DEFAULT_TIMEOUT;
        private Duration retry = Member.Builder.DEFAULT_RETRY;
        private String upgrade;
        private boolean onPoller = true;

        private Builder(String prefix, BackendUrl url, Balancer balancer) {
            if (prefix == null || !prefix.startsWith("/")) {
                throw new IllegalArgumentException("the proxy's prefix must start with /, got " + prefix);
            }
            this.prefix = prefix;
            this.url = url;
            this.balancer = balancer;
        }

        /**
         * A path appended to each member's path before the request's ({@code balancer://name/path}).
         *
         * @param path the value
         * @return this builder
         */
        public Builder balancerPath(String path) {
            extraPath = path == null || path.equals("/") ? "" : path;
            return this;
        }

        /**
         * {@code ProxyPreserveHost}: send the client's {@code Host} instead of the backend's (default off).
         *
         * @param on whether it is on
         * @return this builder
         */
        public Builder preserveHost(boolean on) {
            preserveHost = on;
            return this;
        }

        /**
         * {@code ProxyAddHeaders}: add {@code X-Forwarded-For}, {@code -Host}, {@code -Server}, {@code -Proto} (default on).
         *
         * @param on whether it is on
         * @return this builder
         */
        public Builder addHeaders(boolean on) {
            addHeaders = on;
            return this;
        }

        /**
         * {@code ProxyVia On}: add {@code Via: <version> <name>} naming this proxy (default off, as httpd).
         *
         * @param pseudonym the value
         * @return this builder
         */
        public Builder via(String pseudonym) {
            via = pseudonym;
            return this;
        }

        /**
         * The server's name, for {@code X-Forwarded-Server} (none by default).
         *
         * @param name the value
         * @return this builder
         */
        public Builder serverName(String name) {
            serverName = name;
            return this;
        }

        /**
         * {@code ProxyPassReverse}: the map applied to response fields. By default the handler's own
         * mapping (prefix to each member's URL) is added to it; see {@link #autoReverse}.
         *
         * @param map the reverse mapping
         * @return this builder
         */
        public Builder reverse(ReverseMap map) {
            reverse = Objects.requireNonNull(map, "map");
            return this;
        }

        /**
         * Whether to add the handler's own mapping to the reverse map (default on; the CLI turns it off).
         *
         * @param on whether it is on
         * @return this builder
         */
        public Builder autoReverse(boolean on) {
            autoReverse = on;
            return this;
        }

        /**
         * {@code ProxyTimeout}: how long to wait for a backend's connect or bytes (default 60 s).
         *
         * @param d the value
         * @return this builder
         */
        public Builder timeout(Duration d) {
            if (d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException("ProxyTimeout must be positive");
            }
            timeout = d;
            return this;
        }

        /**
         * {@code retry} of the backend of a URL proxy (default 60 s); a balancer's members have their own.
         *
         * @param d the value
         * @return this builder
         */
        public Builder retry(Duration d) {
            retry = d;
            return this;
        }

        /**
         * httpd's {@code upgrade=}: the protocol upgrade passed through to the backend
         * ({@code websocket}, any other token, or {@code *} for any); {@code null} (the default)
         * for none, the {@code Upgrade} field then removed as hop-by-hop.
         *
         * @param protocol the protocol, or {@code null}
         * @return this builder
         */
        public Builder upgrade(String protocol) {
            if (protocol != null && (protocol.isBlank() || protocol.indexOf(',') >= 0 || protocol.indexOf(' ') >= 0)) {
                throw new IllegalArgumentException("upgrade= takes one protocol name or *, got \"" + protocol + "\"");
            }
            upgrade = protocol;
            return this;
        }

        /**
         * Whether a request the poller may serve (see {@link ProxyHandler#nonBlockingHandler}) is
         * proxied on that poller, with backend connections it owns, instead of on a virtual
         * thread (default on). Off, every request takes the virtual-thread path.
         *
         * @param on whether it is on
         * @return this builder
         */
        public Builder onPoller(boolean on) {
            onPoller = on;
            return this;
        }

        /** {@return the handler; for a URL this creates its one-member balancer} */
        public ProxyHandler build() {
            return new ProxyHandler(this);
        }
    }
}
