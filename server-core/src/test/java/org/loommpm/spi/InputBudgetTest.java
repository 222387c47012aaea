package org.loommpm.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.loommpm.spi.InputBudget.Consumer;

/** The input budget: grants within the limit, refusals counted by kind, holds released once, exact under contention. */
class InputBudgetTest {
    @Test
    void grantsWithinTheLimitAndRefusesBeyondIt() {
        InputBudget b = new InputBudget(1000);
        assertTrue(b.reserve(Consumer.WEBSOCKET_MESSAGE, 600));
        assertTrue(b.reserve(Consumer.REQUEST_BODY, 400));
        assertEquals(1000, b.used());
        assertFalse(b.reserve(Consumer.HEADER_BLOCK, 1), "nothing past the limit");
        assertEquals(1000, b.used(), "a refusal takes nothing");
        assertEquals(1, b.refusals(Consumer.HEADER_BLOCK));
        assertEquals(0, b.refusals(Consumer.WEBSOCKET_MESSAGE));
        b.release(600);
        assertTrue(b.reserve(Consumer.HEADER_BLOCK, 500));
        assertEquals(900, b.used());
        assertEquals(1000, b.highWater(), "the high-water mark stays at the most ever held");
        assertEquals(1, b.refusals());
    }

    @Test
    void releasingMoreThanReservedIsABug() {
        InputBudget b = new InputBudget(1000);
        b.reserve(Consumer.REQUEST_BODY, 10);
        assertThrows(IllegalStateException.class, () -> b.release(11));
        assertThrows(IllegalArgumentException.class, () -> b.reserve(Consumer.REQUEST_BODY, -1));
        assertThrows(IllegalArgumentException.class, () -> new InputBudget(0));
    }

    @Test
    void aHoldReleasesWhatItReservedOnce() {
        InputBudget b = new InputBudget(100);
        InputBudget.Hold h = new InputBudget.Hold(b, Consumer.WEBSOCKET_MESSAGE);
        assertTrue(h.grow(60));
        assertFalse(h.grow(50), "60 + 50 does not fit");
        assertEquals(60, h.held(), "a refused growth holds nothing more");
        assertEquals(1, b.refusals(Consumer.WEBSOCKET_MESSAGE));
        h.releaseAll();
        h.releaseAll(); // a second path ending the same buffer gives nothing back twice
        assertEquals(0, b.used());
        assertEquals(0, h.held());
    }

    /**
     * Many threads reserve and release random amounts at once: the limit is never exceeded (the
     * high-water mark stays within it), every grant and refusal is accounted for, and the budget
     * is back at 0 once everyone released what it held.
     */
    @Test
    void concurrentReserveAndReleaseStayExact() throws Exception {
        long limit = 5_000; // a few holds fill it: refusals come even when the threads barely overlap
        InputBudget b = new InputBudget(limit);
        int threads = 16;
        int rounds = 20_000;
        AtomicLong refused = new AtomicLong();
        AtomicLong overLimit = new AtomicLong();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> all = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            all.add(Thread.ofPlatform().start(() -> {
                ThreadLocalRandom r = ThreadLocalRandom.current();
                InputBudget.Hold h = new InputBudget.Hold(b, Consumer.values()[r.nextInt(Consumer.values().length)]);
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int i = 0; i < rounds; i++) {
                    if (r.nextInt(4) == 0) {
                        h.releaseAll();
                    } else if (!h.grow(r.nextInt(1, 2_000))) {
                        refused.incrementAndGet();
                    }
                    if (b.used() > limit) {
                        overLimit.incrementAndGet();
                    }
                }
                h.releaseAll();
            }));
        }
        start.countDown();
        for (Thread t : all) {
            t.join();
        }
        assertEquals(0, overLimit.get(), "used never above the limit");
        assertTrue(b.highWater() <= limit, "high water " + b.highWater());
        assertEquals(0, b.used(), "everything released");
        assertEquals(refused.get(), b.refusals());
        assertTrue(refused.get() > 0, "the test contends: some reservations were refused");
    }
}
