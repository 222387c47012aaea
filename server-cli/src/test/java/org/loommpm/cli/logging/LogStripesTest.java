package org.loommpm.cli.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

class LogStripesTest {
    @Test
    void aKeyAlwaysGetsItsOwnStripeWhenItIsFree() {
        LogStripes s = new LogStripes(8, 16);
        assertEquals(8, s.count());
        int i = s.acquire(42);
        s.release(i);
        assertEquals(i, s.acquire(42));
        // Held: the same key moves on to another stripe rather than wait for ever.
        int j = s.acquire(42);
        assertTrue(j >= 0 && j != i, "moved on to " + j);
        s.release(i);
        s.release(j);
    }

    /** A full stripe sends its key's line to another with room; all full: none. */
    @Test
    void aFullStripeOverflowsIntoAnother() {
        LogStripes s = new LogStripes(4, 16);
        int own = s.acquire(7);
        s.line(own).text("0123456789").ascii('\n');
        s.release(own);
        assertEquals(own, s.acquireRoom(7, 64), "room left in its own");
        s.release(own);
        int other = s.acquireRoom(7, 8);
        assertTrue(other >= 0 && other != own, "overflowed into " + other);
        s.release(other);
        for (int i = 0; i < s.count(); i++) {
            if (i != own) {
                int j = s.acquireRoom(7, 8);
                s.line(j).text("0123456789");
                s.release(j);
            }
        }
        assertEquals(-1, s.acquireRoom(7, 8), "every stripe full");
    }

    @Test
    void givesUpWhenEveryStripeStaysHeld() {
        LogStripes s = new LogStripes(2, 16);
        int a = s.acquire(1);
        int b = s.acquire(1);
        assertEquals(-1, s.acquire(1), "both held: the caller drops its line");
        s.release(a);
        assertEquals(a, s.acquire(1));
        s.release(a);
        s.release(b);
    }

    /**
     * Six producers (three pairs sharing a key, so they collide on a stripe) race one consumer
     * that swaps buffers out at a writer's pace: every line arrives exactly once and whole, and
     * none is refused (eight stripes, never more than seven held).
     */
    @Test
    void manyProducersOneConsumerLoseAndTearNothing() throws Exception {
        int producers = 6;
        int perProducer = 100_000;
        LogStripes s = new LogStripes(8, 64);
        AtomicInteger refused = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            int id = p;
            threads.add(Thread.ofPlatform().start(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int n = 0; n < perProducer; n++) {
                    int i = s.acquire(id / 2);
                    if (i < 0) {
                        refused.incrementAndGet();
                        continue;
                    }
                    s.line(i).number(id).ascii(':').number(n).ascii('\n');
                    s.release(i);
                }
            }));
        }
        boolean[][] seen = new boolean[producers][perProducer];
        int received = 0;
        LogLine spare = new LogLine(64);
        start.countDown();
        boolean producing = true;
        while (producing) {
            producing = threads.stream().anyMatch(Thread::isAlive);
            for (int i = 0; i < s.count(); i++) {
                while (!s.tryAcquire(i)) {
                    Thread.onSpinWait();
                }
                LogLine full = s.swap(i, spare);
                s.release(i);
                String text = new String(full.array(), 0, full.length(), StandardCharsets.US_ASCII);
                for (String line : text.split("\n", -1)) {
                    if (line.isEmpty()) {
                        continue;
                    }
                    String[] parts = line.split(":");
                    assertEquals(2, parts.length, "torn line: " + line);
                    int id = Integer.parseInt(parts[0]);
                    int n = Integer.parseInt(parts[1]);
                    assertTrue(!seen[id][n], "twice: " + line);
                    seen[id][n] = true;
                    received++;
                }
                assertTrue(text.isEmpty() || text.endsWith("\n"), "a buffer ends mid-line");
                full.truncate(0);
                spare = full;
            }
            LockSupport.parkNanos(50_000);
        }
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(0, refused.get());
        assertEquals(producers * perProducer, received);
    }
}
