package org.loommpm.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The GC pause time reads 0 until its collectors are looked up, then this JVM's total, which only grows. */
class GcPauseTimeTest {
    @Test
    void readsNothingUntilLoadedThenAGrowingTotal() {
        GcPauseTime gc = new GcPauseTime();
        assertEquals(0, gc.getAsLong(), "not loaded: no management call on the request path before the first pass");
        gc.load();
        long before = gc.getAsLong();
        System.gc();
        long after = gc.getAsLong();
        assertTrue(before >= 0 && after >= before, before + " then " + after);
    }
}
