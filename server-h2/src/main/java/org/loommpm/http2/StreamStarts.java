package org.loommpm.http2;

import java.lang.System.Logger.Level;
import org.loommpm.api.Handler;
import org.loommpm.spi.SlotBoard;
import org.loommpm.spi.WorkerTask;

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
    private static final System.Logger LOG = System.getLogger("org.loommpm.http2");

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
     * Starts the held stream: inline on this worker when the loop holds a worker slot, its
     * request is complete, no other stream task runs, no further frame has begun to arrive and no
     * earlier inline run is still ending (see {@link InlineRun}); else as its own task.
     *
     * <p>A loop without a slot ({@link WorkerTask#NO_SLOT}: an owner task runs at once even when
     * every slot is taken) never runs a handler itself: that handler would run outside the
     * worker limit and show on no scoreboard row. Its task waits for a slot like any other.
     *
     * @param slot the loop's worker slot (the inline handler is shown in it), or {@link WorkerTask#NO_SLOT}
     * @return what was done
     */
    Start startHeld(int slot) {
        Stream s = held;
        held = null;
        if (slot == WorkerTask.NO_SLOT || !mayRunInline(s)) {
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
     * Runs {@code task} on this thread, its run begun. The run is ended ({@link InlineRun#end})
     * however the task leaves, or the watcher would later escape a run that is over and give a
     * connection that may be closed a new owner.
     *
     * @return whether this thread still owns the connection
     */
    private boolean run(StreamTask task, int slot) {
        InlineRun inline = session.inline;
        session.tasksRunning.incrementAndGet();
        session.counters.inlineStream();
        try {
            task.run(slot);
        } catch (RuntimeException | Error e) {
            // Not the handler's own failure (the exchange runner answers those): a bug, or a
            // VirtualMachineError. The loop still owning the connection ends it (serve's last
            // resort); an escaped one is only the stream's task now and must not touch it. Out of
            // memory goes up as it is, ending the server (fail-stop): the worker's own frame then
            // ends the connection it still owns (engine.Connection#run).
            boolean owner = inline.end();
            if (owner && e instanceof Error && !(e instanceof OutOfMemoryError)) {
                throw new IllegalStateException("handler failed inline", e); // serve's catch ends the connection
            }
            if (owner || e instanceof Error) {
                throw e;
            }
            LOG.log(Level.ERROR, "LM0713 " + session + " stream " + task.stream().id()
                    + ": its task failed after the frame loop moved on", e);
            return false;
        }
        return inline.end();
    }

    /**
     * Gives {@code s} a task of its own. The first task of a connection that has nothing running
     * is a newcomer ({@link WorkerTask#newcomer}): it waits in the pool's newcomer lane, so a
     * connection that opens its first stream does not wait behind another connection's hundred.
     */
    private void dispatch(Stream s) {
        boolean first = session.tasksRunning.incrementAndGet() == 1;
        session.connection().services().dispatch(new StreamTask(s, session.protocol, false, first));
    }
}
