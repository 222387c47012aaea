package org.loommpm.api;

/**
 * Application code that answers one request. Runs on a virtual thread owned by the child's
 * worker pool, so it may block (read a body, call a database, sleep): a blocked handler parks
 * its virtual thread, never a poller. A handler that throws gets a 500 with no internals shown
 * to the client (an {@link HttpException} gets its own status instead).
 *
 * <p>A handler that declares it never blocks ({@link #invocationType()} returns
 * {@link InvocationType#NON_BLOCKING}; see {@link #nonBlocking(Handler)} and
 * {@link InvocationType} for what that promises) may instead run on the poller thread that read
 * its request, which saves the hand-off to a virtual thread: HTTP/1.1 over cleartext, when the
 * whole request is already read, and a lone complete HTTP/2 request on an idle cleartext (h2c)
 * connection.
 *
 * <p><b>Monitors on JDK 21 to 23.</b> Do not hold a monitor ({@code synchronized}) across
 * response I/O there, or across any other blocking call: a virtual thread that parks inside
 * {@code synchronized} pins its carrier thread until it leaves the block. An HTTP/2 connection's
 * frame loop, which reads the WINDOW_UPDATE frames a large response waits for, is itself a virtual
 * thread and needs a free carrier; once the handlers waiting for it have pinned every carrier,
 * those streams and the connection stall. Use a {@link java.util.concurrent.locks.ReentrantLock}
 * instead. JDK 24 and later release the carrier there too (JEP 491); the tests ran on JDK 25,
 * where such a handler completes even with a single carrier.
 */
@FunctionalInterface
public interface Handler {
    /**
     * Handles one exchange. The response is completed when this returns: anything not yet sent
     * is sent then (an untouched response becomes an empty 200).
     *
     * @param request the request (head parsed, body not yet read)
     * @param response the response to fill in and send
     * @throws Exception any failure; see the class comment for how it is answered
     */
    void handle(Request request, Response response) throws Exception;

    /**
     * Whether this handler may block; {@link InvocationType#BLOCKING} unless it says otherwise.
     * A handler wrapping others (a router, a filter chain) must not answer
     * {@link InvocationType#NON_BLOCKING} unless everything it calls is non-blocking.
     *
     * @return the handler's invocation type
     */
    default InvocationType invocationType() {
        return InvocationType.BLOCKING;
    }

    /**
     * Whether this handler may block when answering a request with this method and path: asked
     * by the server, before the handler runs, when {@link #invocationType()} is
     * {@link InvocationType#BY_REQUEST}. It must be cheap and must not block. The default is
     * {@link #invocationType()}.
     *
     * @param method the request method, e.g. {@code GET}
     * @param path the request path, percent-decoded (as {@link Request#path()})
     * @return {@link InvocationType#BLOCKING} or {@link InvocationType#NON_BLOCKING}
     */
    default InvocationType invocationType(String method, String path) {
        InvocationType t = invocationType();
        return t == InvocationType.BY_REQUEST ? InvocationType.BLOCKING : t;
    }

    /**
     * The handler to call, on the poller thread, for a request with this method and path, or
     * {@code null} when answering it may block: asked instead of
     * {@link #invocationType(String, String)} when {@link #invocationType()} is
     * {@link InvocationType#BY_REQUEST}, so that a handler which has to find its route to tell
     * (a {@link Router}) finds it once and hands out what it found. Same rules: cheap, never
     * blocking. The default is this handler when {@link #invocationType(String, String)} says
     * {@link InvocationType#NON_BLOCKING}.
     *
     * @param method the request method, e.g. {@code GET}
     * @param path the request path, percent-decoded (as {@link Request#path()})
     * @return a handler that answers this request without blocking, or {@code null}
     */
    default Handler nonBlockingHandler(String method, String path) {
        return invocationType(method, path) == InvocationType.NON_BLOCKING ? this : null;
    }

    /**
     * Marks {@code handler} as never blocking ({@link InvocationType#NON_BLOCKING}): the server
     * may call it on the poller thread that read its request. Read {@link InvocationType} first:
     * a handler that blocks anyway stalls every connection of its poller while it runs.
     *
     * @param handler a handler that does no blocking I/O, holds no contended lock and takes
     *                bounded, short CPU
     * @return a handler that calls {@code handler} and declares it non-blocking
     */
    static Handler nonBlocking(Handler handler) {
        java.util.Objects.requireNonNull(handler, "handler");
        return new Handler() {
            @Override
            public void handle(Request request, Response response) throws Exception {
                handler.handle(request, response);
            }

            @Override
            public InvocationType invocationType() {
                return InvocationType.NON_BLOCKING;
            }
        };
    }
}
