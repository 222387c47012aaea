package org.loommpm.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class AcceptFailuresTest {
    private static final long MS = 1_000_000L;

    @Test
    void anEpisodeIsLoggedOnceThenOnceAMinuteAndItsEndOnce() {
        AcceptFailures f = new AcceptFailures();
        assertNull(f.accepted(0), "no episode, nothing to say");
        assertTrue(f.failed(0));
        for (long t = 100; t < 60_000; t += 100) {
            assertFalse(f.failed(t * MS), "retry at " + t + " ms logged again");
        }
        assertTrue(f.failed(60_000 * MS), "the once-a-minute reminder");
        assertEquals(601, f.failures());
        String end = f.accepted(60_050 * MS);
        assertEquals("LM2104 accepting works again after 601 failed accept(s) over 60050 ms", end);
        assertNull(f.accepted(60_100 * MS));
        assertEquals(0, f.failures());
        assertTrue(f.failed(70_000 * MS), "a new episode is logged again");
    }
}
