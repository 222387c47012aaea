package org.loommpm.engine;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import org.loommpm.spi.CloseReason;

/**
 * A poller's service of its DETACHED connections (a suspended exchange, an event stream, an idle
 * WebSocket): entering the state, writing their {@link Outbound} queues, carrying out a close
 * asked from another thread, dispatching them when signalled, and counting them.
 *
 * <p><b>Threads.</b> Poller-confined: one per {@link Poller}, every method called on that
 * poller's thread only, on connections that poller owns (DETACHED, or entering or leaving it).
 * The queues are filled by producers on any thread; a producer's first offer after the last look
 * reaches this class as a poke ({@link Poller#poke}), so the queue is drained here, never by the
 * producer. {@link #count()} is written by the poller only and read by any thread.
 */
final class DetachedService {
    private static final System.Logger LOG = System.getLogger("org.loommpm.engine");

    private final Poller poller;
    private final Child child;
    private final TimerRing timers;
    private final LingeringClose lingeringClose;
    /** The gathering write of DETACHED connections' queues (left all null between uses). */
    private final ByteBuffer[] outboundScratch = new ByteBuffer[Outbound.BATCH];
    private final Outbound.Sink channelSink = new ChannelSink();
    /** The connection {@link #channelSink} writes to now (set around each drain). */
    private Connection writing;
    /** DETACHED connections now: one writer (the poller), so plain increments of a volatile. */
    private volatile int detached;

    DetachedService(Poller poller, Child child, TimerRing timers, LingeringClose lingeringClose) {
        this.poller = poller;
        this.child = child;
        this.timers = timers;
        this.lingeringClose = lingeringClose;
    }

    /** DETACHED connections of this poller now. Any thread. */
    int count() {
        return detached;
    }

    /**
     * DETACHED: the deadline is armed once here; the rest is {@link #service}, which also runs
     * on every poke and writable readiness.
     */
    void detach(Connection c) {
        c.state = ConnState.DETACHED;
        detached++;
        if ((child.isStopping() || child.isDraining()) && c.protocol().closesGracefully() && !c.closeRequested) {
            poller.requestGracefulClose(c);
            return;
        }
        if (c.detachDeadline != 0) {
            timers.scheduleAt(c, c.detachDeadline);
        }
        service(c);
    }

    /**
     * A DETACHED connection's turn: carry out a close asked from another thread, write its queue
     * (plaintext: here, without blocking, at most 1 MiB per turn, OP_WRITE armed while the socket
     * is full; TLS: a short flush task on a worker), then dispatch it if it was signalled, else
     * wait with the interest the protocol asked for.
     */
    void service(Connection c) {
        Outbound q = c.outboundIfAny();
        if (q != null) {
            int qs = q.state();
            if (qs == Outbound.CLOSE_NOW) {
                poller.close(c, q.closeReason());
                return;
            }
            if (c.isSecure() && (q.hasItems() || qs == Outbound.CLOSE_AFTER_FLUSH)) {
                dispatchFlush(c); // only a worker runs the TLS engine (records, close_notify)
                return;
            }
            if (q.hasItems()) {
                try {
                    writing = c;
                    q.drainTo(channelSink, outboundScratch, 1 << 20);
                } catch (IOException e) {
                    LOG.log(Level.DEBUG, "LM1600 {0}: queued bytes could not be written: {1}", c, e.toString());
                    poller.close(c, CloseReason.ABORT);
                    return;
                } finally {
                    writing = null;
                }
                if (q.hasItems()) {
                    Poller.interest(c, (c.detachRead ? SelectionKey.OP_READ : 0) | SelectionKey.OP_WRITE);
                    return;
                }
            }
            if (qs == Outbound.CLOSE_AFTER_FLUSH) {
                c.closeReason = q.closeReason();
                leave(c);
                try {
                    lingeringClose.start(c);
                } catch (IOException e) {
                    poller.close(c);
                }
                return;
            }
        }
        if (c.signalPending() || c.transport().hasBufferedInput()) {
            poller.claimAndDispatch(c);
            return;
        }
        Poller.interest(c, c.detachRead ? SelectionKey.OP_READ : 0);
    }

    /** Readiness of a DETACHED connection: writable serves its queue; readable (if asked for) dispatches. */
    void ready(Connection c, int readyOps) {
        if ((readyOps & SelectionKey.OP_WRITE) != 0) {
            service(c);
        }
        if (c.state == ConnState.DETACHED && c.detachRead && (readyOps & SelectionKey.OP_READ) != 0) {
            poller.claimAndDispatch(c);
        }
    }

    /**
     * Poller-owned states only: call before a DETACHED connection changes state. It counts as
     * PROCESSING until the caller sets the next state (so a second call counts nothing).
     */
    void leave(Connection c) {
        if (c.state == ConnState.DETACHED) {
            detached--;
            c.state = ConnState.PROCESSING;
        }
    }

    /** TLS: the queue is written by a short engine task on a worker, which hands the connection back DETACHED. */
    private void dispatchFlush(Connection c) {
        timers.cancel(c);
        leave(c);
        c.state = ConnState.PROCESSING;
        c.flushOnly = true;
        poller.dispatchUnclaimed(c);
    }

    /**
     * The poller's sink for a DETACHED plaintext connection's queue: the channel, never blocking.
     * A class rather than a method reference, which every poller's start would spin a class for.
     */
    private final class ChannelSink implements Outbound.Sink {
        @Override
        public long write(ByteBuffer[] srcs, int n) throws IOException {
            long w = writing.channel().write(srcs, 0, n);
            writing.addBytesWritten(w);
            return w;
        }
    }
}
