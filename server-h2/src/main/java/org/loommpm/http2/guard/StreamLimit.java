package org.loommpm.http2.guard;

/**
 * {@code H2MaxConcurrentStreams}: how many client streams may be active at once (announced as
 * SETTINGS_MAX_CONCURRENT_STREAMS). A stream counts from its HEADERS until it is closed; one
 * beyond the limit is refused with RST_STREAM(REFUSED_STREAM) (safe for the client to retry:
 * its handler never ran). Frame loop only.
 */
public final class StreamLimit {
    private final int max;
    private int active;

    public StreamLimit(int max) {
        this.max = max;
    }

    /** Takes a place for a new stream; {@code false} when the limit is reached. */
    public boolean tryOpen() {
        if (active >= max) {
            return false;
        }
        active++;
        return true;
    }

    /** Gives a place back when a counted stream closes. */
    public void closed() {
        active--;
    }

    public int active() {
        return active;
    }

    public int max() {
        return max;
    }
}
