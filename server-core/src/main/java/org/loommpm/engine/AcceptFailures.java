package org.loommpm.engine;

/**
 * A listener's failed accepts as episodes, for the log: out of file descriptors ({@code EMFILE}),
 * the acceptor retries every 100 ms, and logging each retry (as it once did) wrote ten warnings a
 * second for as long as the exhaustion lasted. Now the first failure of an episode is logged
 * (LM0105), a reminder with the count once a minute while it lasts, and the first accept that
 * succeeds again ends it with one line (LM2104: how many failed, for how long).
 *
 * <p><b>Thread confinement:</b> poller-confined, like its {@link Acceptor}.
 */
final class AcceptFailures {
    /** While an episode lasts, how often it is logged again. */
    static final long REMIND_NANOS = 60_000_000_000L;

    /** Failed accepts in the current episode; an episode is running while this is above 0. */
    private long failures;
    private long since;
    private long reported;

    /**
     * An accept failed at {@code now} (nanoTime).
     *
     * @return whether to log it: the first of an episode, or a minute after the last report
     */
    boolean failed(long now) {
        if (failures++ == 0) {
            since = now;
            reported = now;
            return true;
        }
        if (now - reported >= REMIND_NANOS) {
            reported = now;
            return true;
        }
        return false;
    }

    /**
     * An accept succeeded at {@code now}.
     *
     * @return the line ending an episode, or {@code null} when none was running
     */
    String accepted(long now) {
        if (failures == 0) {
            return null;
        }
        String m = "LM2104 accepting works again after " + failures + " failed accept(s) over "
                + (now - since) / 1_000_000 + " ms";
        failures = 0;
        return m;
    }

    /** Failed accepts in the current episode (0 when none). */
    long failures() {
        return failures;
    }
}
