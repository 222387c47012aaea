package org.loommpm.engine;

import java.lang.System.Logger.Level;
import org.loommpm.spi.CloseReason;

/**
 * A poller's inline path: the protocol serves what a claimed connection has sent on the poller
 * itself (non-blocking handlers, whole requests), and its hand-back is applied at once: no
 * worker, no virtual thread, no hand-off queue. The poller owns the connection throughout, as a
 * worker would ({@link Connection#inline} makes its writes queue instead of parking). If the
 * protocol declines, the poller dispatches the connection to a worker as usual. Also the
 * {@code NonBlockingHandlerLimit} check (timed here, reported by {@link InlineStallReport}) and
 * the {@link InlineBoard} where these requests are counted.
 *
 * <p><b>Threads.</b> Poller-confined: one per {@link Poller}, called on its thread only, for
 * connections it has just claimed (PROCESSING). The board is read by any thread.
 */
final class InlineServing {
    private static final System.Logger LOG = System.getLogger("org.loommpm.engine");

    private final Poller poller;
    private final InlineBoard board = new InlineBoard();
    /** {@code NonBlockingHandlerLimit}: what took too long, and whether a GC pause explains it. */
    private final InlineStallReport stalls;

    InlineServing(Poller poller, InlineStallReport stalls) {
        this.poller = poller;
        this.stalls = stalls;
    }

    /** Where requests served inline are counted; read by any thread. */
    InlineBoard board() {
        return board;
    }

    /**
     * Serves the claimed connection inline if it is a candidate and its protocol takes it.
     *
     * @return {@code false} when it is not a candidate or the protocol declined: the caller dispatches
     */
    boolean serve(Connection c) {
        if (!candidate(c)) {
            return false;
        }
        long start = System.nanoTime();
        stalls.starting(start);
        board.serving(start);
        c.inline = true;
        boolean handedBack;
        try {
            handedBack = c.protocol().serveInline(c, board);
        } catch (RuntimeException | LinkageError | AssertionError e) {
            // A protocol bug must not end the poller: this connection alone is closed.
            LOG.log(Level.ERROR, "LM2502 connection " + c.id() + " failed while served inline by "
                    + poller.thread().getName() + "; closed", e);
            c.inline = false;
            c.op = HandOff.NONE;
            poller.close(c, CloseReason.ERROR);
            return true;
        } finally {
            c.inline = false;
            board.serving(0);
        }
        var r = board.current();
        stalls.served(start, System.nanoTime(), r != null ? r.method() : "?", r != null ? r.path() : "?");
        if (!handedBack || c.op == HandOff.NONE) {
            return false; // declined, or a response the socket did not take whole: a worker goes on
        }
        poller.apply(c);
        return true;
    }

    /**
     * Whether the protocol may be asked to serve {@code c} on the poller: plaintext (a poller
     * never runs the TLS engine), no output queued by other threads, no close request (a
     * worker's). A signalled connection is a candidate: the protocol resumes what the signal
     * ended (HTTP/1.1: a suspended exchange that was answered) or declines.
     */
    private static boolean candidate(Connection c) {
        Outbound q = c.outboundIfAny();
        return !c.isSecure() && !c.flushOnly && !c.closeRequested && (q == null || !q.hasItems());
    }
}
