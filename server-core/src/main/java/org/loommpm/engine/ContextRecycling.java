package org.loommpm.engine;

import java.util.concurrent.atomic.LongAdder;

/**
 * One poller's supply of {@link ConnectionContext}s: its {@link RecycleList} (motorz's MPSC
 * recycle list) and the counts of what it reused, allocated and dropped.
 *
 * <p><b>Threads.</b> {@link #take} is for the owning poller's thread only (the list's single
 * consumer; the hit and miss counts are its plain increments of volatile fields, one writer).
 * {@link #give} is for any thread (the list's producers; drops are counted in a
 * {@link LongAdder} because many threads may drop at once). The counts are read by anyone.
 */
final class ContextRecycling {
    private final RecycleList<ConnectionContext> list;
    private final int bufferSize;
    private final LongAdder drops = new LongAdder();
    private volatile long hits;
    private volatile long misses;

    ContextRecycling(int capacity, int bufferSize) {
        this.list = new RecycleList<>(capacity);
        this.bufferSize = bufferSize;
    }

    /** A cleared context from the list, or a new one when it is empty. Owning poller only. */
    ConnectionContext take() {
        ConnectionContext ctx = list.pop();
        if (ctx == null) {
            misses++;
            return new ConnectionContext(bufferSize);
        }
        hits++;
        ctx.clear();
        return ctx;
    }

    /** Returns a context for reuse, or drops it to the GC when the list is full. Any thread. */
    void give(ConnectionContext ctx) {
        if (!list.push(ctx)) {
            drops.increment();
        }
    }

    long hits() {
        return hits;
    }

    long misses() {
        return misses;
    }

    long drops() {
        return drops.sum();
    }

    int size() {
        return list.size();
    }
}
