package org.loommpm.spi;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * One child's bound on what its clients make it hold in memory before a handler or a protocol
 * consumes it (the {@code InputBudget} directive): WebSocket messages being assembled, HTTP/2
 * header blocks and request bodies not yet read, request bodies read whole. Each such buffer is
 * sized by the client, and each is bounded on its own (a message limit, a header list limit,
 * {@code LimitRequestBody}), but their sum over thousands of sockets is not: 15,000 sockets each
 * holding an unfinished 1 MiB message ask for 15 GB. A consumer {@link #reserve reserves} the bytes before it buffers them and
 * {@link #release releases} them when it lets the buffer go, on every path (completion, error,
 * close, reset); a refused reservation is answered by the consumer's protocol (WebSocket close
 * 1009, 413, 431, RST_STREAM) and counted here by {@link Consumer kind}. Consumers normally hold
 * their reservation through a {@link Hold}, which releases exactly what it reserved, once.
 *
 * <p><b>Threads.</b> Lock-free, any thread: {@link #used} is one {@link AtomicLong} that a
 * reservation raises by compare-and-set only while the sum stays within the limit (so the bound
 * holds exactly, never overshot by concurrent reservers) and a release lowers by
 * {@code addAndGet}; every consumer pushes and pops its own bytes, no thread owns the count. The
 * high-water mark is raised by compare-and-set after a grant; refusals are {@link LongAdder}s.
 * Reached by protocols through {@link ChildServices#inputBudget()}; read by the status page and
 * metrics through the engine's child stats.
 */
public final class InputBudget {
    /** What asked for the bytes: each kind's refusals are counted apart. */
    public enum Consumer {
        /** A WebSocket message being assembled (its fragments, inflated by permessage-deflate). */
        WEBSOCKET_MESSAGE("websocket"),
        /** An HTTP/2 header block being assembled (HEADERS + CONTINUATION) and its decoded list. */
        HEADER_BLOCK("header-block"),
        /** A request body read whole ({@code Request.bodyBytes()}, {@code bodyString()}). */
        REQUEST_BODY("request-body"),
        /** An HTTP/2 stream's request body received and not yet read by its handler. */
        STREAM_BUFFER("stream-buffer");

        private final String label;

        Consumer(String label) {
            this.label = label;
        }

        /** {@return the name metrics and the status page show (a meter tag)} */
        public String label() {
            return label;
        }
    }

    private final long limit;
    private final AtomicLong used = new AtomicLong();
    private final AtomicLong highWater = new AtomicLong();
    private final LongAdder[] refusals = new LongAdder[Consumer.values().length];

    /**
     * A budget of {@code limit} bytes.
     *
     * @param limit the bytes clients may make the child hold at once; {@link Long#MAX_VALUE} for no bound
     * @throws IllegalArgumentException if {@code limit} is not positive
     */
    public InputBudget(long limit) {
        if (limit <= 0) {
            throw new IllegalArgumentException("an input budget must be positive, got " + limit);
        }
        this.limit = limit;
        for (int i = 0; i < refusals.length; i++) {
            refusals[i] = new LongAdder();
        }
    }

    /**
     * Reserves {@code n} bytes for {@code kind} if they fit; a refusal is counted and leaves the
     * budget unchanged. Any thread.
     *
     * @param kind what asks (for the refusal counts)
     * @param n the bytes, at least 0
     * @return whether they were granted: the caller must {@link #release} them later
     */
    public boolean reserve(Consumer kind, long n) {
        if (n < 0) {
            throw new IllegalArgumentException("cannot reserve " + n + " bytes");
        }
        long now;
        for (;;) {
            long cur = used.get();
            now = cur + n;
            if (now > limit || now < 0) {
                refusals[kind.ordinal()].increment();
                return false;
            }
            if (used.compareAndSet(cur, now)) {
                break;
            }
        }
        long high = highWater.get();
        while (now > high && !highWater.compareAndSet(high, now)) {
            high = highWater.get();
        }
        return true;
    }

    /**
     * Gives back {@code n} bytes reserved earlier. Any thread.
     *
     * @param n the bytes, at most what the caller holds
     */
    public void release(long n) {
        if (n < 0) {
            throw new IllegalArgumentException("cannot release " + n + " bytes");
        }
        long after = used.addAndGet(-n);
        if (after < 0) {
            throw new IllegalStateException("released " + n + " bytes more than reserved (now " + after + ")");
        }
    }

    /** {@return the bytes the child may hold for its clients at once} */
    public long limit() {
        return limit;
    }

    /** {@return the bytes reserved now} */
    public long used() {
        return used.get();
    }

    /** {@return the most bytes ever reserved at once} */
    public long highWater() {
        return highWater.get();
    }

    /**
     * {@return the reservations refused for {@code kind} so far}
     *
     * @param kind the consumer kind
     */
    public long refusals(Consumer kind) {
        return refusals[kind.ordinal()].sum();
    }

    /** {@return the reservations refused so far, every kind together} */
    public long refusals() {
        long n = 0;
        for (LongAdder a : refusals) {
            n += a.sum();
        }
        return n;
    }

    /**
     * What one consumer (a socket's message, a stream's header block, a body being read) holds of
     * a budget: it grows as the buffer grows and {@link #releaseAll releases} exactly what it
     * reserved, once, however many paths end the buffer. Grown by one thread at a time (the
     * buffer's owner); {@link #shrink} and {@code releaseAll} may come from other threads (the
     * reader of the buffer, a connection's end), and never release more than is held.
     */
    public static final class Hold {
        private final InputBudget budget;
        private final Consumer kind;
        private final AtomicLong held = new AtomicLong();

        /**
         * Makes a consumer's hold, empty.
         *
         * @param budget the child's budget
         * @param kind what this consumer is
         */
        public Hold(InputBudget budget, Consumer kind) {
            this.budget = budget;
            this.kind = kind;
        }

        /**
         * Reserves {@code n} bytes more.
         *
         * @param n the bytes
         * @return whether they were granted (refused: nothing more is held, the caller refuses its client)
         */
        public boolean grow(long n) {
            if (!budget.reserve(kind, n)) {
                return false;
            }
            held.addAndGet(n);
            return true;
        }

        /**
         * Releases {@code n} bytes of what it holds (the consumer let part of its buffer go), or
         * all it still holds if that is less (a {@link #releaseAll} came first). Any thread.
         *
         * @param n the bytes
         */
        public void shrink(long n) {
            long cur;
            long give;
            do {
                cur = held.get();
                give = Math.min(cur, n);
            } while (give > 0 && !held.compareAndSet(cur, cur - give));
            if (give > 0) {
                budget.release(give);
            }
        }

        /** Releases all it holds; idempotent. */
        public void releaseAll() {
            long n = held.getAndSet(0);
            if (n > 0) {
                budget.release(n);
            }
        }

        /** {@return the bytes held now} */
        public long held() {
            return held.get();
        }
    }
}
