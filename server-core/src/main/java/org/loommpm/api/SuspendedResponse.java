package org.loommpm.api;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;

/**
 * A response whose handler has returned without answering: a long poll, an answer that comes
 * from another thread or a later event. Obtained from {@link Response#suspend()}; from then on the
 * exchange holds no worker slot and no thread, and its connection (HTTP/1.1) or stream (HTTP/2)
 * waits in the server's poller until this handle sends something or the deadline passes.
 *
 * <p><b>Any thread, never blocking.</b> Every method may be called from any thread and returns
 * at once: bytes are queued on the connection (or the HTTP/2 stream) and written by the server.
 * The queue is bounded ({@code OutboundQueueLimit}): {@link #write} returns {@code false} when a
 * chunk does not fit, and {@link #whenWritable()} completes when it would; whether to wait, drop
 * or {@link #complete()} is the caller's policy. {@link #send} and {@link #complete()} always go
 * out whatever the budget: they end the exchange.
 *
 * <p><b>Ends</b> exactly once: answered ({@link #send}, {@link #complete()}), given up
 * ({@link #abort()}), timed out
 * ({@code SuspendTimeout} or {@link Response#suspend(java.time.Duration)}: {@link #onTimeout} runs,
 * then a {@code 503} if it did not answer), the client gone (connection closed, stream reset), or
 * the server stopping ({@code 503} once {@code GracefulShutdownTimeout} is nearly over). A
 * deadline or a stop that comes after a streamed body began cuts it off, as {@link #abort()}
 * does: a client never takes an unfinished body for a whole one.
 * {@link #ended()} completes then, whichever it was; later calls to {@link #send},
 * {@link #write} fail with an {@link IOException}.
 *
 * <p>The request must be read before {@link Response#suspend()}: an unread body is discarded when
 * the handler returns.
 */
public interface SuspendedResponse {
    /**
     * Sets the status (default: what the handler set, else 200). Before the head is sent.
     *
     * @param status the HTTP status code, 200-599 (a 1xx is sent with {@link #sendInterim})
     * @return this handle
     * @throws IllegalArgumentException for an interim 1xx or a number without three digits
     */
    SuspendedResponse status(int status);

    /**
     * Replaces a header field. Before the head is sent.
     *
     * @param name the field name
     * @param value the field value
     * @return this handle
     */
    SuspendedResponse header(String name, String value);

    /**
     * Queues an informational (1xx) response ahead of the head, as
     * {@link Response#sendInterim(int, Headers)}: a proxy relays a backend's {@code 103 Early
     * Hints} this way. Before the head is sent; never blocks.
     *
     * @param status 102-199
     * @param fields the interim response's fields, copied
     * @return whether it was queued: {@code false} for an HTTP/1.0 client
     * @throws IllegalArgumentException for another status or a field a 1xx may not carry
     * @throws IllegalStateException once the head is sent
     * @throws IOException if the exchange has ended
     */
    default boolean sendInterim(int status, Headers fields) throws IOException {
        throw new UnsupportedOperationException("this response cannot send interim responses");
    }

    /**
     * Adds a header field, keeping those of the same name (a repeated field such as
     * {@code Set-Cookie}, which cannot be joined into one line). Before the head is sent.
     *
     * @param name the field name
     * @param value the field value
     * @return this handle
     */
    SuspendedResponse addHeader(String name, String value);

    /**
     * Sends the whole response with this body (Content-Length) and ends the exchange.
     *
     * @param body the whole body
     * @throws IllegalStateException if the head was already sent by {@link #write}
     * @throws IOException if the exchange has ended (client gone, timed out)
     */
    void send(byte[] body) throws IOException;

    /**
     * Sends text as UTF-8 ({@code text/plain; charset=UTF-8} unless a Content-Type is set) and
     * ends the exchange; see {@link #send(byte[])}.
     *
     * @param body the whole body
     * @throws IllegalStateException if the head was already sent by {@link #write}
     * @throws IOException if the exchange has ended (client gone, timed out)
     */
    default void send(String body) throws IOException {
        send(body.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Sends a piece of a streamed body (the first call sends the head: chunked on HTTP/1.1,
     * DATA frames on HTTP/2), if the queue has room. A {@code Content-Length} set before the
     * first piece is announced instead of chunking (a proxy relaying a body of known length):
     * the pieces must then add up to exactly that many bytes before {@link #complete()}, or the
     * producer must {@link #abort()}; a {@code complete()} short of it cuts the body off as
     * {@code abort()} does.
     *
     * @param chunk the bytes to send
     * @return {@code true} if queued; {@code false} if the queue is full (nothing was queued:
     *         retry after {@link #whenWritable()}, or give up)
     * @throws IOException if the exchange has ended, or the piece goes beyond a Content-Length set
     *         (nothing was queued)
     */
    boolean write(byte[] chunk) throws IOException;

    /**
     * {@return a future that completes when {@link #write} has room again (at once if it has
     * now), and completes exceptionally if the exchange ends first}
     */
    CompletableFuture<Void> whenWritable();

    /**
     * Ends the exchange: a streamed body is terminated; a response never sent goes out as an
     * empty body with the status set. Does nothing once ended.
     */
    void complete();

    /**
     * Ends the exchange without a whole answer, for a producer that failed after it began (a
     * backend gone mid-body, a source that broke): the client cannot take what it received for
     * a complete response. HTTP/1.1 closes the connection once what is queued is written,
     * without the last chunk (a response never begun gets no answer: the connection closes; an
     * HTTP/1.0 body, delimited by the close, shows the cut only over TLS, closed without
     * close_notify); HTTP/2 resets the stream
     * ({@code INTERNAL_ERROR}). The exchange ends unanswered ({@link #ended()} completes). Does
     * nothing once ended.
     */
    void abort();

    /**
     * What to do when the deadline passes, run on a virtual thread of its own (it may block
     * briefly, and may answer, e.g. {@code 204} "nothing new"); if it leaves the exchange open
     * the server answers {@code 503}. Replaces an earlier action.
     *
     * @param action what to run when the deadline passes
     * @return this handle
     */
    SuspendedResponse onTimeout(Runnable action);

    /** {@return whether the exchange has ended (answered, timed out, client gone, server stopped)} */
    boolean isDone();

    /**
     * {@return a future that completes once the exchange has ended, whichever way} Actions
     * attached to it run on the thread that ended the exchange.
     */
    CompletableFuture<Void> ended();
}
