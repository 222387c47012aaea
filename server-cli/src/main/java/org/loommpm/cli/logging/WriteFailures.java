package org.loommpm.cli.logging;

import java.io.IOException;

/**
 * A log destination's write failures, as episodes: the first failed write of an episode is
 * reported (LM2101), the lines written while it lasts are lost and only counted, and the first
 * write that succeeds again ends it with one report of how much was lost (LM2102). So a full
 * disk or a removed file costs one line in the logs, not one per batch, and the writer keeps
 * going: once space is freed, or the file is reopened (graceful restart, SIGHUP), logging
 * resumes by itself. Writer thread only.
 */
final class WriteFailures {
    private final String target;
    private boolean failing;
    private long lostBytes;
    private long lostWrites;
    private long episodes;

    WriteFailures(String target) {
        this.target = target;
    }

    /**
     * A write of {@code bytes} failed with {@code e}.
     *
     * @return the message to report, or {@code null} while the episode is already reported
     */
    String failed(IOException e, int bytes) {
        lostBytes += bytes;
        lostWrites++;
        if (failing) {
            return null;
        }
        failing = true;
        episodes++;
        return "LM2101 writing the log " + target + " failed (" + e + "); its lines are dropped until a write "
                + "succeeds again (free space, or reopen it with a graceful restart)";
    }

    /**
     * A write succeeded.
     *
     * @return the message ending a failure episode, or {@code null} when there was none
     */
    String succeeded() {
        if (!failing) {
            return null;
        }
        String m = "LM2102 writing the log " + target + " works again; " + lostBytes + " bytes in " + lostWrites
                + " write(s) were lost";
        failing = false;
        lostBytes = 0;
        lostWrites = 0;
        return m;
    }

    /** Whether the last write failed. */
    boolean failing() {
        return failing;
    }

    /** How many failure episodes there have been. */
    long episodes() {
        return episodes;
    }
}
