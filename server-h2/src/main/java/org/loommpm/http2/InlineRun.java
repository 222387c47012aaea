package org.loommpm.http2;

import java.lang.System.Logger.Level;
import java.util.concurrent.atomic.AtomicReference;
import org.loommpm.spi.ProtocolConnection;

/**
 * A stream's handler run by the connection's frame loop on its own worker (no {@link StreamTask}
 * of its own, no second hand-off): the single-request fast path of {@link Session#serve}; or,
 * for a non-blocking route, by the poller that claimed the connection
 * ({@link Session#serveOnPoller}: no worker at all).
 *
 * <p><b>When.</b> The loop runs inline only the last stream a read batch started, and only when
 * the loop holds a worker slot, its request is complete (END_STREAM received: the handler's body
 * reads never wait on the client), no other stream task is running, no byte of a further frame
 * is buffered, and no earlier inline run is still ending. Every other stream gets its own task
 * as before, so concurrent streams stay concurrent.
 *
 * <p><b>States</b> ({@link State}, one run at a time per connection):
 * <ul>
 *   <li>IDLE → RUNNING: the loop, before it calls the handler ({@link #begin}).</li>
 *   <li>RUNNING → IDLE: the loop, the handler returned ({@link #end} returns {@code true}): the
 *       loop goes on, frames what the handler queued and writes it in the round's one flush.</li>
 *   <li>RUNNING → ESCAPED ({@link #escape}): the handler is about to park for the loop (its body
 *       waits to be written: {@link Stream#awaitQueued}), or {@link InlineWatch} saw it run for
 *       more than {@link InlineWatch#ESCAPE_AFTER_NANOS}. The connection's ownership passes at
 *       that CAS to a new owner task ({@link ProtocolConnection#redispatchOwner}), which reads
 *       the other streams' frames and writes this one's output; the old loop thread is from then
 *       on only this stream's task.</li>
 *   <li>ESCAPED → IDLE: the old loop thread once the handler returned ({@link #end} returns
 *       {@code false}): it leaves without touching the connection.</li>
 * </ul>
 *
 * <p><b>On the poller</b> ({@link #beginOnPoller}) there is no escape: the poller thread cannot
 * hand its run to anyone, and the watcher does not see the run (the poller's own check,
 * {@code NonBlockingHandlerLimit}, reports a handler that broke its promise). Nothing may park
 * instead: {@link #onPoller} tells the stream not to wait for its output to be written
 * ({@link Stream#awaitQueued}), and the response stays queued whole (a non-blocking handler
 * promised a bounded one); RUNNING → IDLE always.
 *
 * <p><b>Threads.</b> {@link #begin}, {@link #beginOnPoller} and {@link #end} run on the loop's
 * thread (the poller's for a poller run); {@link #escape} on that thread or the watcher's;
 * {@link #running} and {@link #onPoller} anywhere (the output queue skips its signal while
 * RUNNING: the loop drains the queue after the run anyway). The CAS out of RUNNING decides who
 * continues as the connection's owner.
 */
final class InlineRun {
    private static final System.Logger LOG = System.getLogger("org.loommpm.http2");

    /** See the class comment. */
    enum State { IDLE, RUNNING, ESCAPED }

    private final AtomicReference<State> state = new AtomicReference<>(State.IDLE);
    private final ProtocolConnection c;
    private final InlineWatch watch;
    /**
     * The stream run inline (null when none); written by the loop before RUNNING is published.
     * The run's age is its {@link Stream#startNanos}: the stream opened in the batch the loop
     * has just processed, so no clock is read to begin a run.
     */
    private volatile Stream stream;
    /** Whether the run in progress is on the poller; written before RUNNING is published. */
    private volatile boolean poller;

    InlineRun(ProtocolConnection c, InlineWatch watch) {
        this.c = c;
        this.watch = watch;
    }

    /** {@return whether no run is active or still ending: a new one may begin} Loop only. */
    boolean idle() {
        return state.get() == State.IDLE;
    }

    /** {@return whether a handler runs inline with the loop still waiting for it} Any thread. */
    boolean running() {
        return state.get() == State.RUNNING;
    }

    /** The loop is about to call {@code s}'s handler on its own thread. Loop only. */
    void begin(Stream s) {
        poller = false;
        stream = s;
        state.set(State.RUNNING);
        watch.add(this);
    }

    /** The poller is about to call {@code s}'s handler on its own thread (no watcher: it cannot escape). */
    void beginOnPoller(Stream s) {
        poller = true;
        stream = s;
        state.set(State.RUNNING);
    }

    /** {@return whether {@code s}'s handler runs on the poller now: it must not park} Any thread. */
    boolean onPoller(Stream s) {
        return poller && stream == s;
    }

    /**
     * The handler returned. Loop thread only.
     *
     * @return whether this thread still owns the connection ({@code false}: it escaped meanwhile)
     */
    boolean end() {
        if (!poller) {
            watch.remove(this);
        }
        stream = null;
        poller = false;
        if (state.compareAndSet(State.RUNNING, State.IDLE)) {
            return true;
        }
        // ESCAPED: no new run can begin before this (see idle()), so a plain set is enough.
        state.set(State.IDLE);
        return false;
    }

    /** {@code s}'s handler is about to park for the loop: if it runs inline, the loop must go on elsewhere. */
    void beforePark(Stream s) {
        if (stream == s) {
            escape("its response waits to be written");
        }
    }

    /** Called by the watcher: escapes a run older than {@code afterNanos}. */
    void escapeIfSlow(long now, long afterNanos) {
        // State first: a RUNNING seen means the stream read after it is that run's (or null, ended).
        if (state.get() != State.RUNNING) {
            return;
        }
        Stream s = stream;
        if (s != null && now - s.startNanos >= afterNanos) {
            escape("its handler runs for more than " + afterNanos / 1_000_000 + " ms");
        }
    }

    /** RUNNING → ESCAPED: the connection goes on as a new owner task (the CAS hands it over). */
    private void escape(String why) {
        if (state.compareAndSet(State.RUNNING, State.ESCAPED)) {
            Stream s = stream;
            LOG.log(Level.DEBUG, "LM2510 h2 connection {0} stream {1}: the frame loop goes on in a new task, {2}",
                    c.id(), s == null ? "?" : s.id(), why);
            c.redispatchOwner();
        }
    }
}
