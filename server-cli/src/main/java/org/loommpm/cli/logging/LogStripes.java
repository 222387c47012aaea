package org.loommpm.cli.logging;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The buffers between the threads that log and one {@link AsyncLogWriter}'s thread: a few
 * stripes, each a growable byte buffer of whole lines behind a try-lock of one compare-and-set.
 *
 * <p><b>Contract.</b> Many producers (workers, pollers, the supervisor) {@link #acquire} a
 * stripe, append one or more whole lines to its {@link LogLine}, and {@link #release} it; one
 * consumer, the writer thread, acquires a stripe the same way and {@link #swap}s its buffer for
 * an empty one, then writes the full one with no stripe held. A stripe's buffer is touched only
 * by the thread that holds the stripe; the holder's writes are published to the next holder by
 * the volatile release and the acquiring compare-and-set. Nobody waits long for a stripe: a
 * producer holds one only while it formats a line (no I/O, no blocking), the writer only for a
 * swap.
 *
 * <p><b>Why stripes rather than a queue of lines.</b> A line formatted straight into a shared
 * buffer costs no object per line and no pointer chasing for the writer, which reads one run of
 * bytes per stripe; a queue of line objects cost each request a line, its array and a node, and
 * the writer a cache miss on each of them (on another core), which made the hand-off cost more
 * than the formatting.
 *
 * <p><b>Which stripe.</b> A producer names a key (the access log uses its client connection's,
 * the error log its thread's) and waits for that key's stripe while it is held, spinning, then
 * yielding: a key's lines go to one stripe, so they keep their order. Only when that stripe
 * stays held through all of that (its holder's thread was descheduled) does the producer try the
 * others in turn, and after {@value #PASSES} passes over all of them it gives up: the caller
 * drops the line and counts it, so a producer never blocks. A key whose stripe is full
 * ({@link #acquireRoom}) overflows into another with room, so the line is dropped only when
 * all are full. Lines of different keys reach the file in stripe order within a batch, not in
 * the order they were made.
 */
final class LogStripes {
    /** Tries of a held preferred stripe with a spin between them (a few ns each). */
    private static final int SPINS = 64;
    /** Then tries with a yield between them, in case the holder waits for this core. */
    private static final int YIELDS = 16;
    /** Passes over all stripes before a producer gives up. */
    private static final int PASSES = 4;

    /** One stripe; padded so that two stripes' locks never share a cache line. */
    static final class Stripe {
        @SuppressWarnings("unused")
        private long p0, p1, p2, p3, p4, p5, p6;
        /** 0 free, 1 held; read directly, written through {@link #HELD}. */
        private volatile int held;
        /** Whole lines waiting for the writer; touched only by the stripe's holder. */
        private LogLine line;
        @SuppressWarnings("unused")
        private long q0, q1, q2, q3, q4, q5, q6;

        Stripe(int capacity) {
            this.line = new LogLine(capacity);
        }
    }

    private static final VarHandle HELD;

    static {
        try {
            HELD = MethodHandles.lookup().findVarHandle(Stripe.class, "held", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Stripe[] stripes;
    private final int mask;

    /**
     * @param count stripes (rounded up to a power of two)
     * @param initialBytes each stripe's first buffer size (it grows as needed)
     */
    LogStripes(int count, int initialBytes) {
        int n = Integer.highestOneBit(Math.max(1, count - 1)) << 1;
        stripes = new Stripe[n];
        for (int i = 0; i < n; i++) {
            stripes[i] = new Stripe(initialBytes);
        }
        mask = n - 1;
    }

    /** How many stripes there are. */
    int count() {
        return stripes.length;
    }

    /**
     * Acquires the stripe for {@code key} (or another when it stays held); never blocks.
     *
     * @return the stripe's index, or -1 when none could be had
     */
    int acquire(int key) {
        int i = (key * 0x9E3779B9 >>> 16) & mask;
        Stripe s = stripes[i];
        for (int tries = 0; tries < SPINS + YIELDS; tries++) {
            if (s.held == 0 && HELD.compareAndSet(s, 0, 1)) {
                return i;
            }
            if (tries < SPINS) {
                Thread.onSpinWait();
            } else {
                Thread.yield(); // its holder may be waiting for this core
            }
        }
        for (int tries = PASSES * stripes.length; tries > 0; tries--) {
            i = (i + 1) & mask;
            s = stripes[i];
            if (s.held == 0 && HELD.compareAndSet(s, 0, 1)) {
                return i;
            }
            Thread.onSpinWait();
        }
        return -1;
    }

    /**
     * Acquires the stripe for {@code key} as {@link #acquire} does, if it holds fewer than
     * {@code limit} bytes; else one of the others that does (a key's lines leave their order only
     * then, when its stripe overflows before the writer comes). Never blocks.
     *
     * @return the stripe's index, or -1 when none could be had or every free one is full
     */
    int acquireRoom(int key, int limit) {
        int i = acquire(key);
        if (i < 0 || stripes[i].line.length() < limit) {
            return i;
        }
        release(i);
        for (int n = 1; n < stripes.length; n++) {
            int j = (i + n) & mask;
            if (tryAcquire(j)) {
                if (stripes[j].line.length() < limit) {
                    return j;
                }
                release(j);
            }
        }
        return -1;
    }

    /** Acquires stripe {@code i} if it is free; for the writer. */
    boolean tryAcquire(int i) {
        return HELD.compareAndSet(stripes[i], 0, 1);
    }

    /** The buffer of stripe {@code i}; only its holder may call this or touch what it returns. */
    LogLine line(int i) {
        return stripes[i].line;
    }

    /**
     * Releases stripe {@code i}: a volatile store, ordered before whatever the releasing thread
     * reads next (the producer's look at the writer's sleep flag, in {@link AsyncLogWriter}).
     */
    void release(int i) {
        HELD.setVolatile(stripes[i], 0);
    }

    /** Gives held stripe {@code i} the empty buffer {@code empty}; returns the one it had. */
    LogLine swap(int i, LogLine empty) {
        Stripe s = stripes[i];
        LogLine full = s.line;
        s.line = empty;
        return full;
    }
}
