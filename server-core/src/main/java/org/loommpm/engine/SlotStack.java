package org.loommpm.engine;

import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The free worker slots of one {@link WorkerPool}: a lock-free stack of slot indexes.
 *
 * <p><b>Contract.</b> Many threads pop (dispatchers: pollers, and workers draining the pending
 * queue) and many push (workers releasing a slot), so unlike {@link RecycleList} this stack
 * needs ABA protection: the head word packs a 32-bit modification tag above the top index
 * (index + 1; 0 means empty) and every successful CAS bumps the tag. {@code next[i]} is written
 * before the CAS that publishes {@code i}, so a popper that read the head sees it.
 */
final class SlotStack {
    private final AtomicLong head = new AtomicLong();
    private final AtomicIntegerArray next;

    /** A stack holding every slot {@code 0..size-1}. */
    SlotStack(int size) {
        next = new AtomicIntegerArray(size);
        for (int i = size - 1; i >= 0; i--) {
            push(i);
        }
    }

    /** Takes a free slot, or -1 when none is free. */
    int pop() {
        for (;;) {
            long h = head.get();
            int top = (int) h;
            if (top == 0) {
                return -1;
            }
            int below = next.get(top - 1);
            long tag = (h >>> 32) + 1;
            if (head.compareAndSet(h, (tag << 32) | (below & 0xFFFFFFFFL))) {
                return top - 1;
            }
        }
    }

    /** Returns a slot taken by {@link #pop}. */
    void push(int slot) {
        for (;;) {
            long h = head.get();
            next.set(slot, (int) h);
            long tag = (h >>> 32) + 1;
            if (head.compareAndSet(h, (tag << 32) | ((slot + 1) & 0xFFFFFFFFL))) {
                return;
            }
        }
    }
}
