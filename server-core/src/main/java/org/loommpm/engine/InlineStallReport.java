package org.loommpm.engine;

import java.lang.System.Logger.Level;
import java.util.function.LongSupplier;

/**
 * {@code NonBlockingHandlerLimit}'s report: an inline service that held its poller longer than
 * the limit is logged as the handler's fault (LM2500, WARNING), unless most of that time the JVM
 * was paused for garbage collection, which stops every thread, handler or not: then LM2503 (INFO)
 * names the pause, and the heap or the collector is what to look at, not the handler.
 *
 * <p><b>How.</b> The GC pause time so far ({@link GcPauseTime}, milliseconds) is sampled when a
 * service starts if the last sample is older than {@value #SAMPLE_NANOS} ns (so at most 100
 * reads a second, each a few native calls, and none per request under load), and read again when
 * a service took too long: the growth is the GC pause time within the service plus at most the
 * sample's age. "Most" is at least half: a 10 ms sample age cannot turn a handler's 100 ms stall
 * into a GC pause.
 *
 * <p><b>Rate.</b> Each line at most once a minute per poller, with the count of those not logged
 * since, each id on its own, so a GC storm does not hide a blocking handler.
 *
 * <p><b>Threads.</b> Poller-confined: one per poller, called on its thread only.
 */
final class InlineStallReport {
    private static final System.Logger LOG = System.getLogger("org.loommpm.engine");
    /** How old the GC sample may be when a service starts. */
    static final long SAMPLE_NANOS = 10_000_000;
    private static final long MINUTE_NANOS = 60_000_000_000L;

    private final String poller;
    private final long limitNanos;
    private final LongSupplier gcMillis;
    private long sampledAt;
    private boolean sampled;
    private long gcAtSample;
    private final OncePerMinute handlerLines = new OncePerMinute();
    private final OncePerMinute gcLines = new OncePerMinute();

    /**
     * @param poller the poller's thread name, for the lines
     * @param limitNanos {@code NonBlockingHandlerLimit}; 0: nothing is checked
     * @param gcMillis the GC pause time so far ({@link GcPauseTime#SYSTEM} but in tests)
     */
    InlineStallReport(String poller, long limitNanos, LongSupplier gcMillis) {
        this.poller = poller;
        this.limitNanos = limitNanos;
        this.gcMillis = gcMillis;
    }

    /** An inline service starts at {@code now}: the GC sample is refreshed if it is too old. */
    void starting(long now) {
        if (limitNanos != 0 && (!sampled || now - sampledAt > SAMPLE_NANOS)) {
            gcAtSample = gcMillis.getAsLong();
            sampledAt = now;
            sampled = true;
        }
    }

    /** The service begun at {@code start} (after {@link #starting}) ended at {@code end}, serving {@code method path}. */
    void served(long start, long end, String method, String path) {
        long took = end - start;
        if (limitNanos == 0 || took <= limitNanos) {
            return;
        }
        long gcMs = gcMillis.getAsLong() - gcAtSample;
        if (gcMs * 2_000_000 >= took) {
            long skipped = gcLines.skipped(end);
            if (skipped >= 0) {
                LOG.log(Level.INFO, "LM2503 poller " + poller + " was held " + took / 1_000_000 + " ms serving "
                        + method + " " + path + ", " + gcMs + " ms of it in garbage-collection pauses: not the "
                        + "handler's doing (NonBlockingHandlerLimit " + limitNanos / 1_000_000 + " ms); look at the "
                        + "heap and the collector" + more(skipped));
            }
            return;
        }
        long skipped = handlerLines.skipped(end);
        if (skipped >= 0) {
            LOG.log(Level.WARNING, "LM2500 a non-blocking handler held poller " + poller + " for " + took / 1_000_000
                    + " ms (NonBlockingHandlerLimit " + limitNanos / 1_000_000 + " ms) serving " + method + " " + path
                    + (gcMs > 0 ? " (" + gcMs + " ms of it in garbage-collection pauses)" : "")
                    + "; it must not block (see api.InvocationType)" + more(skipped));
        }
    }

    private static String more(long skipped) {
        return skipped > 0 ? "; " + skipped + " more since the last report" : "";
    }

    /** A line's rate limit: once a minute, counting what it held back. */
    private static final class OncePerMinute {
        private long last;
        private boolean ever;
        private long held;

        /** At {@code now}: -1 if the line is held back, else how many were held back since the last one. */
        long skipped(long now) {
            if (ever && now - last < MINUTE_NANOS) {
                held++;
                return -1;
            }
            ever = true;
            last = now;
            long n = held;
            held = 0;
            return n;
        }
    }
}
