package org.loommpm.cli.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Lines per log id: the id a line starts with, counted; the error log counts what it writes. */
class LogIdCountsTest {
    @AfterEach
    void reset() {
        ErrorLog.configure(LogLevels.DEFAULT, null);
    }

    @Test
    void theLeadingIdIsCounted() {
        LogIdCounts counts = new LogIdCounts();
        counts.count("LM0401 handler failed for GET /: java.lang.IllegalStateException: boom");
        counts.count("LM0401 handler failed for GET /x: java.lang.IllegalStateException: boom");
        counts.count("LM2001 4999 more in 10 s; the last: connection 7 ...");
        counts.count("LM0009");
        for (String none : new String[] {"", "LM04", "LM04x1 x", "LM04011 x", "xLM0401 x", "lm0401 x", "LM0401: x"}) {
            counts.count(none);
        }
        assertEquals(Map.of("LM0009", 1L, "LM0401", 2L, "LM2001", 1L), counts.byId());
        assertEquals(List.of("LM0009", "LM0401", "LM2001"), List.copyOf(counts.byId().keySet()), "in id order");
    }

    @Test
    void theErrorLogCountsTheLinesItWrites() {
        ErrorLog.configure(LogLevels.parse(LogLevels.DEFAULT, List.of("warn")), null);
        long shown = LogIdCounts.PROCESS.byId().getOrDefault("LM9011", 0L);
        long hidden = LogIdCounts.PROCESS.byId().getOrDefault("LM9012", 0L);
        System.Logger cli = System.getLogger("org.loommpm.cli");
        cli.log(System.Logger.Level.WARNING, "LM9011 counted");
        cli.log(System.Logger.Level.INFO, "LM9012 below the level: neither written nor counted");
        assertEquals(shown + 1, LogIdCounts.PROCESS.byId().getOrDefault("LM9011", 0L));
        assertEquals(hidden, LogIdCounts.PROCESS.byId().getOrDefault("LM9012", 0L));
    }
}
