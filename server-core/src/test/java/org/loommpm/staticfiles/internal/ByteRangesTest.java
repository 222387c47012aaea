package org.loommpm.staticfiles.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;
import org.junit.jupiter.api.Test;

class ByteRangesTest {
    @Test
    void singleAndSuffixAndOpenRanges() {
        assertEquals(List.of(new ByteRanges.Range(0, 9)), ByteRanges.parse("bytes=0-9", 100));
        assertEquals(List.of(new ByteRanges.Range(90, 99)), ByteRanges.parse("bytes=-10", 100));
        assertEquals(List.of(new ByteRanges.Range(0, 99)), ByteRanges.parse("bytes=-1000", 100));
        assertEquals(List.of(new ByteRanges.Range(50, 99)), ByteRanges.parse("bytes=50-", 100));
        assertEquals(List.of(new ByteRanges.Range(50, 99)), ByteRanges.parse("bytes=50-5000", 100));
    }

    @Test
    void multipleRangesKeepTheirOrder() {
        assertEquals(List.of(new ByteRanges.Range(10, 19), new ByteRanges.Range(0, 4)),
                ByteRanges.parse("bytes=10-19, 0-4", 100));
    }

    @Test
    void unsatisfiableAndInvalid() {
        assertSame(ByteRanges.UNSATISFIABLE, ByteRanges.parse("bytes=100-", 100));
        assertSame(ByteRanges.UNSATISFIABLE, ByteRanges.parse("bytes=200-300", 100));
        assertSame(ByteRanges.UNSATISFIABLE, ByteRanges.parse("bytes=-0", 100));
        assertSame(ByteRanges.WHOLE, ByteRanges.parse("bytes=9-1", 100));
        assertSame(ByteRanges.WHOLE, ByteRanges.parse("items=0-1", 100));
        assertSame(ByteRanges.WHOLE, ByteRanges.parse("bytes=a-b", 100));
        assertSame(ByteRanges.WHOLE, ByteRanges.parse("bytes=", 100));
        assertSame(ByteRanges.WHOLE, ByteRanges.parse("bytes=0-10,5-20", 100), "overlapping");
        assertSame(ByteRanges.WHOLE, ByteRanges.parse("bytes=0-0,2-2,4-4,6-6,8-8,10-10,12-12,14-14,16-16,18-18,"
                + "20-20,22-22,24-24,26-26,28-28,30-30,32-32", 100), "too many");
    }
}
