package org.loommpm.spi;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;

/**
 * A connection's bounded queue of bytes to write, fed by any thread without blocking it on the
 * socket: what a suspended response, an event stream or a WebSocket sends from a thread that
 * does not own the connection. Reached through {@link ProtocolConnection#outbound()}.
 *
 * <p><b>Who writes.</b> Bytes are written in offer order by the connection's owner: while the
 * connection is detached ({@link ProtocolConnection#handBackDetached}) its poller writes them
 * without blocking (plaintext), or dispatches a short engine task on a worker that writes them
 * through the TLS engine and hands the connection back detached; while a worker owns it, that
 * worker writes them with {@link ProtocolConnection#flushOutbound()} (and the engine does before
 * every dispatch of the protocol, so queued bytes always go out before anything the protocol
 * writes itself). A protocol that uses the queue for a connection sends every byte through it,
 * or flushes it before a direct write, so bytes stay in order.
 *
 * <p><b>The budget.</b> {@link #offer} accepts bytes while the queued total stays within the
 * limit ({@code OutboundQueueLimit}), and always when the queue is empty (so one item larger
 * than the limit still goes, alone); otherwise it returns {@code false} and queues nothing. The
 * caller decides: wait for {@link #whenWritable()} and offer again, drop the item, or
 * {@link #close} the connection. {@link #put} skips the check, for small items that end an
 * exchange (a last chunk, a close frame), which must not be lost to a full queue.
 *
 * <p><b>Threads.</b> Every method may be called from any thread; none blocks. Producers push onto
 * a lock-free MPSC queue (the owner of the connection is the only consumer) and add to an atomic
 * byte count; the first offer after the consumer last looked pokes the connection's poller.
 */
public interface OutboundQueue {
    /**
     * Queues {@code bytes} (its remaining bytes; the buffer is the queue's from now on: do not
     * touch it again) if the budget allows.
     *
     * @param bytes the bytes to write, from position to limit
     * @return {@code true} if queued; {@code false} if the queue is full (nothing queued)
     * @throws java.nio.channels.ClosedChannelException if the connection has ended or a close was requested
     */
    boolean offer(ByteBuffer bytes) throws IOException;

    /**
     * Queues {@code bytes} whatever the budget: for small items that end an exchange.
     *
     * @param bytes the bytes to write, from position to limit; the queue's from now on
     * @throws java.nio.channels.ClosedChannelException if the connection has ended or a close was requested
     */
    void put(ByteBuffer bytes) throws IOException;

    /** {@return the bytes queued and not yet written to the socket} */
    long queuedBytes();

    /** {@return the budget in bytes ({@code OutboundQueueLimit})} */
    long limit();

    /**
     * {@return a future that completes once the queue has room again} That is when at most half
     * the limit is queued (at once if that is so now). Completes exceptionally with a {@link java.nio.channels.ClosedChannelException}
     * if the connection ends first. Dependent actions run on the thread that completes it (the
     * poller, or a worker): keep them short and never block in them.
     */
    CompletableFuture<Void> whenWritable();

    /**
     * {@return a future that completes with the reason once the connection has ended} It does on
     * every path: closed by either side, timed out, stopped. Dependent actions run on the thread that ended it: keep them short.
     */
    CompletableFuture<CloseReason> closed();

    /** {@return whether the connection has ended or a {@link #close} was requested} */
    boolean isClosed();

    /**
     * Ends the connection from any thread: once the bytes already queued are written
     * ({@code flushFirst}, then a lingering close), or at once. Takes effect when the connection
     * is detached (at once if it is now, else when its worker hands it back detached); a worker
     * that owns the connection sees it in {@link #isClosed()}.
     *
     * @param reason why the connection ends (reported by {@link #closed()})
     * @param flushFirst {@code true} to write the bytes already queued first, {@code false} to
     *        end at once
     */
    void close(CloseReason reason, boolean flushFirst);
}
