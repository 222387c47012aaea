package org.loommpm.api;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;

/**
 * A {@code text/event-stream} response (Server-Sent Events), obtained from
 * {@link Response#eventStream()}: the head is sent at once, the handler returns, and events are
 * sent from any thread for as long as the client stays: chunks on HTTP/1.1, DATA frames on
 * HTTP/2. Between events the stream holds no worker slot, no thread and no buffer; a heartbeat
 * comment goes out when nothing was sent for {@code EventStreamHeartbeat} (15 s by default), so
 * proxies do not cut it as idle.
 *
 * <p><b>A slow reader is bounded</b>: sends are queued up to {@code OutboundQueueLimit} bytes per
 * stream; a send that does not fit returns {@code false} and sends nothing. The policy is the
 * caller's: skip the event (the client can catch up through {@code Last-Event-ID}), wait for
 * {@link #whenWritable()}, or {@link #close()} the stream.
 *
 * <p>Every method may be called from any thread and never blocks. The stream ends when
 * {@link #close()} is called, the client goes away, or the server stops (the stream is ended at
 * once so the client reconnects elsewhere); {@link #closed()} completes then, and sends fail with
 * an {@link IOException}.
 */
public interface EventStream extends AutoCloseable {
    /**
     * {@return the request's {@code Last-Event-ID} (the id of the last event a reconnecting client
     * saw), or {@code null} if the client sent none}
     */
    String lastEventId();

    /**
     * Sends an event.
     *
     * @param event the event to send
     * @return {@code true} if queued, {@code false} if the stream's queue is full (not sent)
     * @throws IOException if the stream has ended
     */
    boolean send(ServerSentEvent event) throws IOException;

    /**
     * Sends a "message" event with {@code data}; see {@link #send(ServerSentEvent)}.
     *
     * @param data the event's data (each line becomes a {@code data:} line)
     * @return {@code true} if queued, {@code false} if the stream's queue is full (not sent)
     * @throws IOException if the stream has ended
     */
    default boolean send(String data) throws IOException {
        return send(ServerSentEvent.data(data));
    }

    /**
     * Sends an event of type {@code name} with {@code data}; see {@link #send(ServerSentEvent)}.
     *
     * @param name the event type (the {@code event:} field), one line
     * @param data the event's data (each line becomes a {@code data:} line)
     * @return {@code true} if queued, {@code false} if the stream's queue is full (not sent)
     * @throws IOException if the stream has ended
     */
    default boolean send(String name, String data) throws IOException {
        return send(ServerSentEvent.data(data).name(name));
    }

    /**
     * Sends a comment line (clients ignore it): a heartbeat of one's own. Each line of
     * {@code text} becomes a {@code :} line.
     *
     * @param text the comment
     * @return {@code true} if queued, {@code false} if the queue is full
     * @throws IOException if the stream has ended
     */
    boolean comment(String text) throws IOException;

    /**
     * {@return a future that completes when a send has room again (at once if it has now), and
     * completes exceptionally if the stream ends first}
     */
    CompletableFuture<Void> whenWritable();

    /** {@return whether the stream is still open} */
    boolean isOpen();

    /**
     * {@return a future that completes once the stream has ended, whichever way} Actions attached
     * to it run on the thread that ended the stream.
     */
    CompletableFuture<Void> closed();

    /** Ends the stream (the response's body ends; the connection may serve further requests). */
    @Override
    void close();
}
