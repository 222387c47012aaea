package org.loommpm.http;

import java.io.IOException;
import java.net.SocketTimeoutException;
import org.loommpm.api.Handler;
import org.loommpm.api.HttpException;
import org.loommpm.api.Request;
import org.loommpm.api.Response;
import org.loommpm.form.FormException;
import org.loommpm.multipart.MultipartException;
import org.loommpm.spi.ChildServices;
import org.loommpm.spi.ExchangeObserver;
import org.loommpm.spi.SlotBoard;

/**
 * The code around a handler call, the same for HTTP/1.1 and HTTP/2: call the application's
 * handler (or answer {@code OPTIONS *}, which names no resource, itself), complete the response, map a failure to the status to answer (an
 * {@link HttpException}'s own when it is 400-599, 408 for a {@link SocketTimeoutException}, 500 for anything else)
 * or to the protocol's action when its client is gone, and count the finished exchange in the
 * worker's scoreboard slot and for the {@link ExchangeObserver}.
 *
 * <p>What differs between the protocols (how a failure is logged and answered, what "the client
 * is gone" means) is asked of the {@link Exchange}, which each protocol's response implements:
 * no object is allocated per exchange. One runner per generation, shared by every worker.
 */
public final class ExchangeRunner {
    /** Why a handler's exchange failed, for the protocol's log line and close reason. */
    public enum Failure {
        /** The handler (or a body read) threw an {@link HttpException}: its status is answered. */
        STATUS,
        /** The client was too slow sending the body or taking the response: 408. */
        TIMEOUT,
        /** The handler threw anything else, a bug: 500. */
        ERROR
    }

    /** The protocol's side of one exchange: its response. Used by the serving task only. */
    public interface Exchange extends Response {
        /** Completes the response after the handler returned normally. */
        void finish() throws IOException;

        /**
         * Whether {@code e} means the client is gone (HTTP/1.1: its connection; HTTP/2: the
         * stream was reset), and then ends the exchange the protocol's way: by rethrowing it, or
         * by logging it and sending nothing.
         *
         * @return {@code true} when {@code e} was such a failure (and not rethrown)
         * @throws IOException {@code e} itself, when the protocol ends the exchange that way
         */
        boolean clientGone(Exception e) throws IOException;

        /**
         * Logs the failure and answers it with {@code status} if the head is not out yet; once it
         * is, the protocol ends the response its own way (HTTP/1.1: close the connection;
         * HTTP/2: reset the stream).
         *
         * @return whether the response is complete (an error status answered in full)
         */
        boolean fail(Failure failure, int status, Throwable cause) throws IOException;
    }

    /**
     * {@code Allow} of {@code OPTIONS *} (RFC 9110 §9.3.7): the standard methods a
     * {@code Router} routes, in its {@code Allow} order. The server itself accepts any method
     * token; which ones a resource takes is the application's, per path.
     */
    private static final String SERVER_METHODS = "GET, HEAD, POST, PUT, DELETE, PATCH, OPTIONS";
    private static final byte[] NO_BODY = new byte[0];

    private final Handler app;
    private final ExchangeObserver observer;

    /**
     * @param app the application's handler
     * @param observer told about every completed exchange, or {@code null} (metrics off)
     */
    public ExchangeRunner(Handler app, ExchangeObserver observer) {
        this.app = app;
        this.observer = observer;
    }

    /**
     * Runs the handler on {@code req} and completes {@code res}, answering a failure.
     *
     * @return whether the response is complete; {@code false} when a failure came after the
     *         head was sent, or the client is gone
     * @throws IOException when the answer could not be written, or the client is gone and the
     *         protocol rethrows that ({@link Exchange#clientGone})
     */
    public boolean run(Request req, Exchange res) throws IOException {
        return run(req, res, app);
    }

    /**
     * As {@link #run(Request, Exchange)}, calling {@code handler}: what the application's handler
     * chose for this request beforehand ({@link Handler#nonBlockingHandler}).
     */
    public boolean run(Request req, Exchange res, Handler handler) throws IOException {
        try {
            if (isAsterisk(req.path())) {
                // OPTIONS * (the only method the parsers let through with it) asks about the
                // server, not a resource: answered here, so no application sees a path it cannot route.
                res.header("Allow", SERVER_METHODS).send(NO_BODY);
            } else {
                handler.handle(req, res);
            }
            res.finish();
            return true;
        } catch (Exception | LinkageError | AssertionError | StackOverflowError e) {
            return failed(res, e);
        } finally {
            // The handler's call is over: what it left open for the exchange ends now (a
            // multipart reader's temporary files), even when the answer could not be written.
            RequestAttributes.release(req);
        }
    }

    /** The asterisk-form target's path: HTTP/1.1's {@code OPTIONS *}, HTTP/2's {@code :path *}. */
    private static boolean isAsterisk(String path) {
        return path.length() == 1 && path.charAt(0) == '*';
    }

    /**
     * {@return the status a handler's failure is answered with} An {@link HttpException}'s own
     * when it is 400-599 (another, a 1xx, a 200, a 1000, would fail {@code status()} itself or
     * answer a failure as a success: the handler's bug, 500), 408 for a read timeout, else 500.
     */
    public static int statusFor(Throwable e) {
        e = asHttpException(e);
        if (e instanceof HttpException he && he.status() >= 400 && he.status() <= 599) {
            return he.status();
        }
        return e instanceof SocketTimeoutException ? 408 : 500;
    }

    /**
     * Answers a failure the way {@link #run} does: also for one found before the handler was
     * called (a malformed or too large request).
     *
     * @return whether the response is complete
     */
    public boolean failed(Exchange res, Throwable e) throws IOException {
        e = asHttpException(e);
        int status = statusFor(e);
        if (e instanceof HttpException he && he.status() == status) {
            return res.fail(Failure.STATUS, status, e);
        }
        if (e instanceof SocketTimeoutException) {
            return res.fail(Failure.TIMEOUT, 408, e);
        }
        if (e instanceof Exception x && res.clientGone(x)) {
            return false;
        }
        return res.fail(Failure.ERROR, 500, e);
    }

    /**
     * The codecs' own exceptions ({@code form}, {@code multipart}: pure packages that cannot name
     * {@link HttpException}) as the {@code HttpException} they stand for, same status and message:
     * a handler reading multipart parts lets them escape as it would an {@code HttpException}.
     */
    private static Throwable asHttpException(Throwable e) {
        if (e instanceof MultipartException m) {
            return new HttpException(m.status(), m.getMessage());
        }
        if (e instanceof FormException f) {
            return new HttpException(f.status(), f.getMessage());
        }
        return e;
    }

    /**
     * Counts a finished exchange: in the worker's scoreboard slot (a plain single-writer store)
     * and, when metrics are on, for the observer.
     *
     * @param slot the slot the exchange holds now (HTTP/2 may have changed it while waiting)
     * @param version the protocol as on the wire, e.g. {@code HTTP/1.1}
     * @param startNanos when the request began ({@link System#nanoTime()})
     */
    public void completed(SlotBoard board, int slot, Response res, String version, String method,
                          long bytesReceived, long startNanos) {
        long bytesOut = res.bytesSent();
        board.requestDone(slot, bytesOut);
        if (observer != null) {
            observer.exchangeCompleted(version, method, res.status(), bytesReceived, bytesOut,
                    System.nanoTime() - startNanos);
        }
    }

    /**
     * Counts a finished exchange that ended holding no worker slot (a suspended HTTP/2 exchange,
     * answered from another thread): in its child's totals, as {@link #completed} counts in a
     * slot (so the status page's accesses agree with the observer's), and for the observer.
     */
    public void completedWithoutSlot(ChildServices services, Response res, String version, String method,
                                     long bytesReceived, long startNanos) {
        long bytesOut = res.bytesSent();
        services.requestDoneWithoutSlot(bytesOut);
        if (observer != null) {
            observer.exchangeCompleted(version, method, res.status(), bytesReceived, bytesOut,
                    System.nanoTime() - startNanos);
        }
    }
}
