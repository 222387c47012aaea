package org.loommpm.cli.logging;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The queue between the threads that log and one {@link AsyncLogWriter}'s thread.
 *
 * <p><b>Contract.</b> Many producers (workers, pollers, the supervisor) {@link #offer} or
 * {@link #push}; one consumer, the writer thread, calls {@link #takeAll}. Producers link a node
 * onto a Treiber stack with one CAS and never wait (the lock of the {@code ArrayBlockingQueue}
 * this replaces made a worker queue behind the writer while it drained a batch); the consumer
 * detaches the whole stack with one atomic swap, so there is no ABA, and reverses it into
 * arrival order. Lines are bounded by a count that producers reserve before they link and the
 * consumer gives back for what it took; control items ({@link #push}) bypass the bound, so a
 * flush or a stop is never dropped.
 */
final class LineQueue {
    /** One queued item; {@code next} is written by its producer before the CAS publishes it. */
    static final class Node {
        final Object item;
        /** Whether it holds room in the bound (a line, not a control item). */
        final boolean counted;
        Node next;

        Node(Object item, boolean counted) {
            this.item = item;
            this.counted = counted;
        }
    }

    private static final VarHandle HEAD;

    static {
        try {
            HEAD = MethodHandles.lookup().findVarHandle(LineQueue.class, "head", Node.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // accessed through HEAD
    private volatile Node head;
    private final AtomicInteger lines = new AtomicInteger();
    private final int capacity;

    /** @param capacity lines held before {@link #offer} refuses */
    LineQueue(int capacity) {
        this.capacity = capacity;
    }

    /** Queues a line unless {@code capacity} lines wait already. Any thread; never blocks. */
    boolean offer(Object line) {
        if (lines.incrementAndGet() > capacity) {
            lines.decrementAndGet();
            return false;
        }
        link(new Node(line, true));
        return true;
    }

    /** Queues a control item, outside the bound. Any thread. */
    void push(Object item) {
        link(new Node(item, false));
    }

    private void link(Node n) {
        Node h;
        do {
            h = (Node) HEAD.getVolatile(this);
            n.next = h;
        } while (!HEAD.compareAndSet(this, h, n));
    }

    /**
     * Whether anything waits: a volatile read, so the writer's check before it sleeps is ordered
     * after its sleep flag is set (the Dekker pair in {@link AsyncLogWriter}).
     */
    boolean isEmpty() {
        return HEAD.getVolatile(this) == null;
    }

    /**
     * Detaches everything queued, oldest first, as a list linked by {@code next}, and gives the
     * lines' room back. Consumer only.
     */
    Node takeAll() {
        Node n = (Node) HEAD.getAndSet(this, (Node) null);
        Node reversed = null;
        int taken = 0;
        while (n != null) {
            Node next = n.next;
            n.next = reversed;
            reversed = n;
            n = next;
            taken += reversed.counted ? 1 : 0;
        }
        if (taken > 0) {
            lines.addAndGet(-taken);
        }
        return reversed;
    }
}
