package org.loommpm.http2;

import org.loommpm.api.Handler;
import org.loommpm.spi.SlotBoard;

/**
 * How the frame loop starts the streams a read batch opened: each as its own {@link StreamTask},
 * except the batch's last one, which the loop may run itself ({@link InlineRun}), or the poller
 * for a non-blocking route ({@link #runHeldOnPoller}). The stream
 * opened last is held back ({@link #opened}) until the batch is processed ({@link #startHeld}),
 * so that the loop knows whether its request is complete and whether more frames follow.
 *
 * <p>Frame loop only (the connection's owner, a worker or its poller), like the rest of the
 * {@link Session}.
 */
final class StreamStarts {
    /** What {@link #startHeld} did. */
    enum Start {
        /** Given to a task of its own. */
        DISPATCHED,
        /** Run on this worker; the handler returned, and this thread still owns the connection. */
        INLINE,
        /** Run on this worker, which meanwhile handed the connection to a new owner: leave at once. */
        ESCAPED
    }

    private final Session session;
    /** The stream the current read batch opened last, not yet started. */
    private Stream held;

    StreamStarts(Session session) {
        this.session = session;
    }

    /** A stream was opened: the one held before it gets its task now, this one is held. */
    void opened(Stream s) {
        if (held != null) {
            dispatch(held);
        }
        held = s;
    }

    /** {@return whether a stream waits for {@link #startHeld}} */
    boolean holding() {
        return held != null;
    }

    /** The connection ends: the held stream is closed with the others and never starts. */
    void forget() {
        held = null;
    }

    /**
     * Starts the held stream: inline on this worker when its request is complete, no other
     * stream task runs, no further frame has begun to arrive and no earlier inline run is still
     * ending (see {@link InlineRun}); else as its own task.
     *
     * @param slot the loop's worker slot (the inline handler is shown in it)
     * @return what was done
     */
    Start startHeld(int slot) {
        Stream s = held;
        held = null;
        if (!mayRunInline(s)) {
            dispatch(s);
            return Start.DISPATCHED;
        }
        session.inline.begin(s);
        return run(new StreamTask(s, session.protocol, true), slot) ? Start.INLINE : Start.ESCAPED;
    }

    /**
     * The poller's turn ({@link Session#serveOnPoller}): runs the held stream's handler on the
     * poller if it may run inline and its route is non-blocking; else leaves it held for the
     * worker the connection goes on with, whose {@link #startHeld} starts it.
     *
     * @param board the poller's board (the exchange is counted there)
     * @return whether it ran
     */
    boolean runHeldOnPoller(SlotBoard board) {
        Stream s = held;
        if (!mayRunInline(s) || s.tunnel != null) {
            return false;
        }
        Handler handler = session.protocol.nonBlockingHandler(s.request);
        if (handler == null) {
            return false;
        }
        held = null;
        session.inline.beginOnPoller(s);
        run(new StreamTask(s, session.protocol, true, board, handler), 0);
        return true;
    }

    private boolean mayRunInline(Stream s) {
        return !s.state.remoteOpen() && session.tasksRunning.get() == 0
                && !session.connection().context().in().hasRemaining() && session.inline.idle() && !s.isCancelled();
    }

    /**
     * Runs {@code task} on this thread, its run begun.
     *
     * @return whether this thread still owns the connection
     */
    private boolean run(StreamTask task, int slot) {
        InlineRun inline = session.inline;
        session.tasksRunning.incrementAndGet();
        session.counters.http2InlineStream();
        try {
            task.run(slot);
        } catch (Error e) {
            // Not caught by the exchange runner (a VirtualMachineError): the loop still owning the
            // connection ends it (serve's last resort) rather than leave it without an owner.
            if (inline.end()) {
                throw new IllegalStateException("handler failed inline", e);
            }
            throw e;
        }
        return inline.end();
    }

    private void dispatch(Stream s) {
        session.tasksRunning.incrementAndGet();
        session.connection().services().dispatch(new StreamTask(s, session.protocol, false));
    }
}
