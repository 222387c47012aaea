package org.loommpm.http2.guard;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code H2MaxConcurrentStreams}: how many client streams may be active at once (announced as
 * SETTINGS_MAX_CONCURRENT_STREAMS). A stream holds its place from its HEADERS until it is closed
 * <em>and</em> its handler has returned: a stream the server reset (a stream error the client
 * provoked on purpose, "MadeYouReset", CVE-2025-8671) or the client cancelled still runs its
 * handler until the handler notices, and without the second condition a client could keep
 * unbounded handlers running on one connection while never having more than the limit open.
 * One beyond the limit is refused with RST_STREAM(REFUSED_STREAM) (safe for the client to retry:
 * its handler never ran).
 *
 * <p>A client counts a stream closed once it has the response's END_STREAM, which goes out before
 * the handler has returned (it still logs and counts the exchange; on a saturated server that
 * takes a while): a client that keeps within the limit may then be refused. The caller counts a
 * refusal as a rapid reset only when the client has as many streams open as the limit it
 * acknowledged, so such a client is refused (and may retry) but never cut off.
 *
 * <p>Threads: only the frame loop takes places ({@link #tryOpen}, the only increment, so its
 * check-then-add cannot overshoot); a place is given back by whichever party lets go of the
 * stream last, the frame loop or the stream's task ({@link #release}, any thread).
 */
public final class StreamLimit {
    private final int max;
    private final AtomicInteger active = new AtomicInteger();

    public StreamLimit(int max) {
        this.max = max;
    }

    /** Takes a place for a new stream; {@code false} when the limit is reached. Frame loop only. */
    public boolean tryOpen() {
        if (active.get() >= max) {
            return false;
        }
        active.incrementAndGet();
        return true;
    }

    /** Gives a place back. Any thread. */
    public void release() {
        active.decrementAndGet();
    }

    /** Places taken: open streams plus closed ones whose handler still runs. */
    public int active() {
        return active.get();
    }

    public int max() {
        return max;
    }
}
