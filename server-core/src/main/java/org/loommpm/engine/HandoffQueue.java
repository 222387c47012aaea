package org.loommpm.engine;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A poller's inbox: connections handed to the poller by workers (re-arm, park for I/O, linger,
 * close) and by the accepting poller (register a new connection).
 *
 * <p><b>Contract.</b> Many producers {@link #push}, one consumer (the owning poller) calls
 * {@link #takeAll}. A connection is in the queue at most once at a time: the ownership protocol
 * guarantees that whoever hands a connection over stops touching it until the poller has
 * processed the hand-off. Producers link with CAS onto a Treiber stack; the consumer detaches the
 * whole stack with one atomic swap (so there is no ABA) and reverses it into arrival order.
 */
final class HandoffQueue {
    private static final VarHandle HEAD;

    static {
        try {
            HEAD = MethodHandles.lookup().findVarHandle(HandoffQueue.class, "head", Connection.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // accessed through HEAD
    private volatile Connection head;

    /** Hands {@code c} over. Any thread. */
    void push(Connection c) {
        Connection h;
        do {
            h = (Connection) HEAD.getVolatile(this);
            c.handoffNext = h;
        } while (!HEAD.compareAndSet(this, h, c));
    }

    /** Whether anything is waiting (a racy hint for the poller's sleep decision). */
    boolean isEmpty() {
        return HEAD.getVolatile(this) == null;
    }

    /**
     * Detaches everything queued, oldest first, as a list linked by {@code handoffNext}.
     * Owning poller only.
     */
    Connection takeAll() {
        Connection c = (Connection) HEAD.getAndSet(this, (Connection) null);
        Connection reversed = null;
        while (c != null) {
            Connection next = c.handoffNext;
            c.handoffNext = reversed;
            reversed = c;
            c = next;
        }
        return reversed;
    }
}
