package org.loommpm.http2;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import org.loommpm.api.Handler;
import org.loommpm.api.Headers;
import org.loommpm.api.HttpException;
import org.loommpm.engine.ExchangeObserver;
import org.loommpm.engine.Scoreboard;
import org.loommpm.spi.ChildServices;
import org.loommpm.spi.WorkerTask;
import org.loommpm.http1.StatusReasons;
import org.loommpm.http2.frame.ErrorCode;

/**
 * Runs one stream's handler on its own worker slot (dispatched by the frame loop, counted by
 * the pool's admission control like any task). The task never touches the socket: its
 * response goes to the session's outbound queue. The exchange shows in this slot of the
 * scoreboard while it runs and is counted there, and reported to the {@link ExchangeObserver},
 * when the handler has returned. A stream reset before the task got a slot is skipped. While its
 * response waits for the client (the flow-control window or the socket) for more than
 * {@link Stream#LEND_AFTER_NANOS}, the task lends its slot ({@link #lendSlot}) and runs on with
 * whichever slot it reclaims, so the slot it holds is a field, reported to the pool at the end.
 */
final class StreamTask implements WorkerTask {
    private static final System.Logger LOG = System.getLogger("org.loommpm.http2");

    private final Stream stream;
    private final Http2ConnectionHandler protocol;
    /** The slot held now: the one it started on, or another after lending it for a wait. Task only. */
    private int slot;
    private ChildServices services;
    private Scoreboard board;
    private Http2Request req;

    StreamTask(Stream stream, Http2ConnectionHandler protocol) {
        this.stream = stream;
        this.protocol = protocol;
    }

    @Override
    public void run(int startSlot) {
        slot = startSlot;
        try {
            if (!stream.isCancelled()) {
                serve();
            }
        } finally {
            // The handler has returned: its stream may now stop counting against the limit.
            stream.letGo();
        }
    }

    @Override
    public int slotAfterRun(int startSlot) {
        return slot;
    }

    /**
     * The response waits for the client (its flow-control window or its socket): the slot is
     * lent for the wait, so a stalled stream holds no worker slot ({@link ChildServices#lend}).
     */
    void lendSlot() {
        services.lend(slot);
        slot = WorkerTask.NO_SLOT;
    }

    /** The wait is over: runs on with a slot again, the exchange shown in it. */
    void reclaimSlot() {
        slot = services.reclaim();
        if (req != null) {
            board.requestStarted(slot, req, stream.session().remoteAddress(), stream.startNanos);
        }
        board.set(slot, Scoreboard.WRITING);
    }

    private void serve() {
        Session session = stream.session();
        services = session.connection().services();
        board = services.scoreboard();
        Http2Response res = new Http2Response(stream, stream.request.method(), protocol.config().serverHeader(),
                protocol.timeoutNanos());
        stream.body.timeout(protocol.timeoutNanos());
        if (stream.request.headers().hasToken("expect", "100-continue")) {
            expectContinue(res);
        }
        stream.task = this;
        try {
            req = new Http2Request(stream, session.remoteAddress(), session.localAddress(), session.isSecure(),
                    protocol.config().limitRequestBody());
            board.requestStarted(slot, req, session.remoteAddress(), stream.startNanos);
            board.set(slot, Scoreboard.WRITING);
            if (stream.request.truncated()) {
                throw new HttpException(431, "request header fields exceed H2MaxHeaderListSize");
            }
            protocol.app().handle(req, res);
            res.finish();
        } catch (StreamResetException e) {
            LOG.log(Level.DEBUG, "LM0708 {0}: {1}", session, e.getMessage());
        } catch (HttpException e) {
            LOG.log(Level.DEBUG, "LM0709 {0} stream {1} answered {2}: {3}", session, stream.id(), e.status(),
                    e.getMessage());
            answerError(res, e.status());
        } catch (SocketTimeoutException e) {
            LOG.log(Level.DEBUG, "LM0709 {0} stream {1}: {2}", session, stream.id(), e.getMessage());
            answerError(res, 408);
        } catch (Exception | LinkageError | AssertionError | StackOverflowError e) {
            LOG.log(Level.ERROR, "LM0710 handler failed for " + stream.request.method() + " "
                    + stream.request.path() + " on " + session + " stream " + stream.id(), e);
            answerError(res, 500);
        } finally {
            if (req != null) {
                long bytesOut = res.bytesSent();
                board.requestDone(slot, bytesOut);
                ExchangeObserver observer = protocol.observer();
                if (observer != null) {
                    observer.exchangeCompleted("HTTP/2.0", stream.request.method(), res.status(),
                            req.bytesReceived(), bytesOut, System.nanoTime() - stream.startNanos);
                }
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

    /** A status when nothing was sent yet; otherwise the stream is reset (the head is out). */
    private void answerError(Http2Response res, int status) {
        try {
            if (!res.isCommitted()) {
                res.headers().clear();
                res.status(status);
                res.header("Content-Type", "text/plain; charset=UTF-8");
                res.send((StatusReasons.reason(status) + "\n").getBytes(StandardCharsets.UTF_8));
            } else if (!res.isComplete()) {
                stream.enqueue(Out.rst(stream, ErrorCode.INTERNAL_ERROR.code()));
            }
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.DEBUG, "LM0708 {0} stream {1}: could not answer: {2}", stream.session(), stream.id(),
                    e.toString());
        }
    }
}
