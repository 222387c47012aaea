package org.loommpm.engine;

import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import org.loommpm.spi.CloseReason;

/**
 * How a poller ends its connections when its child stops: the graceful-stop sweep (idle
 * connections closed or ended by their protocol), the drain sweep of a retiring child (detached
 * connections whose protocol ends them itself), each once, the forced close when the loop
 * ends, and the hand-offs that raced with the exit.
 *
 * <p><b>Threads.</b> Poller-confined: one per {@link Poller}, every method called on that
 * poller's thread only (the sweeps from its loop, the rest from its exit path), over the keys
 * of that poller's selector and its inbox (taken whole, as the loop does). Connections a
 * worker owns are not touched beyond {@link Connection#end} (a CAS) and waking a parked worker.
 */
final class PollerShutdown {
    private final Poller poller;
    private final Child child;
    private final Selector selector;
    private final HandoffQueue inbox;
    private boolean idleClosedForStop;
    /** Set once a draining child's detached, gracefully closing connections were asked to end. */
    private boolean detachedClosedForDrain;

    PollerShutdown(Poller poller, Child child, Selector selector, HandoffQueue inbox) {
        this.poller = poller;
        this.child = child;
        this.selector = selector;
        this.inbox = inbox;
    }

    /** Once per loop iteration: runs a sweep the child's stop or drain calls for, once each. */
    void sweep() {
        if (child.isStopping() && !idleClosedForStop) {
            closeIdleForStop();
        } else if (child.isDraining() && !detachedClosedForDrain) {
            closeDetachedForDrain();
        }
    }

    /**
     * Graceful restart (a retiring child): detached connections whose protocol ends them itself
     * (a WebSocket: close frame 1001) are dispatched to do so; without this an idle WebSocket
     * would keep the old generation's child alive until its idle timeout. Idle keep-alive
     * connections are left to time out as before (a request may be on its way on one).
     */
    private void closeDetachedForDrain() {
        detachedClosedForDrain = true;
        for (SelectionKey k : selector.keys()) {
            if (k.attachment() instanceof Connection c && c.state == ConnState.DETACHED
                    && c.protocol().closesGracefully() && !c.closeRequested) {
                poller.requestGracefulClose(c);
            }
        }
    }

    /**
     * Graceful stop: idle keep-alive connections are closed, or handed to their protocol to end
     * gracefully (HTTP/2, also when MULTIPLEXED); the rest finish their work.
     */
    private void closeIdleForStop() {
        idleClosedForStop = true;
        for (SelectionKey k : selector.keys()) {
            if (k.attachment() instanceof Connection c) {
                boolean idle = c.state == ConnState.KEEPALIVE || c.state == ConnState.MULTIPLEXED
                        || c.state == ConnState.DETACHED;
                if (idle && c.protocol().closesGracefully()) {
                    poller.requestGracefulClose(c);
                } else if (c.state == ConnState.KEEPALIVE || c.state == ConnState.PROXY_HEADER) {
                    poller.close(c, CloseReason.NORMAL);
                }
            }
        }
    }

    /**
     * Forced end (the loop is leaving): close every connection under {@code exitReason}; wake
     * parked workers so they unwind. Hand-offs still in the inbox are applied first.
     */
    void closeAll(CloseReason exitReason) {
        poller.drainInbox();
        for (SelectionKey k : selector.keys()) {
            if (k.attachment() instanceof Connection c) {
                switch (c.state) {
                    case SUSPENDED, WRITE_COMPLETION -> {
                        c.end(exitReason);
                        c.wakeWorker(Wake.CLOSED);
                    }
                    case PROCESSING -> c.end(exitReason); // worker-owned: its own reason is not ours to set
                    case LINGER -> poller.close(c); // the exchange was over: keep the reason decided then
                    default -> poller.close(c, exitReason);
                }
            }
        }
    }

    /**
     * After the loop: hand-offs that raced with the exit end their connection, and a worker
     * that asked to park is woken with an error (it checks {@link Poller#hasExited()} after its
     * push, so between that check and this drain no parked worker is missed).
     */
    void endHandoffsAfterExit() {
        Connection c = inbox.takeAll();
        while (c != null) {
            Connection next = c.handoffNext;
            c.handoffNext = null;
            c.end(CloseReason.ABORT);
            poller.releaseOwnedContext(c);
            if (c.op.parksWorker()) {
                c.wakeWorker(Wake.CLOSED);
            }
            c = next;
        }
    }
}
