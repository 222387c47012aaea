package org.loommpm.http2;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.lang.System.Logger.Level;
import java.net.SocketTimeoutException;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.loommpm.api.Headers;
import org.loommpm.api.HttpException;
import org.loommpm.config.RequestReadTimeout;
import org.loommpm.spi.InputBudget;

/**
 * A stream's request body as the handler reads it. The frame loop {@link #offer}s the payload of
 * each DATA frame (a copy) and {@link #end}s it at END_STREAM; the handler's task reads, parking
 * on a condition until data, the end, a reset, the Timeout or the body read stage
 * ({@code RequestReadTimeout body=}: from the first read that has to wait, its timeout plus one
 * second per MinRate bytes received since, as for HTTP/1.1; LM2003). The bytes buffered never exceed
 * the stream window the server advertised (the loop rejects DATA beyond it), and the task
 * returns window to the client with a WINDOW_UPDATE once it has consumed half of the announced
 * {@code H2WindowSize}.
 *
 * <p><b>Worker slot.</b> A read that waits for DATA more than {@link Stream#LEND_AFTER_NANOS}
 * lends the task's slot for the rest of the wait ({@link StreamTask#lendSlot}), and takes one
 * back after it, whatever ended it (data, the end, a reset, a timeout): a client that opens
 * streams and sends their bodies slowly holds no worker slot. Once a wait has lent it, later
 * waits of the body lend it at once: else a byte every 19 ms would keep the slot.
 *
 * <p>Threads: the frame loop produces, the stream's task consumes; everything shared is
 * guarded by {@link #lock} (held only for short non-blocking sections; a slot is taken back
 * after it is released).
 */
final class RequestBody extends InputStream {
    private static final System.Logger LOG = System.getLogger("org.loommpm.http2");
    /** No trailer fields: shared, never handed to a handler (which gets a fresh empty set). */
    private static final Headers NONE = new Headers(1);
    private final Stream stream;
    private final long limit;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final ArrayDeque<byte[]> chunks = new ArrayDeque<>();
    /**
     * What the chunks hold of the child's input budget, made at the first DATA (a request without
     * a body holds none): grown by the frame loop, shrunk by the task's reads, released by the
     * loop when the stream ends.
     */
    private volatile InputBudget.Hold held;
    private int headOffset;
    private boolean ended;
    /** The client's trailer fields (without the forbidden ones), set with {@link #ended}; empty for none. */
    private Headers trailers = NONE;
    /** The trailer section went past H2MaxHeaderListSize: the end of the body is a 431. */
    private boolean trailersTooLarge;
    /** Task only: a read returned -1, so {@link #trailers()} may show them. */
    private boolean readToEnd;
    private boolean cancelled;
    /** Task only: bytes consumed and not yet returned to the client as window. */
    private long unacknowledged;
    /** Task only: bytes consumed in total. */
    private long consumed;
    private long timeoutNanos = TimeUnit.SECONDS.toNanos(60);
    /** {@code RequestReadTimeout body=}; off until the task sets it. */
    private RequestReadTimeout.Stage stage = RequestReadTimeout.Stage.OFF;
    /** Task only: when the body stage started (the first read that had to wait), 0 before. */
    private long stageStart;
    /** Task only: {@link #consumed} when the stage started (what MinRate extends by is received after). */
    private long stageBase;
    /** Task only: a read lent the slot already (the client is slow): later waits lend it at once. */
    private boolean slow;
    /** Task only: run before the first read (sends {@code 100 Continue}), then cleared. */
    private Runnable beforeFirstRead;

    /** @param limit LimitRequestBody (0 = none) */
    RequestBody(Stream stream, long limit) {
        this.stream = stream;
        this.limit = limit;
    }

    void timeout(long nanos) {
        timeoutNanos = nanos;
    }

    /** Task side: the body read stage ({@code RequestReadTimeout body=}). */
    void stage(RequestReadTimeout.Stage s) {
        stage = s;
    }

    /** Task side: {@code hook} runs once, before the handler's first read. */
    void beforeFirstRead(Runnable hook) {
        beforeFirstRead = hook;
    }

    // ---- frame loop side ----

    /**
     * Adds one DATA frame's payload, charged to the child's input budget until the handler reads
     * it or the stream ends.
     *
     * @return whether the budget had room: if not, nothing was added (the stream is reset)
     */
    boolean offer(byte[] data) {
        InputBudget.Hold h = held;
        if (h == null) {
            h = new InputBudget.Hold(stream.session().c.services().inputBudget(), InputBudget.Consumer.STREAM_BUFFER);
            held = h;
        }
        if (!h.grow(data.length)) {
            return false;
        }
        lock.lock();
        try {
            chunks.add(data);
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        return true;
    }

    /**
     * The client's trailer section (a HEADERS frame with END_STREAM), given just before
     * {@link #end}.
     *
     * @param fields the trailer fields the handler may see
     * @param tooLarge whether the section exceeded H2MaxHeaderListSize (fields were lost)
     */
    void trailers(Headers fields, boolean tooLarge) {
        lock.lock();
        try {
            trailers = fields;
            trailersTooLarge = tooLarge;
        } finally {
            lock.unlock();
        }
    }

    /** The client ended the body (END_STREAM). */
    void end() {
        lock.lock();
        try {
            ended = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** The stream is gone: a parked reader fails, and what was received unread goes back to the input budget. */
    void cancel() {
        lock.lock();
        try {
            cancelled = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        InputBudget.Hold h = held;
        if (h != null) {
            h.releaseAll();
        }
    }

    // ---- task side ----

    /**
     * The trailer fields once the handler has read the body to its end (empty before, and when the
     * client sent none). Task side.
     */
    Headers trailers() {
        if (!readToEnd) {
            return new Headers(1);
        }
        lock.lock();
        try {
            return trailers == NONE ? new Headers(1) : trailers;
        } finally {
            lock.unlock();
        }
    }

    /** Request body bytes the handler has read. */
    long consumed() {
        return consumed;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        if (beforeFirstRead != null) {
            Runnable hook = beforeFirstRead;
            beforeFirstRead = null;
            hook.run();
        }
        int n;
        // A wait past LEND_AFTER_NANOS lends the task's slot (not the loop's, when the loop runs
        // the handler itself: its request is whole, so its reads never wait).
        StreamTask task = stream.task;
        boolean lendable = task != null && !task.inline;
        boolean lent = false;
        lock.lock();
        try {
            long now = System.nanoTime();
            long deadline = now + timeoutNanos;
            long lendAt = slow ? now : now + Stream.LEND_AFTER_NANOS;
            long stageDeadline = 0;
            if (chunks.isEmpty() && stage.enabled()) {
                if (stageStart == 0) {
                    stageStart = now;
                    stageBase = consumed;
                }
                stageDeadline = stage.deadline(stageStart, consumed - stageBase);
                if (stageDeadline - deadline < 0) {
                    deadline = stageDeadline;
                }
            }
            while (chunks.isEmpty()) {
                if (cancelled) {
                    throw new StreamResetException(stream.id());
                }
                if (ended) {
                    if (trailersTooLarge) {
                        throw new HttpException(431, "request trailer fields exceed H2MaxHeaderListSize");
                    }
                    readToEnd = true;
                    return -1;
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    if (stageDeadline != 0 && deadline == stageDeadline) {
                        stream.session().c.services().intervalLog().log(LOG, Level.INFO, "LM2003 {0} stream {1}:"
                                + " request body not received within RequestReadTimeout body={2} ({3} bytes in {4} ms)", stream.session(), stream.id(), stage,
                                consumed - stageBase, (System.nanoTime() - stageStart) / 1_000_000);
                        throw new SocketTimeoutException("stream " + stream.id()
                                + ": request body not received within RequestReadTimeout body=" + stage);
                    }
                    throw new SocketTimeoutException("stream " + stream.id() + ": no body data within Timeout");
                }
                if (lendable) {
                    long untilLend = lendAt - System.nanoTime();
                    if (untilLend <= 0) {
                        lent = task.lendSlot(); // refused (MaxSlotlessWaits): the task waits on its slot
                        slow |= lent;
                        lendable = false;
                    } else {
                        left = Math.min(left, untilLend);
                    }
                }
                try {
                    changed.awaitNanos(left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted while reading the request body");
                }
            }
            byte[] head = chunks.peek();
            n = Math.min(len, head.length - headOffset);
            System.arraycopy(head, headOffset, b, off, n);
            headOffset += n;
            if (headOffset == head.length) {
                chunks.poll();
                headOffset = 0;
            }
        } finally {
            lock.unlock();
            if (lent) {
                task.reclaimSlot(); // outside the lock: it may wait, and the frame loop offers under it
            }
        }
        held.shrink(n); // n > 0: the bytes came from an offer, which made it
        consumed += n;
        if (limit > 0 && consumed > limit) {
            throw new HttpException(413, "request body larger than LimitRequestBody");
        }
        unacknowledged += n;
        // Half the announced window, not the stream's initial one: a stream opened before the
        // client had our SETTINGS starts at 65,535 here, but the client counts the announced
        // window for it once they arrive (RFC 9113 §6.9.2) and may never reach a larger half.
        if (unacknowledged >= stream.session().limits.windowSize() / 2) {
            stream.enqueue(Out.windowUpdate(stream, (int) unacknowledged));
            unacknowledged = 0;
        }
        return n;
    }

    @Override
    public int available() {
        lock.lock();
        try {
            int n = 0;
            for (byte[] c : chunks) {
                n += c.length;
            }
            return n - headOffset;
        } finally {
            lock.unlock();
        }
    }
}
