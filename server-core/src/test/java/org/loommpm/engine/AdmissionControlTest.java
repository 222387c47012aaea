package org.loommpm.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The connection-bound rule: stop at the bound, resume at three quarters, nothing about busy workers. */
class AdmissionControlTest {
    @ParameterizedTest(name = "open={0} -> stop={1}")
    @CsvSource({
        "0, false",
        "99, false",
        "100, true",
        "5000, true",
    })
    void stopRule(int open, boolean stop) {
        assertEquals(stop, new AdmissionControl(100, true).shouldStop(open));
    }

    @ParameterizedTest(name = "open={0} -> resume={1}")
    @CsvSource({
        "0, true",
        "75, true",
        "76, false",
        "100, false",
    })
    void resumeRule(int open, boolean resume) {
        assertEquals(resume, new AdmissionControl(100, true).shouldResume(open));
    }

    @Test
    void hysteresisHoldsBetweenThresholdsAndCountsTransitions() {
        AdmissionControl a = new AdmissionControl(8, true);
        assertEquals(8, a.hi());
        assertEquals(6, a.lo());
        assertTrue(a.evaluate(4, 0));
        assertFalse(a.evaluate(8, 1), "at the bound: stop");
        assertEquals(1, a.transitions());
        assertFalse(a.evaluate(7, 2), "above lo: stay off");
        assertTrue(a.evaluate(6, 3), "at lo: resume");
        assertEquals(2, a.transitions());
        assertTrue(a.evaluate(7, 4), "between thresholds while on: stay on");
        assertEquals(2, a.transitions());
    }

    /**
     * Motorz's rule stopped at {@code pending >= ThreadsPerChild}: under keep-alive overload the
     * pending count never fell and newcomers waited in the backlog. Busy workers are not an input
     * of the rule any more: below the bound the listener stays open whatever the pool does.
     */
    @Test
    void saturatedWorkersDoNotCloseTheListener() {
        AdmissionControl a = new AdmissionControl(1000, true);
        for (int open = 0; open < 1000; open += 50) {
            assertTrue(a.evaluate(open, open), "open=" + open);
        }
        assertEquals(0, a.transitions());
    }

    @Test
    void pausedTimeCountsTheCurrentAndEndedPauses() {
        AdmissionControl a = new AdmissionControl(4, true);
        assertFalse(a.evaluate(4, 1_000));
        assertEquals(500, a.pausedNanos(1_500));
        assertTrue(a.evaluate(3, 2_000));
        assertEquals(1_000, a.pausedNanos(9_999));
        assertFalse(a.evaluate(4, 3_000));
        assertEquals(1_250, a.pausedNanos(3_250));
    }

    @Test
    void disabledNeverStopsAccepting() {
        AdmissionControl a = new AdmissionControl(8, false);
        assertTrue(a.evaluate(100_000, 0));
        assertTrue(a.accepting());
        assertEquals(0, a.transitions());
    }

    @Test
    void smallBoundStillHasARule() {
        AdmissionControl a = new AdmissionControl(1, true);
        assertEquals(0, a.lo());
        assertFalse(a.evaluate(1, 0));
        assertTrue(a.evaluate(0, 1));
        assertThrows(IllegalArgumentException.class, () -> new AdmissionControl(0, true));
    }
}
