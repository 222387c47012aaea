package org.loommpm.http1;

import java.net.InetSocketAddress;
import org.loommpm.http.RequestHead;
import org.loommpm.spi.SlotBoard;
import org.loommpm.spi.SlotMove;

/**
 * The worker slot an HTTP/1.1 exchange with a request body runs on. A body read that waits on the
 * client lends the slot ({@link ConnectionInputStream}) and the task goes on with whichever one it
 * takes back: told so, this shows the exchange in the new slot's scoreboard row (its request, the
 * {@code W} of a running handler, and where the response marks {@code L}) and keeps the slot for
 * the exchange's later rows and for the connection's task ({@link Http1State#slot}). The
 * exchange's task only, like the rows it writes.
 */
final class ExchangeSlot implements SlotMove {
    private final SlotBoard board;
    private final RequestHead head;
    private final InetSocketAddress client;
    private final long startNanos;
    private final Http1Response res;
    private final Http1State st;
    private int slot;
    /** Whether a body read lent the slot already: later waits lend it at once. */
    private boolean slow;

    ExchangeSlot(SlotBoard board, int slot, RequestHead head, InetSocketAddress client, long startNanos,
                 Http1Response res, Http1State st) {
        this.board = board;
        this.slot = slot;
        this.head = head;
        this.client = client;
        this.startNanos = startNanos;
        this.res = res;
        this.st = st;
    }

    @Override
    public void movedTo(int s) {
        slow = true;
        slot = s;
        st.slot = s;
        board.requestStarted(s, head, client, startNanos);
        board.set(s, SlotBoard.WRITING);
        res.showIn(board, s);
    }

    @Override
    public boolean lendAtOnce() {
        return slow;
    }

    /** The slot the exchange holds now. */
    int slot() {
        return slot;
    }
}
