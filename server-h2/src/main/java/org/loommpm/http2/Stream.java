package org.loommpm.http2;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.loommpm.http2.hpack.FieldBlock;
import org.loommpm.spi.InputBudget;

/**
 * One HTTP/2 stream: the request the client opened and the response its task produces.
 *
 * <p><b>Threads.</b> Two parties use a stream. The connection's frame loop (whichever worker
 * owns the connection) alone reads and writes the fields marked <i>loop</i>: the state (see
 * {@link StreamState}), both flow-control windows, and the output waiting to be framed. The
 * stream's task (its handler, on its own worker, or on the loop's own worker while the loop
 * waits for it: {@link InlineRun}) produces output through {@link #enqueue}, which goes through
 * the session's MPSC queue, and never touches the socket. They share only:
 * <ul>
 *   <li>{@link #queued}: bytes of body the task has queued and the frame loop has not yet
 *       written (the task adds, the loop subtracts after the socket write); the task parks while
 *       it is above {@link #QUEUE_BOUND}, so a large body is produced as the client's windows and
 *       socket take it, never buffered whole;</li>
 *   <li>{@link #writer}: the parked task, unparked by the loop (a Dekker pair on volatiles: the
 *       task publishes itself, then re-reads {@link #queued}; the loop updates {@link #queued},
 *       then reads {@link #writer});</li>
 *   <li>{@link #cancelled}: set by the loop when the stream is reset or the connection ends;
 *       the task sees it in every body read and write ({@link StreamResetException});</li>
 *   <li>the request {@link #body}, which has its own lock;</li>
 *   <li>a suspended exchange ({@link #suspension}): any thread queues through
 *       {@link #offerData}, which reserves its bytes in {@link #queued} by CAS within the budget
 *       instead of parking, and waits through {@link #whenWritable} (futures completed by the
 *       loop in {@link #written}, or exceptionally by {@link #cancel}); a cancelled stream ends
 *       the suspended exchange;</li>
 *   <li>{@link #holders}: the stream's place in the session's {@link
 *       org.loommpm.http2.guard.StreamLimit}, held by the loop until the stream is closed and by
 *       the task until its handler returned; whoever lets go last gives the place back.</li>
 * </ul>
 */
final class Stream {
    /** Bytes of body a task may have queued before it parks. */
    static final long QUEUE_BOUND = 64 * 1024;
    /**
     * How long a parked task keeps its worker slot before lending it for the rest of the wait
     * ({@link StreamTask#lendSlot}): a client that reads takes a queued piece in far less, one
     * that grants no window never does.
     */
    static final long LEND_AFTER_NANOS = 20_000_000;

    private final int id;
    private final Session session;
    final FieldBlock request;
    final RequestBody body;
    final long startNanos;

    /** loop: the protocol state. */
    StreamState state = StreamState.IDLE;
    /** loop: what the client allows us to send. */
    long sendWindow;
    /** loop: what we allow the client to send. */
    long recvWindow;
    /** loop: request body bytes received (content-length check). */
    long received;
    /** loop: items taken from the queue, waiting for their turn or for window. */
    final ArrayDeque<Out> pending = new ArrayDeque<>(4);
    /** loop: whether the stream is in the session's ready list. */
    boolean scheduled;
    /** loop: whether the loop still holds the stream's place in the concurrency limit. */
    boolean counted;
    /** What the decoded request head holds of the child's input budget, released with the stream's place in the limit. */
    InputBudget.Hold fields;
    /** loop: whether the response's last frame (END_STREAM) was handed to the batch. */
    boolean responseEnded;
    /**
     * loop: since when the stream waits on the client without progress (0: it does not): for
     * window to send its pending output, or, its response sent, for the rest of a request.
     */
    long waitingSince;

    /** task: the task running the handler (set when it starts), which lends its slot while parked. */
    StreamTask task;

    private final AtomicLong queued = new AtomicLong();
    private final AtomicInteger holders = new AtomicInteger(2);
    private volatile Thread writer;
    private volatile boolean cancelled;
    /**
     * The tunnel of an extended CONNECT (RFC 8441), else {@code null}: made by the loop with the
     * stream, before its task is dispatched (which publishes it); its DATA go there, not to
     * {@link #body}.
     */
    TunnelStream tunnel;
    /** The suspended exchange answering this stream, if its handler suspended; set by the task. */
    volatile Http2Suspension suspension;
    /** Futures of {@link #whenWritable}: any thread adds, the loop completes (MPMC queue). */
    private final ConcurrentLinkedQueue<CompletableFuture<Void>> waiters = new ConcurrentLinkedQueue<>();
    /** The budget {@link #whenWritable} waits under (the suspended exchange's OutboundQueueLimit). */
    private volatile long waitLimit;

    Stream(Session session, int id, FieldBlock request, long sendWindow, long recvWindow, long limitBody) {
        this.session = session;
        this.id = id;
        this.request = request;
        this.sendWindow = sendWindow;
        this.recvWindow = recvWindow;
        this.body = new RequestBody(this, limitBody);
        this.startNanos = System.nanoTime();
    }

    int id() {
        return id;
    }

    Session session() {
        return session;
    }

    // ---- task side ----

    /** Hands an item to the frame loop and asks for its attention. Task side. */
    void enqueue(Out o) throws IOException {
        if (cancelled) {
            throw new StreamResetException(id);
        }
        if (o.kind == Out.Kind.DATA) {
            queued.addAndGet(o.len);
        }
        session.enqueue(o);
    }

    /**
     * Queues a DATA item of a suspended exchange if at most {@code limit} body bytes would then
     * wait (always when none waits), without parking. Any thread.
     *
     * @return whether it was queued
     */
    boolean offerData(Out o, long limit) throws IOException {
        if (cancelled) {
            throw new ClosedChannelException();
        }
        for (;;) {
            long q = queued.get();
            if (q > 0 && q + o.len > limit) {
                return false;
            }
            if (queued.compareAndSet(q, q + o.len)) {
                break;
            }
        }
        session.enqueue(o);
        return true;
    }

    /**
     * Completes once at most half of {@code limit} body bytes wait to be written (at once if so
     * now); exceptionally once the stream is cancelled. Any thread.
     */
    CompletableFuture<Void> whenWritable(long limit) {
        CompletableFuture<Void> f = new CompletableFuture<>();
        waitLimit = limit;
        if (cancelled) {
            f.completeExceptionally(new ClosedChannelException());
            return f;
        }
        if (queued.get() <= limit / 2) {
            f.complete(null);
            return f;
        }
        waiters.add(f);
        if (queued.get() <= limit / 2 || cancelled) {
            releaseWaiters(); // the loop wrote between our look and the add
        }
        return f;
    }

    private void releaseWaiters() {
        CompletableFuture<Void> f;
        while ((f = waiters.poll()) != null) {
            if (cancelled) {
                f.completeExceptionally(new ClosedChannelException());
            } else {
                f.complete(null);
            }
        }
    }

    /**
     * Parks the task until at most {@code bound} queued body bytes are left unwritten, within
     * {@code timeoutNanos}. Task side.
     */
    void awaitQueued(long bound, long timeoutNanos) throws IOException {
        if (queued.get() <= bound || session.inline.onPoller(this)) {
            // On the poller nothing parks: the output stays queued (lent bodies were copied).
            checkCancelled();
            return;
        }
        session.inline.beforePark(this); // run by the loop itself: the loop must go on elsewhere first
        long start = System.nanoTime();
        long deadline = start + timeoutNanos;
        long lendAt = start + LEND_AFTER_NANOS;
        boolean lendable = task != null && !task.inline;
        boolean lent = false;
        try {
            writer = Thread.currentThread();
            while (queued.get() > bound) {
                checkCancelled();
                long now = System.nanoTime();
                long left = deadline - now;
                if (left <= 0) {
                    throw new SocketTimeoutException("stream " + id + ": client took no data within Timeout");
                }
                if (lendable) {
                    if (now - lendAt >= 0) {
                        lent = task.lendSlot(); // refused (MaxSlotlessWaits): the task waits on its slot
                        lendable = false;
                    } else {
                        left = Math.min(left, lendAt - now);
                    }
                }
                LockSupport.parkNanos(this, left);
                if (Thread.interrupted()) {
                    throw new InterruptedIOException("interrupted while waiting for the client's window");
                }
            }
        } finally {
            writer = null;
            if (lent) {
                task.reclaimSlot();
            }
        }
        checkCancelled();
    }

    /**
     * One of the stream's two holders (the frame loop once the stream is closed, the task once
     * its handler returned) lets go of its place in the concurrency limit. Each calls it once.
     */
    void letGo() {
        if (holders.decrementAndGet() == 0) {
            session.limit.release();
            if (fields != null) {
                fields.releaseAll();
            }
        }
    }

    /** Throws when the stream was reset or the connection ended. Task side. */
    void checkCancelled() throws StreamResetException {
        if (cancelled) {
            throw new StreamResetException(id);
        }
    }

    /** Body bytes queued and not yet written. Any thread. */
    long queuedBytes() {
        return queued.get();
    }

    boolean isCancelled() {
        return cancelled;
    }

    // ---- loop side ----

    /** {@code n} queued body bytes were written to the socket (or dropped): wake a parked task. */
    void written(long n) {
        long left = queued.addAndGet(-n);
        Thread w = writer;
        if (w != null) {
            LockSupport.unpark(w);
        }
        if (!waiters.isEmpty() && left <= waitLimit / 2) {
            releaseWaiters();
        }
    }

    /** The stream was reset or its connection ended: the task's reads and writes fail from now. */
    void cancel() {
        cancelled = true;
        body.cancel();
        Thread w = writer;
        if (w != null) {
            LockSupport.unpark(w);
        }
        releaseWaiters();
        Http2Suspension s = suspension;
        if (s != null) {
            s.clientGone();
        }
    }

    /** Moves the state on {@code e}. Loop side. */
    void on(StreamState.Event e) {
        state = state.on(e);
    }

    /** Loop: the client's END_STREAM (on its HEADERS or its last DATA); the body, or the tunnel, ends. */
    void requestEnded() {
        on(StreamState.Event.RECV_END_STREAM);
        body.end();
        if (tunnel != null) {
            tunnel.end();
        }
    }

    @Override
    public String toString() {
        return "stream " + id + " [" + state + "]";
    }
}
