package org.loommpm.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class AdmissionControlTest {
    @ParameterizedTest(name = "active={0} pending={1} idle={2} -> stop={3}")
    @CsvSource({
        "0, 0, 8, false",
        "7, 0, 1, false",
        "8, 0, 0, true",   // no idle slot / active at the limit
        "3, 8, 5, true",   // pending reached hi = ThreadsPerChild
        "3, 7, 5, false",
        "2, 0, 0, true",   // idle 0 alone is enough
    })
    void stopRule(int active, int pending, int idle, boolean stop) {
        assertEquals(stop, new AdmissionControl(8).shouldStop(active, pending, idle));
    }

    @ParameterizedTest(name = "active={0} pending={1} idle={2} -> resume={3}")
    @CsvSource({
        "7, 6, 1, true",   // lo = 6
        "7, 7, 1, false",  // pending above lo
        "8, 0, 0, false",
        "0, 0, 8, true",
        "5, 0, 0, false",  // idle 0
    })
    void resumeRule(int active, int pending, int idle, boolean resume) {
        assertEquals(resume, new AdmissionControl(8).shouldResume(active, pending, idle));
    }

    @Test
    void hysteresisHoldsBetweenThresholdsAndCountsTransitions() {
        AdmissionControl a = new AdmissionControl(8);
        assertEquals(8, a.hi());
        assertEquals(6, a.lo());
        assertTrue(a.evaluate(4, 0, 4));
        assertFalse(a.evaluate(8, 0, 0), "saturated: stop");
        assertEquals(1, a.transitions());
        assertFalse(a.evaluate(7, 7, 1), "pending above lo: stay off");
        assertFalse(a.evaluate(8, 2, 0), "no idle slot: stay off");
        assertTrue(a.evaluate(7, 6, 1), "pending at lo with a free slot: resume");
        assertEquals(2, a.transitions());
        assertTrue(a.evaluate(7, 7, 1), "between thresholds while on: stay on");
        assertEquals(2, a.transitions());
    }

    @Test
    void disabledNeverStopsAccepting() {
        AdmissionControl a = new AdmissionControl(8, false);
        assertTrue(a.evaluate(8, 100, 0));
        assertTrue(a.accepting());
        assertEquals(0, a.transitions());
    }

    @Test
    void smallPoolStillHasARule() {
        AdmissionControl a = new AdmissionControl(1);
        assertEquals(0, a.lo());
        assertFalse(a.evaluate(1, 0, 0));
        assertTrue(a.evaluate(0, 0, 1));
    }
}
