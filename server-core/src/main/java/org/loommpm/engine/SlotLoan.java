package org.loommpm.engine;

import java.util.concurrent.locks.LockSupport;
import org.loommpm.spi.SlotMove;

/**
 * A connection's wait on its client without its worker slot: the park of
 * {@link Connection#await(HandOff, SlotMove)} for a request body's read
 * ({@link Connection#read(java.nio.ByteBuffer, long, SlotMove)}).
 *
 * <p>The worker first parks for at most {@link WorkerPool#LEND_AFTER_NANOS}: a body that is
 * arriving parks only between two segments and keeps its slot, since under load a reclaim waits
 * behind every pending task (no grace once the body has been slow: {@link SlotMove#lendAtOnce}).
 * Still not woken then, it lends its slot ({@link WorkerPool#lend},
 * refused past MaxSlotlessWaits: then it waits on its slot as before) and parks until the poller
 * wakes it (readiness, the deadline, a close: the same wake-up either way). It reclaims a slot
 * before the outcome is reported, so a timeout or a close is answered on a slot, records it in
 * its worker's {@link WorkerPool.Hold} and tells the protocol ({@link SlotMove}).
 *
 * <p><b>Threads.</b> The connection's owner only, on its worker's thread: the hold is that
 * worker's, and the connection's socket stays its poller's while the worker is parked.
 */
final class SlotLoan {
    private SlotLoan() {
    }

    /**
     * Parks until {@code c}'s poller reports how the wait ended, lending the slot in
     * {@code hold} for most of it (see the class comment).
     *
     * @return the outcome the poller reported
     */
    static Wake park(Connection c, WorkerPool pool, WorkerPool.Hold hold, SlotMove moved) {
        long lendAt = System.nanoTime() + (moved.lendAtOnce() ? 0 : WorkerPool.LEND_AFTER_NANOS);
        boolean tried = false;
        boolean lent = false;
        Wake w;
        while ((w = c.wake) == Wake.NONE) {
            long left = lendAt - System.nanoTime();
            if (tried) {
                LockSupport.park(c);
            } else if (left > 0) {
                LockSupport.parkNanos(c, left);
            } else {
                tried = true;
                lent = pool.lend(hold.slot);
            }
        }
        if (lent) {
            hold.slot = pool.reclaim();
            moved.movedTo(hold.slot);
        }
        return w;
    }
}
