package org.loommpm.engine;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.util.Iterator;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.loommpm.spi.CloseReason;
import org.loommpm.spi.OutboundQueue;

/**
 * A connection's outbound queue (see {@link OutboundQueue} for the contract), created on first
 * use ({@link Connection#outbound()}): a connection that never uses it pays one null field.
 *
 * <p><b>Who pushes, who pops.</b> {@link #items} is a lock-free MPSC queue: any thread offers
 * (after reserving its bytes in {@link #queued} by CAS, so the budget is never exceeded by a
 * race); the connection's owner alone reads it ({@link #drainTo}): its poller while the
 * connection is DETACHED, else the worker that owns it. Ownership moves through the poller's
 * hand-off queue, whose CAS publishes the consumer-side state. The consumer iterates the head of
 * the queue (stable: nobody else removes), writes the items in one gathering write, and removes
 * only the items written whole, so a partial write keeps its item first. {@link #waiters}
 * (futures of {@link #whenWritable()}) is MPMC: any thread adds, the consumer or the thread
 * ending the connection completes; a waiter added after the drain looked re-checks the count
 * itself, so none is left behind.
 *
 * <p><b>Who writes.</b> Any thread may queue bytes without blocking on the socket. Who writes
 * them depends on the connection's state, and so follows ownership: the poller while the
 * connection is DETACHED (plaintext: a non-blocking gathering write on the poller thread, in
 * {@link DetachedService}, OP_WRITE armed while the socket is full; TLS: a short
 * {@link #flushDetached} task on a worker, because a poller never runs the TLS engine), the
 * owning worker otherwise ({@link Connection#flushOutbound}, and before every dispatch of the
 * protocol in {@link Connection#run}). The first offer after the owner last looked pokes the
 * poller, through the same once-per-look flag as a {@link Connection#signal}.
 *
 * <p><b>States</b> ({@link #state}, CAS): {@code OPEN -> CLOSE_AFTER_FLUSH | CLOSE_NOW -> ENDED},
 * or {@code OPEN -> ENDED} when the connection ends by another path.
 */
final class Outbound implements OutboundQueue {
    static final int OPEN = 0;
    static final int CLOSE_AFTER_FLUSH = 1;
    static final int CLOSE_NOW = 2;
    static final int ENDED = 3;
    /** Items per gathering write. */
    static final int BATCH = 64;

    private static final VarHandle STATE;
    /** {@link Connection#outbound}, set once by the first {@link #of} (CAS). */
    private static final VarHandle CONNECTION_OUTBOUND;

    static {
        try {
            var lookup = MethodHandles.lookup();
            STATE = lookup.findVarHandle(Outbound.class, "state", int.class);
            CONNECTION_OUTBOUND = lookup.findVarHandle(Connection.class, "outbound", Outbound.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Where the consumer writes: the channel (poller) or the transport (worker). */
    interface Sink {
        /** Writes what it can of {@code srcs[0..n)}; bytes written, 0 when the socket is full. */
        long write(ByteBuffer[] srcs, int n) throws IOException;
    }

    private final Connection connection;
    private final long limit;
    private final ConcurrentLinkedQueue<ByteBuffer> items = new ConcurrentLinkedQueue<>();
    private final AtomicLong queued = new AtomicLong();
    private final ConcurrentLinkedQueue<CompletableFuture<Void>> waiters = new ConcurrentLinkedQueue<>();
    private final CompletableFuture<CloseReason> closed = new CompletableFuture<>();
    @SuppressWarnings("unused") // accessed through STATE
    private volatile int state;
    private volatile CloseReason closeReason = CloseReason.NORMAL;

    Outbound(Connection connection, long limit) {
        this.connection = connection;
        this.limit = limit;
    }

    /**
     * Worker side, for a DETACHED TLS connection that {@link DetachedService} dispatched only for
     * this (only a worker runs the TLS engine): writes the queue, then hands the connection back
     * DETACHED with the same deadline and interest, or closed as asked. Owner (that worker) only.
     *
     * <p>The close state is read before the drain, as {@link DetachedService#service} does: a
     * producer offers before it asks for the close, so every record that preceded a close seen
     * here is in the queue this drain writes. Read after the drain, a close asked for between the
     * two would linger with the records offered just before it still queued, and drop them.
     * Offers or a close arriving after the read are seen by the poller when it takes the
     * connection back DETACHED, which services the queue again.
     */
    void flushDetached() {
        int asked = state();
        if (asked != CLOSE_NOW) {
            try {
                connection.flushOutbound();
            } catch (IOException e) {
                connection.handBackClose(CloseReason.ABORT);
                return;
            }
        }
        switch (asked) {
            case CLOSE_NOW -> connection.handBackClose(closeReason());
            case CLOSE_AFTER_FLUSH -> connection.handBackLinger(closeReason());
            default -> connection.handBackDetachedAgain();
        }
    }

    /**
     * The connection's queue, created on the first call (any thread; a CAS decides which caller's
     * queue stays).
     */
    static Outbound of(Connection c) {
        Outbound q = c.outbound;
        if (q == null) {
            Outbound fresh = new Outbound(c, c.child().config().streaming().outboundQueueLimit());
            q = CONNECTION_OUTBOUND.compareAndSet(c, null, fresh) ? fresh : c.outbound;
            if (c.hasEnded()) {
                q.ended(c.closeReason); // created after the end: it must not wait for one that passed
            }
        }
        return q;
    }

    // ---- producers: any thread ----

    @Override
    public boolean offer(ByteBuffer bytes) throws IOException {
        checkOpen();
        long n = bytes.remaining();
        for (;;) {
            long q = queued.get();
            if (q > 0 && q + n > limit) {
                return false;
            }
            if (queued.compareAndSet(q, q + n)) {
                break;
            }
        }
        items.offer(bytes);
        connection.outboundPoke();
        return true;
    }

    @Override
    public void put(ByteBuffer bytes) throws IOException {
        checkOpen();
        queued.addAndGet(bytes.remaining());
        items.offer(bytes);
        connection.outboundPoke();
    }

    private void checkOpen() throws ClosedChannelException {
        if ((int) STATE.getVolatile(this) != OPEN) {
            throw new ClosedChannelException();
        }
    }

    @Override
    public long queuedBytes() {
        return queued.get();
    }

    @Override
    public long limit() {
        return limit;
    }

    @Override
    public CompletableFuture<Void> whenWritable() {
        CompletableFuture<Void> f = new CompletableFuture<>();
        if (state() == ENDED) {
            f.completeExceptionally(new ClosedChannelException());
            return f;
        }
        if (hasRoom()) {
            f.complete(null);
            return f;
        }
        waiters.add(f);
        // The consumer may have drained between our look and the add: look again (a Dekker pair
        // with drainTo's subtract-then-poll).
        if (hasRoom() || state() == ENDED) {
            releaseWaiters();
        }
        return f;
    }

    @Override
    public CompletableFuture<CloseReason> closed() {
        return closed;
    }

    @Override
    public boolean isClosed() {
        return state() != OPEN;
    }

    @Override
    public void close(CloseReason reason, boolean flushFirst) {
        closeReason = reason;
        if (STATE.compareAndSet(this, OPEN, flushFirst ? CLOSE_AFTER_FLUSH : CLOSE_NOW)) {
            connection.outboundPoke();
        }
    }

    // ---- the consumer: the connection's owner ----

    int state() {
        return (int) STATE.getVolatile(this);
    }

    CloseReason closeReason() {
        return closeReason;
    }

    /** Whether bytes wait to be written. Owner. */
    boolean hasItems() {
        return !items.isEmpty();
    }

    private boolean hasRoom() {
        return queued.get() <= limit / 2;
    }

    /**
     * Writes queued bytes in offer order until the queue is empty, the sink takes nothing more,
     * or {@code maxBytes} were written. Owner only.
     *
     * @param scratch an array of {@link #BATCH} slots, left all null
     * @return the bytes written
     */
    long drainTo(Sink sink, ByteBuffer[] scratch, long maxBytes) throws IOException {
        long total = 0;
        try {
            while (total < maxBytes) {
                int n = 0;
                Iterator<ByteBuffer> it = items.iterator();
                while (n < scratch.length && it.hasNext()) {
                    scratch[n++] = it.next();
                }
                if (n == 0) {
                    break;
                }
                long w = sink.write(scratch, n);
                for (int i = 0; i < n; i++) {
                    if (scratch[i].hasRemaining()) {
                        break;
                    }
                    items.poll(); // the head is scratch[i]: only this thread removes
                }
                java.util.Arrays.fill(scratch, 0, n, null);
                if (w > 0) {
                    total += w;
                    queued.addAndGet(-w);
                }
                if (w == 0) {
                    break;
                }
            }
        } finally {
            if (total > 0 && hasRoom() && !waiters.isEmpty()) {
                releaseWaiters();
            }
        }
        return total;
    }

    /** Completes the waiting {@link #whenWritable()} futures (exceptionally once ended). */
    private void releaseWaiters() {
        CompletableFuture<Void> f;
        boolean ended = state() == ENDED;
        while ((f = waiters.poll()) != null) {
            if (ended) {
                f.completeExceptionally(new ClosedChannelException());
            } else {
                f.complete(null);
            }
        }
    }

    /** The connection ended ({@link Connection#end}): queued bytes are dropped, everyone waiting is told. */
    void ended(CloseReason reason) {
        STATE.setVolatile(this, ENDED);
        items.clear();
        queued.set(0);
        releaseWaiters();
        closed.complete(reason);
    }
}
