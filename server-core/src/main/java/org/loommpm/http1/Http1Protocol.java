package org.loommpm.http1;

import java.io.EOFException;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.List;
import javax.net.ssl.SSLException;
import org.loommpm.api.Handler;
import org.loommpm.api.HttpException;
import org.loommpm.config.RequestReadTimeout;
import org.loommpm.config.ServerConfig;
import org.loommpm.http.ExchangeRunner;
import org.loommpm.http.StreamingLimits;
import org.loommpm.http.ProtocolSwitch;
import org.loommpm.http.ProtocolUpgrade;
import org.loommpm.http.RequestHead;
import org.loommpm.spi.CloseReason;
import org.loommpm.spi.ConnectionBuffers;
import org.loommpm.spi.ConnectionProtocol;
import org.loommpm.spi.ExchangeObserver;
import org.loommpm.spi.PeerIOException;
import org.loommpm.spi.ProtocolConnection;
import org.loommpm.spi.SlotBoard;
import org.loommpm.tls.PlaintextRequestException;

/**
 * HTTP/1.1 on the engine: what a worker does with a readable connection.
 *
 * <p>Per dispatch: read what the socket has without blocking and scan for the end of the head.
 * An incomplete head goes back to the poller with its bytes kept in the context and the head's
 * absolute deadline (ASYNC_WAITIO): a slow client holds no worker. A complete head is parsed and
 * the handler runs on this worker; a body is read through decoders that stop exactly at the
 * body's end, so what follows in the buffer is the next pipelined request. After the response:
 * serve what is already buffered, else the grace read below, else hand the connection back for
 * KEEPALIVE with its context released. After 16 requests in one dispatch the connection is
 * re-dispatched as a new task so one pipelining client cannot hold a slot indefinitely.
 *
 * <p><b>Grace read.</b> When other workers hold slots, the worker yields its carrier once and
 * then tries one non-blocking read before handing the connection back: the other runnable
 * workers run in between, and a keep-alive client has usually sent its next request by then,
 * which then costs no poller round trip and no new virtual thread (measured at c50 on one core:
 * server CPU per request 13.5 µs without it, 7.5-9.7 µs with one yield; more yields did not
 * help). There is no read before the yield: a request/response client cannot have answered a
 * response written microseconds ago, so that read almost always finds nothing. And no grace at
 * all when this worker is the only one: the yield would return at once and the read find
 * nothing, a system call per request for nothing at moderate load. A yielded virtual thread
 * goes back on its carrier's local queue, which the scheduler drains before external
 * submissions (the poller's dispatches): hence the bound of 16 requests per dispatch, after
 * which the task ends and the poller takes over.
 *
 * <p>Every path ends with exactly one hand-back (see {@link ConnectionProtocol}), carrying the
 * {@link CloseReason} when it closes.
 *
 * <p><b>Accounting</b> (the {@link ExchangeRunner} HTTP/2 shares). Each exchange whose head was
 * parsed is shown in the worker's scoreboard slot while it runs; once its handler has returned
 * (response complete, or failed after its head was sent) it is counted there with its response
 * bytes (plain single-writer stores) and, when metrics are on, reported to the
 * {@link ExchangeObserver} ({@code null} when they are off: no further cost). An exchange cut
 * off by the client counts only as an aborted connection.
 *
 * <p><b>Suspended exchanges.</b> A handler that suspends its response ({@code Response.suspend()},
 * {@code eventStream()}) returns at once; the request body is discarded, earlier batched answers
 * are written, and the connection is handed back DETACHED ({@link ProtocolConnection#handBackDetached}):
 * no worker, no context (unless a pipelined request is already buffered), read interest on so a
 * client that leaves is seen. Any thread answers through {@link Http1Suspension}, which encodes
 * into buffers of its own and queues on the connection's outbound queue, written by the poller.
 * Bytes the client sends before the exchange ends (a pipelined request; or its next one, sent
 * once it read the answer, which the poller may write before the answering thread has ended the
 * exchange) are read and kept in the context, read interest off, where the connection is served.
 * The exchange's end signals the connection, once the poller has written the answer: on a
 * plaintext connection of an application with non-blocking routes the poller itself counts the
 * exchange ({@code serveInline}: no worker, no virtual thread), else a worker does
 * ({@code resume}); then the connection reads its next request or closes as the response said.
 * The connection's session is then an {@link Http1Suspension.Holder}.
 *
 * <p><b>Switching protocols.</b> HTTP/1.1 knows no other protocol: it asks its
 * {@link ProtocolSwitch} (the generation's protocol selector) whether a fresh connection belongs
 * to another one, on its first dispatch after the TLS handshake (ALPN) and each time its first
 * request's reads return bytes, before they are scanned (a preface such as HTTP/2's may come in
 * pieces; a TLS ClientHello on a cleartext port has no head end), and whether a request's
 * {@code Upgrade} switches the connection. From then on it belongs to that protocol; later
 * requests never ask. A handler may also switch the connection itself (a WebSocket route, after
 * the application's filters let the request through): its response is a 101 carrying a
 * {@link ProtocolUpgrade}, which takes the connection over once the 101 is written.
 *
 * <p><b>TLS.</b> The handshake runs inside the first reads ({@link ProtocolConnection#readNow}); while it
 * needs input, the connection goes back to its poller like an idle one. A failed handshake is
 * logged there at INFO and the connection lingers closed under {@link CloseReason#ERROR}; so does
 * a plaintext request on a TLS port, after a cleartext 400 written here (the transport reports it
 * with {@link PlaintextRequestException} and lets that answer through unencrypted). Before the
 * connection goes idle, decrypted input buffered in the transport is served first
 * ({@link ProtocolConnection#hasBufferedInput}).
 */
public final class Http1Protocol implements ConnectionProtocol {
    private static final System.Logger LOG = System.getLogger("org.loommpm.http1");
    private static final int MAX_REQUESTS_PER_DISPATCH = 16;
    /**
     * Requests one connection may have served inline in one turn of its poller: a pipelining
     * client must not keep the poller from its other connections. What is still buffered after
     * that continues on a worker. As many as a worker serves per dispatch, so that a burst a
     * worker would answer with one write is not split between the poller and a worker (one
     * more write, a virtual thread, and a context held while the worker runs).
     */
    static final int MAX_INLINE_REQUESTS = MAX_REQUESTS_PER_DISPATCH;
    /**
     * Unread request body, already arrived, we discard to keep a connection alive; more than
     * that, or a body still arriving, closes it.
     */
    private static final long MAX_DISCARD = 256 * 1024;

    private final ServerConfig config;
    /** The application's handler: asked before an inline exchange whether the route may block. */
    private final Handler app;
    /**
     * {@code app.invocationType()}, taken when the first connection asks to be served inline
     * (after a request of its own has run: a router is frozen by then). A benign race: every
     * thread computes the same value.
     */
    private org.loommpm.api.InvocationType appType;
    /** Calls the application's handler and counts each exchange. */
    private final ExchangeRunner runner;
    /** {@code RequestReadTimeout header=}: the head's deadline from its first byte, extended by its rate. */
    private final RequestReadTimeout.Stage headerStage;
    /** {@code Timeout}: the wait for the rest of a head when the header stage is off. */
    private final long timeoutNanos;
    private final int maxHeadBytes;
    /** Where other protocols may take a connection over (ALPN, a preface, {@code Upgrade}). */
    private final ProtocolSwitch protocols;
    /** SuspendTimeout and the rest, for suspended exchanges and event streams. */
    private final StreamingLimits limits;

    /**
     * @param config the settings (limits, timeouts, keep-alive)
     * @param app the application's handler (router, filters)
     * @param observer told about every completed exchange, or {@code null} (metrics off)
     * @param protocols the protocols a connection may switch to (the generation's selector)
     */
    public Http1Protocol(ServerConfig config, Handler app, ExchangeObserver observer,
                                  ProtocolSwitch protocols) {
        this.config = config;
        this.app = app;
        this.runner = new ExchangeRunner(app, observer);
        this.protocols = protocols;
        this.headerStage = config.requestReadTimeout().header();
        this.timeoutNanos = config.timeout().toNanos();
        this.limits = StreamingLimits.of(config);
        this.maxHeadBytes = config.limitRequestLine() + 2
                + config.limitRequestFields() * (config.limitRequestFieldSize() + 2) + 1024;
    }

    /**
     * Built per timeout rather than once at start: a 408 is a 4xx, which must carry {@code Date}
     * (RFC 9110 §6.6.1), and a date fixed at start would be wrong. Head timeouts are rare and
     * the date text is cached, so this costs the poller one small allocation each.
     */
    @Override
    public byte[] headTimeoutResponse() {
        return ErrorResponses.bytes(408, config.serverHeader(), true, true);
    }

    /** What the protocol selector offers ({@code h2} when it can be served), {@code http/1.1} included. */
    @Override
    public List<String> applicationProtocols() {
        return protocols.applicationProtocols();
    }

    @Override
    public void serve(ProtocolConnection c, int slot) {
        ConnectionBuffers ctx = c.context();
        Http1State st = ctx.protocolState(Http1State.class);
        if (st == null) {
            st = new Http1State(config);
            ctx.protocolState(st);
        }
        SlotBoard board = c.services().scoreboard();
        st.slot = slot;
        try {
            Http1Suspension.Holder held = c.session(Http1Suspension.Holder.class);
            Http1Suspension suspended = held == null ? null : held.current;
            if (suspended != null && !resume(c, ctx, held, suspended, board, slot)) {
                return;
            }
            for (int round = 1; ; round++) {
                board.set(slot, SlotBoard.READING);
                // A fresh connection may belong to another protocol by ALPN, known already when its
                // handshake ended in an earlier dispatch (its first bytes are asked about in readHead).
                if (round == 1 && c.requests() == 0 && switched(c, slot)) {
                    return;
                }
                int headEnd = readHead(c, ctx, st, slot);
                if (headEnd < 0) {
                    return; // handed back (or switched to another protocol) inside readHead
                }
                board.set(slot, SlotBoard.WRITING);
                boolean more = exchange(c, ctx, st, headEnd, board, slot);
                slot = st.slot; // a body read that waited may have moved the task to another slot
                if (!more) {
                    return; // handed back inside exchange
                }
                board.set(slot, SlotBoard.KEEPALIVE);
                ByteBuffer in = ctx.in();
                in.compact().flip();
                st.scanner.reset();
                if (!in.hasRemaining()) {
                    st.flushBatch(c); // answers to a pipelined burst: one write, before any wait
                    if (round >= MAX_REQUESTS_PER_DISPATCH && !c.hasBufferedInput()) {
                        // End this task: queued dispatches and wake-ups get the carrier (below).
                        c.handBackKeepAlive();
                        return;
                    }
                    int n = 0;
                    if (c.services().busyWorkers() > 1) {
                        Thread.yield();
                        n = fill(c, ctx.in());
                    }
                    if (n < 0) {
                        c.handBackClose(CloseReason.NORMAL); // the client closed after its response
                        return;
                    }
                    if (n == 0) {
                        c.handBackKeepAlive();
                        return;
                    }
                }
                // The next head's clock (deadline, request time) starts now, not at the
                // previous head's arrival, whether it was read just now or already buffered.
                st.headStartNanos = System.nanoTime();
                if (round >= MAX_REQUESTS_PER_DISPATCH) {
                    // Pipelined bytes are buffered: no readiness will come for them, so the
                    // connection continues in a new task; ownership passes to it.
                    st.flushBatch(c);
                    c.redispatch();
                    return;
                }
            }
        } catch (PlaintextRequestException e) {
            // The transport counted and logged it; its writes now go out in cleartext.
            answerPlaintext(c);
            board.set(st.slot, SlotBoard.CLOSING);
            c.handBackLinger(CloseReason.ERROR);
        } catch (SSLException e) {
            // The transport logged it at INFO; linger so its alert is read.
            LOG.log(Level.DEBUG, "LM0404 connection {0} ended: {1}", c.id(), e.toString());
            board.set(st.slot, SlotBoard.CLOSING);
            c.handBackLinger(CloseReason.ERROR);
        } catch (SocketTimeoutException e) {
            st.discardBatch();
            LOG.log(Level.DEBUG, "LM0404 connection {0} ended: {1}", c.id(), e.toString());
            board.set(st.slot, SlotBoard.CLOSING);
            c.handBackClose(CloseReason.TIMEOUT);
        } catch (PeerIOException | EOFException e) {
            st.discardBatch();
            LOG.log(Level.DEBUG, "LM0404 connection {0} ended: {1}", c.id(), e.toString());
            board.set(st.slot, SlotBoard.CLOSING);
            c.handBackClose(CloseReason.ABORT);
        } catch (IOException | RuntimeException e) {
            st.discardBatch();
            LOG.log(Level.ERROR, "LM0405 connection " + c.id() + " failed", e);
            board.set(st.slot, SlotBoard.CLOSING);
            c.handBackClose(CloseReason.ERROR);
        }
    }

    /** Until a request has run the handler's type is not asked (a router is frozen by then). */
    @Override
    public boolean servesInline() {
        return appType != org.loommpm.api.InvocationType.BLOCKING;
    }

    /**
     * The inline path (see {@link ConnectionProtocol#serveInline}): on the poller, serve whole
     * requests whose route is non-blocking, at most {@link #MAX_INLINE_REQUESTS} per turn.
     * A connection's first request too (most of a {@code Connection: close} client's work):
     * its bytes go to the protocol selector first, and a preface (HTTP/2's, a TLS record on this
     * cleartext port) is declined, for a worker to switch the connection. A suspended exchange
     * that has ended (the connection's signal) is counted here, and the connection goes on; one
     * still waiting whose client sent bytes or closed is handled here too, as {@link #resume}
     * does. Declines (the connection continues on a worker, which parses the buffered head again)
     * for a TLS connection's first request (the handshake and ALPN are the worker's), a head
     * that is not whole or does not parse, a blocking route, and a request
     * whose body is chunked, announced with {@code Expect}, or not yet read whole, or that asks
     * for an {@code Upgrade}. Nothing here waits: the connection queues what the socket does
     * not take.
     */
    @Override
    public boolean serveInline(ProtocolConnection c, SlotBoard board) {
        boolean fresh = c.requests() == 0;
        if (fresh && c.isSecure()) {
            return false;
        }
        org.loommpm.api.InvocationType type = appType;
        if (type == null) {
            appType = type = app.invocationType();
        }
        if (type == org.loommpm.api.InvocationType.BLOCKING) {
            return false;
        }
        Http1Suspension.Holder held = c.session(Http1Suspension.Holder.class);
        Http1Suspension suspended = held == null ? null : held.current;
        if (suspended == null) {
            // A signal with no suspended exchange is the late one of an exchange already counted
            // (its thread ends the exchange, then signals; a look in between counted it): nothing
            // to resume. Left pending, it would send every later request on this connection to a worker.
            c.takeSignal();
        }
        ConnectionBuffers ctx = c.context();
        Http1State st = ctx.protocolState(Http1State.class);
        if (st == null) {
            st = new Http1State(config);
            ctx.protocolState(st);
        }
        try {
            if (suspended != null) {
                // Taken before the look at isDone, as resume does: a signal that comes after it
                // stays pending and brings the connection back.
                c.takeSignal();
                if (!suspended.isDone()) {
                    // The client sent bytes (or closed) before the exchange ended: usually its next
                    // request, sent once it read the answer, since the poller writes the last bytes
                    // as soon as they are queued, before the answering thread ends the exchange
                    // and signals. They are read here, as a worker would, and wait in the context
                    // for the signal, which brings the connection back here (no worker) to count
                    // the exchange and serve them.
                    waitForEnd(c, ctx.in(), held, suspended);
                    return true;
                }
                // Its answer went out from the outbound queue (the poller wrote it before this
                // dispatch): the exchange is counted here, with no worker, and the connection
                // goes on. Nothing new buffered: the poller's read interest reports the next
                // request, so no read that would find nothing.
                if (!ended(c, held, suspended, board, 0)) {
                    return true;
                }
                if (!ctx.in().hasRemaining()) {
                    c.handBackKeepAlive();
                    return true;
                }
                st.headStartNanos = System.nanoTime();
            }
            for (int round = 1; ; round++) {
                ByteBuffer in = ctx.in();
                if (!in.hasRemaining()) {
                    st.scanner.reset();
                    int n = fill(c, in);
                    if (n < 0) {
                        st.flushBatch(c);
                        c.handBackClose(CloseReason.NORMAL);
                        return true;
                    }
                    if (n == 0) {
                        st.flushBatch(c);
                        c.handBackKeepAlive();
                        return true;
                    }
                    st.headStartNanos = System.nanoTime();
                }
                if (fresh && round == 1 && protocols.select(c, in) != null) {
                    return false; // a preface: the worker switches the connection (serve, round 1)
                }
                RequestHead head = round > MAX_INLINE_REQUESTS ? null : inlineHead(c, in, st, type);
                if (head == null) {
                    // The worker's readHead goes on from the scanner's state: a head found whole
                    // here is not scanned again (inlineHead resets the scanner when it refused).
                    st.flushBatch(c);
                    return false;
                }
                if (!exchange(c, ctx, st, head, st.scanner.scan(in.array(), 0, in.limit()), board, 0,
                        st.inlineHandler)) {
                    return true; // handed back inside exchange
                }
                in = ctx.in();
                in.compact().flip();
                st.scanner.reset();
                if (!in.hasRemaining()) {
                    // No grace read here: the poller's next select reports the next request.
                    st.flushBatch(c);
                    c.handBackKeepAlive();
                    return true;
                }
                st.headStartNanos = System.nanoTime();
            }
        } catch (PeerIOException | EOFException e) {
            st.discardBatch();
            LOG.log(Level.DEBUG, "LM0404 connection {0} ended: {1}", c.id(), e.toString());
            c.handBackClose(CloseReason.ABORT);
            return true;
        } catch (IOException | RuntimeException e) {
            st.discardBatch();
            LOG.log(Level.ERROR, "LM0405 connection " + c.id() + " failed", e);
            c.handBackClose(CloseReason.ERROR);
            return true;
        }
    }

    /**
     * The buffered request's head if it may be served inline: whole, valid, for a non-blocking
     * route, with no body or a {@code Content-Length} body already buffered whole, no
     * {@code Expect} and no {@code Upgrade}; else {@code null}. The handler that serves it (the
     * route, found once) is left in {@link Http1State#inlineHandler}.
     */
    private RequestHead inlineHead(ProtocolConnection c, ByteBuffer in, Http1State st,
                                   org.loommpm.api.InvocationType type) {
        int headEnd;
        RequestHead head;
        try {
            // The scanner throws too (414, 431, HTTP/0.9's 400), not only the parser.
            headEnd = st.scanner.scan(in.array(), 0, in.limit());
            if (headEnd < 0) {
                return null;
            }
            head = st.parser.parse(in.array(), st.scanner.requestLineStart(), headEnd, st.scanner.fields());
        } catch (HttpException e) {
            st.scanner.reset(); // the worker scans this head from its first byte and answers it
            return null;
        }
        if (head.chunked() || head.expectContinue() || head.contentLength() > in.limit() - headEnd
                || head.headers().first("Upgrade") != null) {
            return null;
        }
        Handler handler = app;
        if (type != org.loommpm.api.InvocationType.NON_BLOCKING) {
            handler = app.nonBlockingHandler(head.method(), head.path());
            if (handler == null) {
                return null;
            }
        }
        st.inlineHandler = handler;
        return head;
    }

    /**
     * Reads until the buffer holds a whole head starting at index 0.
     *
     * @return the index after the head, or -1 when the connection was handed back (or switched
     *         to another protocol)
     */
    private int readHead(ProtocolConnection c, ConnectionBuffers ctx, Http1State st, int slot) throws IOException {
        ByteBuffer in = ctx.in();
        if (in.limit() == 0) {
            st.scanner.reset();
        }
        int headEnd;
        try {
            while ((headEnd = st.scanner.scan(in.array(), 0, in.limit())) < 0) {
                if (in.limit() == in.capacity()) {
                    if (in.capacity() >= maxHeadBytes) {
                        throw new HttpException(431, "request head larger than the limits allow");
                    }
                    in = ctx.growIn(Math.min(maxHeadBytes, in.capacity() * 2));
                }
                boolean wasEmpty = in.limit() == 0;
                int n = fill(c, in);
                if (n <= 0) {
                    // The rest of this head is not here: answers batched so far go out first (a
                    // client that half-closed after its burst still gets them all).
                    st.flushBatch(c);
                }
                if (n < 0) {
                    // EOF (or a reset) between requests is the client's orderly end; inside a head, a cut.
                    c.handBackClose(in.limit() == 0 ? CloseReason.NORMAL : CloseReason.ABORT);
                    return -1;
                }
                if (n == 0) {
                    if (in.limit() == 0) {
                        c.handBackKeepAlive();
                    } else {
                        c.handBackReadWait(headDeadline(st, in.limit()));
                    }
                    return -1;
                }
                if (wasEmpty) {
                    st.headStartNanos = System.nanoTime();
                }
                // A fresh connection's bytes go to the selector before they are scanned, each time
                // more arrive (a preface may come in pieces; a TLS ClientHello has no head end and
                // may read as a bad request line): the first request only, never later ones.
                if (c.requests() == 0 && switched(c, slot)) {
                    return -1;
                }
            }
        } catch (HttpException e) {
            rejectHead(c, st, e);
            return -1;
        }
        return headEnd;
    }

    /**
     * When the rest of a head must have arrived: the header stage's deadline from the head's first
     * byte, extended by one second per MinRate bytes received so far ({@code received}: the
     * buffer holds this head from index 0), up to its maximum (mod_reqtimeout). With the stage
     * off, {@code Timeout} from now, as a plain read would have.
     */
    private long headDeadline(Http1State st, int received) {
        return headerStage.enabled() ? headerStage.deadline(st.headStartNanos, received)
                : System.nanoTime() + timeoutNanos;
    }

    /**
     * One request and its response.
     *
     * @return {@code true} if the connection stays open for another request
     */
    private boolean exchange(ProtocolConnection c, ConnectionBuffers ctx, Http1State st, int headEnd, SlotBoard board,
                             int slot) throws IOException {
        ByteBuffer in = ctx.in();
        RequestHead head;
        try {
            head = st.parser.parse(in.array(), st.scanner.requestLineStart(), headEnd, st.scanner.fields());
        } catch (HttpException e) {
            rejectHead(c, st, e);
            return false;
        }
        return exchange(c, ctx, st, head, headEnd, board, slot, app);
    }

    /** {@link #exchange} of a head already parsed, answered by {@code handler} (the application's, or its chosen route). */
    private boolean exchange(ProtocolConnection c, ConnectionBuffers ctx, Http1State st, RequestHead head, int headEnd,
                             SlotBoard board, int slot, Handler handler) throws IOException {
        ByteBuffer in = ctx.in();
        in.position(headEnd);
        if (protocols.upgrade(c, slot, head)) {
            return false; // ownership passed to the protocol the request upgraded to
        }
        int served = c.countRequest();
        boolean keepAlive = config.keepAlive() && head.keepAlive() && !c.services().isDraining()
                && (config.maxKeepAliveRequests() == 0 || served < config.maxKeepAliveRequests());
        board.requestStarted(slot, head, c.remoteAddress(), st.headStartNanos);
        Http1Response res = new Http1Response(c, st, ctx.out(), in, head, config.serverHeader(), keepAlive, limits);
        res.showIn(board, slot);
        // A request without a body never reads the connection: no stream for it, and its slot stays.
        ExchangeSlot where = null;
        ConnectionInputStream body = null;
        if (head.chunked() || head.contentLength() > 0) {
            where = new ExchangeSlot(board, slot, head, c.remoteAddress(), st.headStartNanos, res, st);
            body = new ConnectionInputStream(c, in, config.requestReadTimeout().body(), where);
        }
        Http1Request req = new Http1Request(head, headEnd, c, body, res,
                config.limitRequestBody(), config.limitRequestFields(), config.limitRequestFieldSize());
        // An exchange counts once its handler has run (an exception here means the client is gone
        // mid-exchange: counted only as an aborted connection).
        boolean completed;
        try {
            completed = runner.run(req, res, handler);
        } catch (IOException | RuntimeException e) {
            ProtocolUpgrade unused = res.switchingTo();
            if (unused != null) {
                unused.abandon(); // the 101 never went out
            }
            throw e;
        }
        if (where != null) {
            slot = where.slot();
        }
        if (res.suspension() instanceof Http1Suspension suspended) {
            detach(c, ctx, st, head, req, suspended, board, slot);
            return false;
        }
        boolean reusable = false;
        try {
            reusable = completed && !res.closeAfter() && req.discardBody(MAX_DISCARD);
        } catch (HttpException e) {
            res.unreadBodyFailed(e); // a client's error, not the server's: answered, and closed below
        } finally {
            // Recorded before any hand-back: the context (and st) goes back to the recycle list
            // with it, and the connection is not ours to read afterwards.
            runner.completed(board, slot, res, head.version().text(), head.method(), req.bytesReceived(),
                    st.headStartNanos);
        }
        ProtocolUpgrade next = res.switchingTo();
        if (next != null && !completed) {
            next.abandon();
            next = null;
        }
        if (next != null) {
            // The 101 is out (or batched behind earlier answers): the connection is the new
            // protocol's from here, with whatever the client sent after its request still buffered.
            st.flushBatch(c);
            next.takeOver(c, slot, config);
            return false;
        }
        if (!completed) {
            // The handler failed after the head went out: the body is cut off, which over TLS
            // only the missing close_notify can show for a close-delimited (HTTP/1.0) body.
            st.discardBatch();
            c.cutOff();
            c.handBackClose(res.closeReason());
            return false;
        }
        if (!reusable) {
            st.flushBatch(c);
            c.handBackLinger(res.closeReason());
            return false;
        }
        return true;
    }

    /**
     * The handler suspended its exchange: the request's unread body is discarded (it cannot be
     * read later from another thread), answers batched for earlier pipelined requests go out,
     * and the connection waits DETACHED, holding no worker, while any thread answers through the
     * outbound queue. Read interest stays on unless a pipelined request is already buffered, so a
     * client that goes away is seen at once. The connection's end, however it comes, ends the
     * exchange ({@link Http1Suspension#clientGone}).
     */
    private void detach(ProtocolConnection c, ConnectionBuffers ctx, Http1State st, RequestHead head, Http1Request req,
                        Http1Suspension s, SlotBoard board, int slot) throws IOException {
        Http1Suspension.Holder held = c.session(Http1Suspension.Holder.class);
        if (held == null) {
            held = new Http1Suspension.Holder(c);
            c.session(held);
        }
        held.current = s;
        if (c.outbound().isClosed()) {
            s.clientGone(); // ended before the holder was looked at: nothing will tell it again
        }
        try {
            s.reusable = req.discardBody(MAX_DISCARD);
        } catch (HttpException e) {
            // The unread body is malformed: the answer stays the handler's, which another thread
            // may be giving already, and the connection closes after it (where the body ends is unknown).
            LOG.log(Level.DEBUG, "LM0406 {0} {1}: its unread body answered {2} ({3}); closing after the answer",
                    head.method(), head.rawTarget(), e.status(), e.getMessage());
            s.reusable = false;
        }
        s.version = head.version().text();
        s.method = head.method();
        s.bytesReceived = req.bytesReceived();
        s.startNanos = st.headStartNanos;
        st.flushBatch(c);
        ByteBuffer in = ctx.in();
        in.compact().flip();
        st.scanner.reset();
        board.set(slot, SlotBoard.KEEPALIVE);
        s.res.releaseContext();
        s.start();
        c.handBackDetached(0, !in.hasRemaining());
    }

    /**
     * A DETACHED connection with a suspended exchange came back to a worker: either the exchange
     * ended (its signal; where the poller does not count it itself, see {@link #serveInline}),
     * and is counted here before the connection serves its next request or closes as the
     * response said; or the client sent bytes first (a pipelined request is kept for later, read
     * interest off) or closed (the exchange ends: nobody to answer).
     *
     * @return whether the connection goes on to its next request on this worker
     */
    private boolean resume(ProtocolConnection c, ConnectionBuffers ctx, Http1Suspension.Holder held, Http1Suspension s,
                           SlotBoard board, int slot) throws IOException {
        c.takeSignal();
        if (!s.isDone()) {
            waitForEnd(c, ctx.in(), held, s);
            return false;
        }
        return ended(c, held, s, board, slot);
    }

    /**
     * The client sent bytes or closed while its suspended exchange still waits: what it sent
     * (a request pipelined, or sent once the answer's bytes were out) is kept in the context,
     * read interest off, until the exchange's signal; a close ends the exchange (nobody to
     * answer). On a worker ({@link #resume}) or the poller ({@link #serveInline}); a hand-back.
     */
    private static void waitForEnd(ProtocolConnection c, ByteBuffer in, Http1Suspension.Holder held,
                                   Http1Suspension s) throws IOException {
        int n = fill(c, in);
        if (n < 0) {
            held.current = null;
            s.clientGone();
            c.handBackClose(CloseReason.ABORT);
            return;
        }
        c.handBackDetached(0, !in.hasRemaining());
    }

    /**
     * A suspended exchange has ended (its signal taken): counted, then the connection goes on to
     * its next request, or closes as the response said (at once if it was never answered: the
     * client is gone). On a worker ({@link #resume}) or the poller ({@link #serveInline}).
     *
     * @return whether the connection goes on to its next request
     */
    private boolean ended(ProtocolConnection c, Http1Suspension.Holder held, Http1Suspension s, SlotBoard board,
                          int slot) {
        held.current = null;
        if (!s.answered()) {
            c.handBackClose(CloseReason.ABORT);
            return false;
        }
        runner.completed(board, slot, s.res, s.version, s.method, s.bytesReceived, s.startNanos);
        if (!s.reusable || s.res.closeAfter()) {
            c.handBackLinger(s.res.closeReason());
            return false;
        }
        return true;
    }

    /** A head we will not serve: a precise status, then a lingering close (framing is in doubt). */
    private void rejectHead(ProtocolConnection c, Http1State st, HttpException e) throws IOException {
        LOG.log(Level.DEBUG, "LM0403 bad request from {0}: {1} {2}", c.remoteAddress(), e.status(), e.getMessage());
        st.flushBatch(c);
        ByteBuffer in = c.context().in();
        boolean content = !isHeadRequest(in.array(), in.limit());
        c.write(ByteBuffer.wrap(ErrorResponses.bytes(e.status(), config.serverHeader(), true, content)));
        c.handBackLinger(CloseReason.ERROR);
    }

    /**
     * Whether the head at the start of {@code buf[0, end)} (after any empty lines) is a HEAD
     * request's, however malformed the rest: a client that sent HEAD reads no content after the
     * response head, and content it did not expect would read as the start of another response.
     */
    private static boolean isHeadRequest(byte[] buf, int end) {
        int i = 0;
        while (i < end && (buf[i] == Http1Syntax.CR || buf[i] == Http1Syntax.LF)) {
            i++;
        }
        return end - i >= 5 && Http1Syntax.regionEquals(buf, i, "HEAD ");
    }

    /** Best effort: the client that spoke plain HTTP to a TLS port is told so (like httpd). */
    private void answerPlaintext(ProtocolConnection c) {
        try {
            c.write(ByteBuffer.wrap(ErrorResponses.plaintextOnTls(config.serverHeader())));
        } catch (IOException e) {
            LOG.log(Level.DEBUG, "LM0605 {0}: the 400 could not be sent: {1}", c.remoteAddress(), e.toString());
        }
    }

    /**
     * Hands a fresh connection to the protocol the selector picks for it, if any: ownership
     * passes to that protocol with whatever the client sent so far still in the read buffer.
     *
     * @return whether the connection now belongs to another protocol
     */
    private boolean switched(ProtocolConnection c, int slot) {
        ConnectionProtocol next = protocols.select(c, c.context().in());
        if (next == null) {
            return false;
        }
        c.switchProtocol(next);
        next.serve(c, slot);
        return true;
    }

    /** One non-blocking read appended after the buffer's data (read mode kept). */
    private static int fill(ProtocolConnection c, ByteBuffer in) throws IOException {
        int start = in.position();
        int end = in.limit();
        in.position(end).limit(in.capacity());
        int n;
        try {
            n = c.readNow(in);
        } catch (SSLException e) {
            throw e; // a failed handshake: the caller ends the connection under ERROR
        } catch (IOException e) {
            n = -1;
        }
        in.limit(in.position()).position(start);
        return n;
    }
}
