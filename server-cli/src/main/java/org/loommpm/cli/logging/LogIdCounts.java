package org.loommpm.cli.logging;

import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;
import org.loommpm.status.LogLineCounts;

/**
 * Lines written per log id: the {@link ErrorLog} counts each line it writes under the id it
 * starts with ({@code LM} and four digits), and the status page shows the counts. One counter per
 * id number, made on the id's first line, so counting a line costs no allocation and no lock.
 */
public final class LogIdCounts implements LogLineCounts {
    /** The process's: what its error log wrote. */
    public static final LogIdCounts PROCESS = new LogIdCounts();
    private static final int IDS = 10_000;

    private final AtomicReferenceArray<LongAdder> counts = new AtomicReferenceArray<>(IDS);

    /** Counts {@code message} under its id; a message without one is not counted. */
    void count(String message) {
        int id = id(message);
        if (id < 0) {
            return;
        }
        LongAdder n = counts.get(id);
        if (n == null) {
            counts.compareAndSet(id, null, new LongAdder());
            n = counts.get(id);
        }
        n.increment();
    }

    /** The number of the id {@code message} starts with ({@code LM0401 ...}: 401), or -1. */
    static int id(String message) {
        if (message.length() < 6 || message.charAt(0) != 'L' || message.charAt(1) != 'M'
                || message.length() > 6 && message.charAt(6) != ' ') {
            return -1;
        }
        int v = 0;
        for (int i = 2; i < 6; i++) {
            char c = message.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }

    @Override
    public SortedMap<String, Long> byId() {
        SortedMap<String, Long> out = new TreeMap<>();
        for (int i = 0; i < IDS; i++) {
            LongAdder n = counts.get(i);
            if (n != null) {
                out.put(String.format("LM%04d", i), n.sum());
            }
        }
        return out;
    }
}
