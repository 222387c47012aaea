package org.loommpm.proxy;

import java.io.EOFException;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.time.Duration;
import java.util.Arrays;
import org.loommpm.api.Headers;
import org.loommpm.api.Request;
import org.loommpm.api.Response;
import org.loommpm.api.SuspendedResponse;
import org.loommpm.http.SuspendedExchange;
import org.loommpm.spi.EventLoop;

/**
 * One proxied request served on the event loop (the poller) that read it, with no worker and no
 * thread of its own: the request goes to a backend connection that loop owns
 * ({@link LoopConnection}), the client's response is suspended, and the loop answers it when the
 * backend's bytes arrive. The blocking {@link ProxyExchange} on a virtual thread serves what this
 * does not take ({@link ProxyHandler#nonBlockingHandler}: HEAD, CONNECT, upgrades, bodies not
 * read whole, TLS clients).
 *
 * <p><b>States</b> (loop thread only):
 * <pre>
 *   CONNECTING     a new connection's connect is in flight           -> SENDING, or the next member
 *   SENDING        the request (head and the body, read whole) is going out -> AWAITING_HEAD
 *   AWAITING_HEAD  until a final response head (102, 103... relayed) -> READING_BODY | STREAMING | DONE
 *   READING_BODY   a Content-Length body of at most {@link ProxyExchange#SMALL_BODY}, read whole
 *                  before anything goes to the client, so a failure inside it is still a clean 502
 *   STREAMING      larger, chunked or close-delimited bodies, relayed as they arrive  <-> PAUSED
 *   PAUSED         the client's queue is full: the backend is not read until it has room
 *   DONE           answered, failed or abandoned; the connection is back in its pool or closed
 * </pre>
 * Failures follow {@link ProxyHandler}'s rules and log ids: a failed connect puts the member in
 * error state and tries the next (LM2301); an idempotent request without a body that the backend
 * did not answer is sent again (LM2309); otherwise
 * 502/503/504 before the response began, and the response cut off after (LM2304, LM2305,
 * LM2306). Timeouts ({@code ProxyTimeout}, the connect timeout) are deadlines on the connection,
 * found by the balancer's {@link TimeoutSweeper}, which hands each to the loop.
 *
 * <p><b>Ownership.</b> The exchange owns its connection from the lease (an idle one of this
 * loop's {@link LoopPool}, probed first for a request that cannot be sent again;
 * or a new one) to {@link #release}, and a permit of the member's
 * {@link MemberPool} for as long. When no permit is free the exchange waits for one on a virtual
 * thread of its own (up to {@code acquire}, then 503 LM2310) and comes back to the loop with it.
 */
final class LoopExchange {
    private static final System.Logger LOG = System.getLogger("org.loommpm.proxy");
    private static final byte[] EMPTY = new byte[0];
    /**
     * The suspension's own deadline, past any the proxy sets: the proxy's timeouts end the
     * exchange (504, or the response cut off), never the suspension's 503.
     */
    private static final Duration NO_DEADLINE = Duration.ofDays(365);
    /** Stale-connection retries per request, beyond the members' own attempts (as {@link ProxyHandler}). */
    private static final int MAX_STALE_RETRIES = 3;

    private enum State { CONNECTING, SENDING, AWAITING_HEAD, READING_BODY, STREAMING, PAUSED, DONE }

    private final ProxyHandler proxy;
    private final Balancer balancer;
    private final EventLoop loop;
    private final SuspendedResponse response;
    private final String method;
    /** The target as sent, for the log. */
    private final String target;
    /** The path past the proxy's prefix and the query, as they go to the backend. */
    private final String rest;
    private final String query;
    private final String clientHost;
    private final boolean secure;
    /**
     * Whether the request may be sent again: idempotent, and without a body. A non-idempotent one
     * is not, even when a reused connection failed it: the backend may have acted on it before it
     * closed (RFC 9112 §9.3.1.1).
     */
    private final boolean repeatable;
    private final String route;
    /** The request's fields after {@code Host}, its body framing and the empty line: composed once. */
    private final HeadBytes fields;
    private final byte[] body;

    private State state = State.CONNECTING;
    private long tried;
    private int connectFailures;
    private int staleRetries;
    private Member member;
    private int memberIndex;
    private LoopConnection conn;
    private long timeoutNanos;
    /** SENDING: the request line and {@code Host}, the fields, the body; written with one gathering write. */
    private ByteBuffer[] outgoing;
    /** Whether any byte of a response came on this attempt (then it is no stale connection). */
    private boolean heardAnything;
    /** Set when the piece that paused the relay was the body's last: the end follows once it is taken. */
    private boolean endAfterPause;
    /** With {@link #endAfterPause}: whether the connection was left at the message's end. */
    private boolean cleanAfterPause;
    private ResponseHead.Framing framing;
    private boolean keepAlive;
    /** LENGTH: body bytes still to come; READING_BODY: the whole body and how much of it is in. */
    private long remaining;
    private byte[] whole;
    private int wholeLength;
    private ChunkedDecoder chunks;
    /** STREAMING: the pieces of one read, as one array for the client's queue. */
    private HeadBytes pieces;
    /** PAUSED: the piece the client's queue did not take. */
    private byte[] pending;
    /** How the last attempt that reached a member failed, if one did: the answer when no member is left. */
    private AttemptFailed.Kind lastFailure;

    private LoopExchange(ProxyHandler proxy, EventLoop loop, Request req, SuspendedResponse response, HeadBytes fields,
                         byte[] body) {
        this.proxy = proxy;
        this.balancer = proxy.balancer();
        this.loop = loop;
        this.response = response;
        this.method = req.method();
        this.target = req.rawTarget();
        this.rest = proxy.pastPrefix(req);
        this.query = req.query();
        this.clientHost = req.header("Host");
        this.secure = req.isSecure();
        this.repeatable = body == null && ProxyHandler.idempotent(method);
        this.route = StickyRoute.of(req, balancer.stickySession());
        this.fields = fields;
        this.body = body;
    }

    /**
     * Starts proxying {@code req} from the loop that is running its handler: the request's
     * fields are composed, the response suspended, and the first attempt begun. The request's
     * body, if any, is already in the server's buffer (the inline path's rule) and is read now.
     */
    static void start(ProxyHandler proxy, EventLoop loop, Request req, Response res) throws IOException {
        byte[] body = null;
        ProxyExchange.RequestBody framing = ProxyExchange.RequestBody.NONE;
        long declared = req.contentLength();
        if (declared > 0 || declared < 0 && ProxyHandler.bodyFraming(req) != ProxyExchange.RequestBody.NONE) {
            body = req.body().readAllBytes();
            framing = declared == body.length ? ProxyExchange.RequestBody.LENGTH : ProxyExchange.RequestBody.NONE;
        }
        HeadBytes fields = new HeadBytes(512);
        proxy.fields(fields, req, framing, null);
        if (body != null && framing == ProxyExchange.RequestBody.NONE) {
            fields.ascii("Content-Length: ").decimal(body.length).ascii("\r\n"); // an HTTP/2 body, now counted
        }
        fields.ascii("\r\n");
        new LoopExchange(proxy, loop, req, res.suspend(NO_DEADLINE), fields, body).attempt(-1);
    }

    // ---- attempts ----

    /**
     * Leases a connection from the next member and sends the request, or answers when no member
     * is left. {@code withPermit} is a member already chosen whose permit was waited for, or -1.
     */
    private void attempt(int withPermit) {
        boolean permitHeld = withPermit >= 0;
        for (;;) {
            int i = permitHeld ? withPermit : balancer.choose(route, tried);
            if (i < 0) {
                unavailable();
                return;
            }
            Member m = balancer.member(i);
            MemberPool pool = m.pool();
            if (!permitHeld && !pool.tryPermit()) {
                awaitPermit(i, pool);
                return;
            }
            permitHeld = false;
            long now = System.nanoTime();
            LoopPool home = pool.loopPool(loop);
            LoopConnection c = home.poll(now);
            while (c != null && !repeatable && !c.stillOpen()) {
                c.close(); // a request not sent again goes only on a connection known open
                c = home.poll(now);
            }
            boolean fresh = c == null;
            if (fresh) {
                try {
                    c = LoopConnection.open(home);
                } catch (IOException | RuntimeException e) {
                    pool.releasePermit();
                    if (connectFailed(m, i, e)) {
                        return;
                    }
                    continue;
                }
            }
            c.idleSince = 0;
            c.exchange = this;
            conn = c;
            member = m;
            memberIndex = i;
            heardAnything = false;
            m.busy.incrementAndGet();
            timeoutNanos = proxy.timeoutNanos(m);
            if (c.connected) {
                send(now);
            } else {
                state = State.CONNECTING;
                c.armDeadline(now, pool.connectMillis() * 1_000_000L);
            }
            return;
        }
    }

    /**
     * Every permit of the member is taken: a virtual thread waits for one (up to
     * {@code acquire}) and brings it back to the loop, or the request is answered 503 (LM2310).
     */
    private void awaitPermit(int i, MemberPool pool) {
        Thread.ofVirtual().name("loom-proxy-permit").start(() -> {
            boolean got;
            try {
                got = pool.awaitPermit();
            } catch (InterruptedException e) {
                got = false;
            }
            boolean permitted = got;
            boolean queued = onLoop(() -> {
                if (permitted) {
                    attempt(i);
                } else {
                    LOG.log(Level.WARNING, "LM2310 503 for {0} {1}: no free connection to {2} within {3} ms", method,
                            target, balancer.member(i), pool.acquireMillis());
                    answer(503);
                }
            });
            if (!queued) {
                if (permitted) {
                    pool.releasePermit();
                }
                response.abort();
            }
        });
    }

    /** A connect failed: the member goes into error state (LM2301); {@return whether the exchange ended} */
    private boolean connectFailed(Member m, int i, Exception e) {
        m.markError(System.nanoTime());
        LOG.log(Level.WARNING, "LM2301 cannot connect to {0} ({1}): member in error state for {2} ms", m, e.toString(),
                m.retry().toMillis());
        tried |= 1L << i;
        if (++connectFailures > balancer.maxAttempts()) {
            unavailable();
            return true;
        }
        return false;
    }

    private void unavailable() {
        if (lastFailure != null) {
            // Members were reached but failed; the last failure is the answer.
            LOG.log(Level.WARNING, "LM2304 {0} for {1} {2}: no member left to try after {3}", lastFailure.status,
                    method, target, lastFailure);
            answer(lastFailure.status);
            return;
        }
        LOG.log(Level.ERROR, "LM2303 503 for {0} {1}: no usable member in {2}", method, target, balancer);
        answer(503);
    }

    /** Writes the request line, {@code Host}, the fields and the body, as far as the socket takes them. */
    private void send(long now) {
        HeadBytes line = new HeadBytes(128);
        proxy.requestLine(line, method, rest, query, clientHost, member);
        ByteBuffer head = ByteBuffer.wrap(line.array(), 0, line.length());
        ByteBuffer rest = ByteBuffer.wrap(fields.array(), 0, fields.length());
        outgoing = body == null ? new ByteBuffer[] {head, rest} : new ByteBuffer[] {head, rest, ByteBuffer.wrap(body)};
        state = State.SENDING;
        conn.armDeadline(now, timeoutNanos);
        writeRequest();
    }

    private void writeRequest() {
        try {
            conn.write(outgoing);
        } catch (IOException e) {
            failed(conn.exchanges > 0 ? AttemptFailed.Kind.STALE : AttemptFailed.Kind.NO_RESPONSE, e);
            return;
        }
        if (outgoing[outgoing.length - 1].hasRemaining()) {
            conn.interest(SelectionKey.OP_WRITE);
            return;
        }
        outgoing = null;
        state = State.AWAITING_HEAD;
        conn.interest(SelectionKey.OP_READ);
    }

    // ---- readiness, timeouts, the loop's end (loop thread) ----

    /**
     * A bug surfaced while the loop ran this exchange (an unexpected exception): the exchange
     * lets go of its connection and permit and the client's answer is cut, so nothing leaks;
     * the loop logs the exception (LM0107).
     */
    void crashed() {
        if (state == State.DONE) {
            return;
        }
        if (conn != null) {
            release(false);
        }
        state = State.DONE;
        response.abort();
    }

    /** {@return queues {@code task} on the loop, this exchange cleaned up if it throws; false if the loop ended} */
    private boolean onLoop(Runnable task) {
        return loop.execute(() -> {
            try {
                task.run();
            } catch (RuntimeException e) {
                crashed();
                throw e;
            }
        });
    }

    void ready(LoopConnection c, int ops) {
        switch (state) {
            case CONNECTING -> {
                try {
                    c.finishConnect();
                } catch (IOException e) {
                    connectLost(e);
                    return;
                }
                if (c.connected) {
                    send(System.nanoTime());
                }
            }
            case SENDING -> writeRequest();
            case AWAITING_HEAD, READING_BODY, STREAMING -> readResponse();
            default -> c.interest(0); // PAUSED, DONE: nothing is read until there is room
        }
    }

    /** A pending connect failed: the member is in error state and the next one is tried. */
    private void connectLost(Exception e) {
        Member m = member;
        int i = memberIndex;
        release(false);
        if (!connectFailed(m, i, e)) {
            attempt(-1);
        }
    }

    void timedOut(LoopConnection c) {
        if (c != conn) {
            return;
        }
        switch (state) {
            case CONNECTING -> connectLost(new SocketTimeoutException("connect timed out"));
            case SENDING, AWAITING_HEAD, READING_BODY, STREAMING -> failed(AttemptFailed.Kind.TIMEOUT,
                    new SocketTimeoutException("no progress within " + timeoutNanos / 1_000_000 + " ms"));
            default -> { }
        }
    }

    /** The loop ends (the server stops) with the exchange in flight: the client's answer is cut. */
    void loopEnded(LoopConnection c) {
        if (c == conn && state != State.DONE) {
            release(false);
            response.abort();
        }
    }

    // ---- the response ----

    private void readResponse() {
        LoopConnection c = conn;
        try {
            for (;;) {
                int n = c.read();
                if (n < 0) {
                    endOfStream();
                    return;
                }
                if (n > 0 && state != State.PAUSED) {
                    c.armDeadline(System.nanoTime(), timeoutNanos);
                }
                if (!consume() || n == 0 || state == State.DONE || state == State.PAUSED) {
                    return;
                }
            }
        } catch (BackendProtocolException e) {
            failed(AttemptFailed.Kind.PROTOCOL, e);
        } catch (IOException e) {
            failed(kindOfLoss(), e);
        }
    }

    /**
     * {@return how a lost connection failed the attempt} A reused connection that had not
     * answered a byte was closed by the backend before our request (stale: not the member's
     * fault); otherwise no response, or a response cut off once it streamed.
     */
    private AttemptFailed.Kind kindOfLoss() {
        if (state == State.STREAMING || state == State.PAUSED) {
            return AttemptFailed.Kind.ABORTED;
        }
        return state == State.AWAITING_HEAD && !heardAnything && conn.exchanges > 0 ? AttemptFailed.Kind.STALE
                : AttemptFailed.Kind.NO_RESPONSE;
    }

    private void endOfStream() {
        if (state == State.STREAMING && framing == ResponseHead.Framing.CLOSE) {
            response.complete();
            finish(false);
            return;
        }
        failed(kindOfLoss(),
                new EOFException(state == State.AWAITING_HEAD ? "backend closed the connection before a whole response"
                        : "backend closed the connection inside the response body"));
    }

    /**
     * Relays an interim response (102, 103) to the client as {@link ProxyExchange} does; a
     * {@code 100} is dropped (this path takes no request that expects one).
     */
    private void relayInterim(ResponseHead h) {
        Headers fields = new Headers();
        ProxyExchange.copyEndToEnd(h.headers(), fields);
        try {
            response.sendInterim(h.status(), fields);
        } catch (IOException e) {
            // the client went away: the final answer, when it comes, is dropped the same way
        }
    }

    /**
     * Acts on the bytes read so far.
     *
     * @return whether to read on
     */
    private boolean consume() throws IOException {
        LoopConnection c = conn;
        if (c.lim > c.pos) {
            heardAnything = true;
        }
        while (state == State.AWAITING_HEAD) {
            int end = BackendConnection.headEnd(c.in, c.pos, c.lim);
            if (end < 0) {
                return true;
            }
            ResponseHead h = ResponseHead.parse(c.in, c.pos, end, c.recentFields);
            c.pos = end;
            if (h.status() == 101) {
                throw new BackendProtocolException("101 Switching Protocols without an Upgrade request");
            }
            if (h.status() >= 200) {
                begin(h);
            } else if (h.status() != 100) {
                relayInterim(h);
            }
        }
        switch (state) {
            case READING_BODY -> {
                int n = Math.min(c.lim - c.pos, whole.length - wholeLength);
                System.arraycopy(c.in, c.pos, whole, wholeLength, n);
                wholeLength += n;
                c.pos += n;
                if (wholeLength == whole.length) {
                    boolean clean = c.pos == c.lim;
                    c.consumed();
                    try {
                        response.send(whole);
                    } catch (IOException | RuntimeException e) {
                        // the client went away: the backend's answer was read whole all the same
                    }
                    finish(clean);
                    return false;
                }
                c.consumed();
                return true;
            }
            case STREAMING -> {
                return relay();
            }
            default -> {
                return state != State.DONE;
            }
        }
    }

    /** A final response head: the client's response takes its status and end-to-end fields. */
    private void begin(ResponseHead h) throws IOException {
        long length = h.contentLength();
        framing = h.framing(false, length);
        keepAlive = h.keepAlive();
        Headers to = new Headers(h.headers().size());
        proxy.responseFields(h, to, clientHost, secure);
        try {
            response.status(h.status());
            for (int i = 0; i < to.size(); i++) {
                response.addHeader(to.name(i), to.value(i));
            }
            if (framing == ResponseHead.Framing.LENGTH && length > ProxyExchange.SMALL_BODY) {
                response.header("Content-Length", Long.toString(length)); // announced, not chunked
            }
        } catch (IllegalArgumentException e) {
            throw new BackendProtocolException("a response field cannot be passed on: " + e.getMessage());
        } catch (IllegalStateException e) {
            // The client went away while the backend answered: the answer goes with the connection.
            release(false);
            return;
        }
        switch (framing) {
            case NONE -> {
                boolean clean = conn.pos == conn.lim;
                try {
                    response.send(EMPTY);
                } catch (IOException e) {
                    // the client went away: the backend's answer was read whole all the same
                }
                finish(clean);
            }
            case LENGTH -> {
                if (length <= ProxyExchange.SMALL_BODY) {
                    whole = new byte[(int) length];
                    state = State.READING_BODY;
                } else {
                    remaining = length;
                    state = State.STREAMING;
                }
            }
            case CHUNKED -> {
                chunks = new ChunkedDecoder();
                pieces = new HeadBytes(conn.in.length);
                state = State.STREAMING;
            }
            case CLOSE -> state = State.STREAMING;
        }
    }

    /**
     * Passes on the body bytes read, as one piece; {@return whether to read on}. The piece the
     * client's queue does not take pauses the relay until it has room.
     */
    private boolean relay() throws IOException {
        LoopConnection c = conn;
        int from = c.pos;
        int to = c.lim;
        byte[] piece;
        boolean end;
        switch (framing) {
            case LENGTH -> {
                int n = (int) Math.min(remaining, to - from);
                piece = Arrays.copyOfRange(c.in, from, from + n);
                remaining -= n;
                c.pos += n;
                end = remaining == 0;
            }
            case CHUNKED -> {
                pieces.clear();
                c.pos += chunks.decode(c.in, from, to, pieces::bytes);
                piece = Arrays.copyOf(pieces.array(), pieces.length());
                end = chunks.isDone();
            }
            default -> {
                piece = Arrays.copyOfRange(c.in, from, to);
                c.pos = to;
                end = false;
            }
        }
        boolean clean = c.pos == c.lim;
        c.consumed();
        if (piece.length > 0 && !offer(piece)) {
            if (end) {
                endAfterPause = true;
                cleanAfterPause = clean;
            }
            return false;
        }
        if (end && state != State.DONE) {
            response.complete();
            finish(clean);
            return false;
        }
        return state != State.DONE;
    }

    /** {@return whether the client's queue took {@code piece}; if not the relay pauses} */
    private boolean offer(byte[] piece) {
        try {
            if (response.write(piece)) {
                return true;
            }
        } catch (IOException e) {
            LOG.log(Level.DEBUG, "LM2319 response to {0} {1} abandoned: the client went away ({2})", method, target,
                    e.toString());
            finish(false);
            return false;
        }
        pending = piece;
        state = State.PAUSED;
        conn.interest(0);
        conn.disarmDeadline(); // a slow client is not the backend's fault; the client's own timeout applies
        response.whenWritable().whenComplete((v, e) -> onLoop(this::resume));
        return false;
    }

    /** The client's queue has room (or the exchange ended): the pending piece goes, and the backend is read again. */
    private void resume() {
        if (state != State.PAUSED) {
            return;
        }
        if (response.isDone()) {
            finish(false);
            return;
        }
        byte[] p = pending;
        pending = null;
        state = State.STREAMING;
        if (!offer(p)) {
            return;
        }
        if (endAfterPause) {
            response.complete();
            finish(cleanAfterPause);
            return;
        }
        conn.interest(SelectionKey.OP_READ);
        conn.armDeadline(System.nanoTime(), timeoutNanos);
        readResponse();
    }

    // ---- ends ----

    /** The exchange succeeded: the member is cleared of error, the connection kept if it may be. */
    private void finish(boolean atBoundary) {
        if (member.errorUntil != 0) {
            member.errorUntil = 0;
        }
        release(atBoundary && keepAlive && framing != ResponseHead.Framing.CLOSE);
    }

    /** Gives the connection back (kept, or closed), with the permit and the busy count. */
    private void release(boolean keep) {
        state = State.DONE;
        LoopConnection c = conn;
        conn = null;
        c.exchange = null;
        c.disarmDeadline();
        member.busy.decrementAndGet();
        MemberPool pool = c.home().member();
        if (keep && c.isOpen()) {
            c.exchanges++;
            c.interest(SelectionKey.OP_READ);
            c.consumed();
            c.home().offer(c, System.nanoTime());
        } else {
            c.close();
        }
        pool.releasePermit();
    }

    /**
     * The attempt failed: sent again when {@link ProxyHandler}'s rule allows (LM2309), else
     * answered with the failure's status before the response began, or cut off after (LM2304,
     * LM2305, LM2306).
     */
    private void failed(AttemptFailed.Kind kind, IOException cause) {
        boolean begun = state == State.STREAMING || state == State.PAUSED;
        boolean beforeHead = state == State.SENDING || state == State.AWAITING_HEAD;
        Member m = member;
        int i = memberIndex;
        release(false);
        lastFailure = kind;
        boolean again = repeatable && beforeHead
                && (kind == AttemptFailed.Kind.STALE || kind == AttemptFailed.Kind.NO_RESPONSE);
        if (again && staleRetries++ < MAX_STALE_RETRIES + balancer.members().size()) {
            LOG.log(Level.DEBUG, "LM2309 {0} {1} sent again after {2} failed before answering: {3}", method, target, m,
                    cause.toString());
            if (kind != AttemptFailed.Kind.STALE) {
                tried |= 1L << i;
            }
            attempt(-1);
            return;
        }
        switch (kind) {
            case TIMEOUT -> LOG.log(Level.WARNING, "LM2305 {0} for {1} {2}: {3} did not answer in time ({4})",
                    begun ? "cut off" : "504", method, target, m, cause.getMessage());
            case ABORTED -> LOG.log(Level.WARNING, "LM2306 response to {0} {1} cut off: {2} failed mid-response ({3})",
                    method, target, m, cause.getMessage());
            default -> LOG.log(Level.WARNING, "LM2304 502 for {0} {1}: {2} {3}", method, target, m, cause.toString());
        }
        if (begun) {
            response.abort();
        } else {
            answer(kind.status);
        }
    }

    /** Answers with an error status and its short text, as the server answers an {@code HttpException}. */
    private void answer(int status) {
        state = State.DONE;
        if (response instanceof SuspendedExchange x) {
            x.fail(status);
        } else {
            try {
                response.status(status).send("error " + status + "\n");
            } catch (IOException | RuntimeException e) {
                // the client went away
            }
        }
    }
}
