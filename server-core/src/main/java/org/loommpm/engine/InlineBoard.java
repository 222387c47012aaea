package org.loommpm.engine;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.InetSocketAddress;
import org.loommpm.spi.SlotBoard;

/**
 * The "slot" of requests a poller serves inline (non-blocking handlers run on the poller thread,
 * see {@link Poller#claimAndDispatch}): they hold no worker slot, so they are not shown among
 * the scoreboard's letters; they are counted here instead, per poller, and added to the child's
 * request and byte totals ({@link Child#requests()}).
 *
 * <p><b>Writers and readers.</b> Written only by its poller's thread (plain single-writer
 * increments published with opaque stores, as {@link Scoreboard} does); read by any thread (the
 * status page, metrics, the {@link PollerWatchdog}). The slot argument is ignored: a poller serves
 * one inline request at a time.
 */
final class InlineBoard implements SlotBoard {
    private static final VarHandle REQUESTS;
    private static final VarHandle BYTES;
    private static final VarHandle STARTED;

    static {
        try {
            var lookup = MethodHandles.lookup();
            REQUESTS = lookup.findVarHandle(InlineBoard.class, "requests", long.class);
            BYTES = lookup.findVarHandle(InlineBoard.class, "bytes", long.class);
            STARTED = lookup.findVarHandle(InlineBoard.class, "started", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // through REQUESTS
    private long requests;
    @SuppressWarnings("unused") // through BYTES
    private long bytes;
    /**
     * When the poller entered the protocol's inline service ({@link System#nanoTime()}), 0 while
     * it is not in one: what the watchdog compares with its clock.
     */
    @SuppressWarnings("unused") // through STARTED
    private long started;
    /** The request being served inline, or the last one (for the watchdog's report). */
    private volatile RequestInfo current;

    @Override
    public void set(int slot, byte state) {
        // Inline requests show no letter: they take no worker slot.
    }

    @Override
    public void requestStarted(int slot, RequestInfo request, InetSocketAddress client, long startNanos) {
        current = request;
    }

    @Override
    public void requestDone(int slot, long bytesSent) {
        REQUESTS.setOpaque(this, (long) REQUESTS.getOpaque(this) + 1);
        BYTES.setOpaque(this, (long) BYTES.getOpaque(this) + bytesSent);
    }

    /** The poller enters ({@code nanos} != 0) or leaves (0) an inline service. Poller thread only. */
    void serving(long nanos) {
        STARTED.setOpaque(this, nanos);
    }

    /** When the inline service running now started, or 0. Any thread. */
    long servingSince() {
        return (long) STARTED.getOpaque(this);
    }

    /** Requests served inline. Any thread. */
    long requests() {
        return (long) REQUESTS.getOpaque(this);
    }

    /** Response bytes of requests served inline. Any thread. */
    long bytesSent() {
        return (long) BYTES.getOpaque(this);
    }

    /** The request served inline now or last, or {@code null}. Any thread. */
    RequestInfo current() {
        return current;
    }
}
