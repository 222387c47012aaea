package org.loommpm.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The heap said at start: what is reported, and which heaps are warned about. */
class HeapSizeTest {
    private static final long MIB = 1 << 20;

    @Test
    void onlyAHeapTheJvmChoseBelowTheFloorIsWarnedAbout() {
        assertTrue(new HeapSize.Heap(128 * MIB, false, 512 * MIB, false).tooSmallByDefault(), "a small container's default");
        assertFalse(new HeapSize.Heap(64 * MIB, true, 512 * MIB, false).tooSmallByDefault(), "-Xmx64m is a choice");
        assertFalse(new HeapSize.Heap(4096 * MIB, false, 16384 * MIB, false).tooSmallByDefault());
        assertFalse(new HeapSize.Heap(HeapSize.FLOOR_MIB * MIB, false, 1024 * MIB, false).tooSmallByDefault());
    }

    @Test
    void theLineSaysWhoSizedTheHeapAndWhetherOutOfMemoryEndsTheJvm() {
        assertEquals("max heap 1024 MiB (set by the JVM's options), the JVM's options set what out of memory does",
                new HeapSize.Heap(1024 * MIB, true, 16384 * MIB, true).describe());
        assertEquals("max heap 4096 MiB (the JVM's default for the machine's 16384 MiB; -Xms and -Xmx recommended), "
                + "-XX:+ExitOnOutOfMemoryError not set (recommended)",
                new HeapSize.Heap(4096 * MIB, false, 16384 * MIB, false).describe());
    }

    @Test
    void thisJvmIsRead() {
        HeapSize.Heap h = HeapSize.ofThisJvm();
        assertTrue(h.maxBytes() >= Runtime.getRuntime().maxMemory(), "MaxHeapSize, at least what the runtime reports");
        assertTrue(h.machineBytes() > 0);
    }
}
