package org.loommpm.http2;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.loommpm.api.Handler;
import org.loommpm.api.Headers;
import org.loommpm.api.HttpException;
import org.loommpm.http.ExchangeRunner;
import org.loommpm.http.Tunnel;
import org.loommpm.http2.frame.ErrorCode;
import org.loommpm.spi.ChildServices;
import org.loommpm.spi.ExchangeObserver;
import org.loommpm.spi.SlotBoard;
import org.loommpm.spi.WorkerTask;

/**
 * Runs one stream's handler on its own worker slot (dispatched by the frame loop, counted by
 * the pool's admission control like any task) through the {@link ExchangeRunner} HTTP/1.1 uses
 * too. The task never touches the socket: its response goes to the session's outbound queue.
 * The exchange shows in this slot of the scoreboard while it runs and is counted there, and
 * reported to the {@link ExchangeObserver}, when the handler has returned. A stream reset before
 * the task got a slot is skipped. While its response waits for the client (the flow-control
 * window or the socket), or its handler waits for the request body's DATA, for more than
 * {@link Stream#LEND_AFTER_NANOS}, the task lends its slot
 * ({@link #lendSlot}) and runs on with whichever slot it reclaims, so the slot it holds is a
 * field, reported to the pool at the end.
 *
 * <p>Run {@link #inline} (by the frame loop itself, {@link InlineRun}) it holds the loop's slot,
 * which belongs to the connection's turn: it never lends it, and a wait for the loop first
 * hands the connection to a new owner ({@link InlineRun#beforePark}). Run by the poller it holds
 * no slot: the exchange is shown and counted on the poller's board, and it never waits.
 */
final class StreamTask implements WorkerTask {
    private static final System.Logger LOG = System.getLogger("org.loommpm.http2");

    private final Stream stream;
    private final Http2Connections protocol;
    /** Whether the frame loop runs it on its own worker (see {@link InlineRun}). */
    final boolean inline;
    /** The slot held now: the one it started on, or another after lending it for a wait. Task only. */
    private int slot;
    private ChildServices services;
    private SlotBoard board;
    private Http2Request req;
    private Http2Response res;
    /**
     * A suspended exchange ends in two parts, in either order: the handler returned (this task)
     * and the exchange ended (any thread, {@link Http2Suspension#afterEnd}); the last counts the
     * exchange and lets the stream go.
     */
    private final AtomicInteger suspendedParts = new AtomicInteger(2);
    /** The handler chosen before the task (the poller's run), or {@code null}: the application's. */
    private final Handler handler;
    /** Whether its connection had no task running when it was dispatched: it waits in the newcomer lane. */
    private final boolean newcomer;
    /** Whether the handler accepted an extended CONNECT and the stream went on as a tunnel. Task only. */
    private boolean tunnelled;

    StreamTask(Stream stream, Http2Connections protocol, boolean inline) {
        this(stream, protocol, inline, null, null, false);
    }

    /** @param newcomer whether its connection had no task running when it was dispatched ({@link #newcomer()}) */
    StreamTask(Stream stream, Http2Connections protocol, boolean inline, boolean newcomer) {
        this(stream, protocol, inline, null, null, newcomer);
    }

    /**
     * @param board where the exchange is shown and counted instead of the child's scoreboard
     *              (the poller's, for a handler the poller runs), or {@code null}
     * @param handler what to call, chosen beforehand ({@link Http2Connections#nonBlockingHandler}),
     *                or {@code null} for the application's handler
     */
    StreamTask(Stream stream, Http2Connections protocol, boolean inline, SlotBoard board, Handler handler) {
        this(stream, protocol, inline, board, handler, false);
    }

    private StreamTask(Stream stream, Http2Connections protocol, boolean inline, SlotBoard board, Handler handler,
                       boolean newcomer) {
        this.newcomer = newcomer;
        this.stream = stream;
        this.protocol = protocol;
        this.inline = inline;
        this.board = board;
        this.handler = handler;
    }

    @Override
    public boolean newcomer() {
        return newcomer;
    }

    /** The stream this task serves. */
    Stream stream() {
        return stream;
    }

    @Override
    public void run(int startSlot) {
        slot = startSlot;
        boolean suspended = false;
        try {
            if (!stream.isCancelled()) {
                suspended = serve();
            }
        } finally {
            stream.session().tasksRunning.decrementAndGet();
            if (suspended || tunnelled) {
                // A suspended exchange or an open WebSocket stream needs no task: the loop may now
                // let the connection wait DETACHED (see Session.handBack).
                stream.session().signalLoop();
            }
            if (suspended) {
                suspendedPartDone();
            } else {
                // The handler has returned: its stream may now stop counting against the limit.
                stream.letGo();
            }
        }
    }

    /** One part of a suspended exchange's end (see {@link #suspendedParts}). Any thread. */
    void suspendedPartDone() {
        if (suspendedParts.decrementAndGet() == 0) {
            protocol.runner().completedWithoutSlot(services, res, "HTTP/2.0", stream.request.method(),
                    req.bytesReceived(), stream.startNanos);
            stream.letGo();
        }
    }

    @Override
    public int slotAfterRun(int startSlot) {
        return slot;
    }

    /**
     * The task waits for the client (its flow-control window or its socket for the response, its
     * DATA for the request body): the slot is lent for the wait, so a stalled stream holds no
     * worker slot ({@link ChildServices#lend}), unless the child has as many waits without a slot
     * as it allows (then the task keeps it).
     *
     * @return whether the slot was lent (then {@link #reclaimSlot} follows the wait)
     */
    boolean lendSlot() {
        if (slot == WorkerTask.NO_SLOT || !services.lend(slot)) {
            return false; // run by the poller, which never waits; or the child's bound is reached
        }
        slot = WorkerTask.NO_SLOT;
        res.showIn(board, slot);
        return true;
    }

    /** The wait is over: runs on with a slot again, the exchange shown in it. */
    void reclaimSlot() {
        slot = services.reclaim();
        res.showIn(board, slot);
        if (req != null) {
            board.requestStarted(slot, req, stream.session().remoteAddress(), stream.startNanos);
        }
        board.set(slot, SlotBoard.WRITING);
    }

    /** @return whether the handler suspended the exchange (it goes on without this task) */
    private boolean serve() {
        Session session = stream.session();
        services = session.connection().services();
        if (board == null) {
            board = services.scoreboard();
        }
        Http2Response res = new Http2Response(stream, stream.request.method(), protocol.config().serverHeader(),
                protocol.timeoutNanos(), protocol.streamingLimits(), protocol.config().streaming().outboundQueueLimit());
        res.showIn(board, slot);
        this.res = res;
        stream.body.timeout(protocol.timeoutNanos());
        stream.body.stage(protocol.config().requestReadTimeout().body());
        if (stream.request.headers().hasToken("expect", "100-continue")) {
            expectContinue(res);
        }
        stream.task = this;
        ExchangeRunner runner = protocol.runner();
        try {
            try {
                req = new Http2Request(stream, session.remoteAddress(), session.localAddress(), session.isSecure(),
                        protocol.config().limitRequestBody());
            } catch (RuntimeException e) {
                runner.failed(res, e); // a malformed :path (400): answered, not counted (there is no request)
                return false;
            }
            board.requestStarted(slot, req, session.remoteAddress(), stream.startNanos);
            board.set(slot, SlotBoard.WRITING);
            if (stream.request.truncated()) {
                runner.failed(res, new HttpException(431, "request header fields exceed H2MaxHeaderListSize"));
            } else if (handler != null) {
                runner.run(req, res, handler);
            } else {
                runner.run(req, res);
            }
        } catch (IOException | RuntimeException e) {
            // The handler's own failures were answered; this is the answer failing (stream gone).
            LOG.log(Level.DEBUG, "LM0708 {0} stream {1}: could not answer: {2}", session, stream.id(), e.toString());
        } finally {
            if (req != null && res.suspension() == null) {
                runner.completed(board, slot, res, "HTTP/2.0", stream.request.method(), req.bytesReceived(),
                        stream.startNanos);
            }
        }
        if (res.tunnelOpener() != null && req != null) {
            openTunnel(session, res.tunnelOpener());
            return false;
        }
        if (res.suspension() instanceof Http2Suspension s && req != null) {
            // Published before the cancel check (a Dekker pair with Stream.cancel): a reset that
            // came first ends the exchange here, a later one through the stream.
            stream.suspension = s;
            if (stream.isCancelled()) {
                s.clientGone();
            }
            s.start();
            return true;
        }
        return false;
    }

    /**
     * The handler accepted an extended CONNECT (its 200 is queued): the stream becomes the
     * tunnel's, whose endpoint opens here, on this worker, and takes what the client sent
     * meanwhile. From then on the stream needs no task: its bytes are delivered by workers
     * dispatched as they arrive ({@link TunnelStream}).
     */
    private void openTunnel(Session session, Function<Tunnel, Tunnel.Endpoint> opener) {
        // Reset before it opened, the stream's end is already reported (Session.closeStream ends
        // the tunnel before it cancels the stream): the opener still gets the stream, finds its
        // end, and lets go of what it holds for the tunnel; nothing opens.
        boolean reset = stream.isCancelled();
        tunnelled = !reset;
        try {
            Tunnel.Endpoint endpoint = opener.apply(stream.tunnel);
            if (!reset) {
                stream.tunnel.open(endpoint, slot);
            }
        } catch (RuntimeException e) {
            LOG.log(Level.ERROR, "LM1710 " + session + " stream " + stream.id() + ": the tunnel failed to open", e);
            try {
                stream.enqueue(Out.rst(stream, ErrorCode.INTERNAL_ERROR.code()));
            } catch (IOException gone) {
                // Reset meanwhile.
            }
        }
    }

    /**
     * RFC 9110 §10.1.1: a client that sent {@code Expect: 100-continue} may hold its body back
     * until it sees {@code 100}: sent on the handler's first body read, unless the final
     * response has begun.
     */
    private void expectContinue(Http2Response res) {
        stream.body.beforeFirstRead(() -> {
            if (!res.isCommitted()) {
                try {
                    stream.enqueue(Out.headers(stream, 100, new Headers(), false));
                } catch (IOException e) {
                    // The stream is gone: the read that follows reports it.
                }
            }
        });
    }
}
