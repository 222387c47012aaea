package org.loommpm.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;

/**
 * NonBlockingHandlerLimit's report with the GC pause time given by the test: a stall the GC
 * explains is LM2503 (INFO), one it does not is the handler's (LM2500, WARNING); each line is
 * limited to once a minute on its own.
 */
class InlineStallReportTest {
    private static final long MS = 1_000_000;
    private static final long LIMIT = 100 * MS;
    /** An arbitrary origin for the test's nanoTime values. */
    private static final long T0 = 5_000_000_000L;

    /** GC pause time in ms, set by the test, and how often it is read. */
    private static final class GcClock implements LongSupplier {
        final AtomicLong millis = new AtomicLong(1_000);
        final AtomicInteger reads = new AtomicInteger();

        @Override
        public long getAsLong() {
            reads.incrementAndGet();
            return millis.get();
        }
    }

    private static InlineStallReport report(GcClock gc) {
        return new InlineStallReport("loom-c1-poller-0", LIMIT, gc);
    }

    @Test
    void aStallMostlySpentInGcPausesIsReportedAsOneNotAsTheHandlers() {
        GcClock gc = new GcClock();
        try (SupervisorHarness.LogCapture log = new SupervisorHarness.LogCapture()) {
            InlineStallReport r = report(gc);
            r.starting(T0);
            gc.millis.addAndGet(130); // a 130 ms pause during a 150 ms service
            r.served(T0, T0 + 150 * MS, "GET", "/fast");
            assertEquals(0, log.withId("LM2500").size(), "the handler is not blamed");
            LogRecord line = log.withId("LM2503").get(0);
            assertEquals(Level.INFO, line.getLevel());
            assertTrue(line.getMessage().contains("150 ms") && line.getMessage().contains("130 ms")
                    && line.getMessage().contains("GET /fast"), line.getMessage());
        }
    }

    @Test
    void aStallWithoutGcIsTheHandlers() {
        GcClock gc = new GcClock();
        try (SupervisorHarness.LogCapture log = new SupervisorHarness.LogCapture()) {
            InlineStallReport r = report(gc);
            r.starting(T0);
            gc.millis.addAndGet(20); // a short pause does not explain a 150 ms stall
            r.served(T0, T0 + 150 * MS, "GET", "/slow");
            assertEquals(0, log.withId("LM2503").size());
            LogRecord line = log.withId("LM2500").get(0);
            assertEquals(Level.WARNING, line.getLevel());
            assertTrue(line.getMessage().contains("GET /slow") && line.getMessage().contains("20 ms of it in garbage"),
                    line.getMessage());
        }
    }

    @Test
    void aServiceWithinTheLimitReportsNothing() {
        GcClock gc = new GcClock();
        try (SupervisorHarness.LogCapture log = new SupervisorHarness.LogCapture()) {
            InlineStallReport r = report(gc);
            r.starting(T0);
            r.served(T0, T0 + LIMIT, "GET", "/");
            assertEquals(0, log.withId("LM2500").size() + log.withId("LM2503").size());
            assertEquals(1, gc.reads.get(), "the GC time is read again only for a stall");
        }
    }

    @Test
    void theGcSampleIsTakenAtMostEveryTenMilliseconds() {
        GcClock gc = new GcClock();
        InlineStallReport r = report(gc);
        r.starting(T0);
        r.starting(T0 + 5 * MS);
        r.starting(T0 + InlineStallReport.SAMPLE_NANOS);
        assertEquals(1, gc.reads.get());
        r.starting(T0 + InlineStallReport.SAMPLE_NANOS + 1);
        assertEquals(2, gc.reads.get());
    }

    @Test
    void withNoLimitNothingIsReadOrReported() {
        GcClock gc = new GcClock();
        try (SupervisorHarness.LogCapture log = new SupervisorHarness.LogCapture()) {
            InlineStallReport r = new InlineStallReport("loom-c1-poller-0", 0, gc);
            r.starting(T0);
            r.served(T0, T0 + 10_000 * MS, "GET", "/");
            assertEquals(0, gc.reads.get());
            assertEquals(0, log.records.size());
        }
    }

    @Test
    void eachLineIsLimitedToOnceAMinuteOnItsOwn() {
        GcClock gc = new GcClock();
        try (SupervisorHarness.LogCapture log = new SupervisorHarness.LogCapture()) {
            InlineStallReport r = report(gc);
            long t = T0;
            for (int i = 0; i < 3; i++) { // three handler stalls within a minute
                r.starting(t);
                r.served(t, t + 200 * MS, "GET", "/slow");
                t += 1_000 * MS;
            }
            r.starting(t);
            gc.millis.addAndGet(190);
            r.served(t, t + 200 * MS, "GET", "/fast"); // a GC stall: its own line, not held back
            assertEquals(1, log.withId("LM2500").size());
            assertEquals(1, log.withId("LM2503").size());
            t += 60_000 * MS;
            r.starting(t);
            r.served(t, t + 200 * MS, "GET", "/slow");
            assertEquals(2, log.withId("LM2500").size(), "a minute later");
            assertTrue(log.withId("LM2500").get(1).getMessage().endsWith("; 2 more since the last report"),
                    log.withId("LM2500").get(1).getMessage());
        }
    }
}
