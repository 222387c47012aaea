package org.loommpm.engine;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * The JVM's garbage-collection pause time so far, in milliseconds: the sum of its collectors'
 * {@link GarbageCollectorMXBean#getCollectionTime()}, leaving out the beans that time concurrent
 * cycles rather than pauses (ZGC's and Shenandoah's "… Cycles": the application ran meanwhile).
 * What {@link InlineStallReport} tells a GC pause from a blocking handler with.
 *
 * <p>The beans are looked up by {@link #load()} (the management classes cost some milliseconds to
 * load), which the supervisor thread calls at its first maintenance pass, off the start-up's and
 * the requests' path; until then this reads 0 (no pause known). Any thread.
 */
final class GcPauseTime implements LongSupplier {
    /** This JVM's. */
    static final GcPauseTime SYSTEM = new GcPauseTime();

    /** The pause-timing beans, null until {@link #load()}. */
    private volatile GarbageCollectorMXBean[] beans;

    /** One of its own (tests); the server uses {@link #SYSTEM}. */
    GcPauseTime() {
    }

    /** Looks the collectors up, once. */
    void load() {
        if (beans != null) {
            return;
        }
        List<GarbageCollectorMXBean> pauses = new ArrayList<>();
        for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (!b.getName().endsWith("Cycles")) {
                pauses.add(b);
            }
        }
        beans = pauses.toArray(new GarbageCollectorMXBean[0]);
    }

    @Override
    public long getAsLong() {
        GarbageCollectorMXBean[] bs = beans;
        if (bs == null) {
            return 0;
        }
        long total = 0;
        for (GarbageCollectorMXBean b : bs) {
            total += Math.max(0, b.getCollectionTime()); // -1: not known for this collector
        }
        return total;
    }
}
