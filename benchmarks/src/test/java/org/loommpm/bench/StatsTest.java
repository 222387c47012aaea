package org.loommpm.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The result tables' cells. */
class StatsTest {
    @Test
    void medianOfOddAndEvenCounts() {
        assertEquals(2.0, Stats.median(new double[] {3, 1, 2}));
        assertEquals(2.5, Stats.median(new double[] {4, 1, 3, 2}));
        assertEquals(Double.NaN, Stats.median(null));
    }

    @Test
    void cellShowsMedianAndRange() {
        assertEquals("2 (1–3)", Stats.cell(new double[] {3, 1, 2}, "%.0f"));
        assertEquals("5", Stats.cell(new double[] {5}, "%.0f"));
        assertEquals("—", Stats.cell(new double[0], "%.0f"));
    }

    @Test
    void keyValueLinesParse() {
        KeyValues kv = KeyValues.last("STEP rate=1 p99_ms=2.5\nMAX rate=7 first_failing=9\n", "MAX");
        assertEquals(7, kv.number("rate"));
        assertEquals(Double.NaN, kv.number("missing"));
    }
}
