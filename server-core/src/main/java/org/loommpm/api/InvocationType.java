package org.loommpm.api;

/**
 * Whether a {@link Handler} may block the thread that calls it, which decides where the server
 * may call it (after Jetty 12's {@code Invocable.InvocationType}, whose {@code BLOCKING} and
 * {@code NON_BLOCKING} these are; {@link #BY_REQUEST} is for routers).
 *
 * <p><b>What "does not block" means.</b> A {@link #NON_BLOCKING} handler may be called on the
 * poller thread that read its request (no hand-off to a virtual thread): while it runs, that
 * poller serves none of its other connections. So, for every request it answers, it must:
 * <ul>
 *   <li>do no blocking I/O: no file, database, socket or HTTP-client call, no {@code Thread.sleep},
 *       no waiting on a future, a queue, a latch or another thread;
 *   <li>hold no lock that another thread may hold for long ({@code synchronized} or a
 *       {@code java.util.concurrent} lock around a short in-memory update is fine);
 *   <li>take bounded, short CPU: microseconds, not milliseconds;
 *   <li>read at most a request body the server already holds: the server calls it inline only
 *       when the whole request (head and a {@code Content-Length} body, or no body) is already
 *       in its buffer, so a body read never waits for the client; otherwise, and on TLS
 *       connections, it runs on a virtual thread as a blocking handler would;
 *   <li>write a bounded response from memory: what the socket does not take at once is copied
 *       and queued, and written later (a streamed body works, but a large one then sits in
 *       memory until the client reads it; {@link Response#sendFile} reads a file, which is
 *       blocking I/O, so a handler sending files should stay blocking).
 * </ul>
 * A handler that breaks the rule still works, but stalls its poller's connections while it runs;
 * the server logs a handler that held its poller longer than {@code NonBlockingHandlerLimit}
 * ({@code LM2500}) and the stack of a poller still inside one when its supervisor looks
 * ({@code LM2501}). Suspending the response ({@link Response#suspend()}, an event stream) from a
 * non-blocking handler is supported: it does not block. A request asking for an {@code Upgrade}
 * (WebSocket, h2c) always runs on a virtual thread.
 */
public enum InvocationType {
    /** The handler may block: it runs on a virtual thread of the worker pool. The default. */
    BLOCKING,
    /** The handler never blocks (see the class comment): it may run on the poller thread. */
    NON_BLOCKING,
    /**
     * Depends on the request: ask {@link Handler#invocationType(String, String)} (the server asks
     * {@link Handler#nonBlockingHandler(String, String)}, which also hands out what to call). A
     * {@link Router} with both kinds of routes answers this.
     */
    BY_REQUEST
}
