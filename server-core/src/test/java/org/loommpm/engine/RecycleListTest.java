package org.loommpm.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

class RecycleListTest {
    static final class Item extends RecycleList.Node<Item> {
        final int id;
        final AtomicInteger inList = new AtomicInteger();

        Item(int id) {
            this.id = id;
        }
    }

    @Test
    void lifoAndBound() {
        RecycleList<Item> list = new RecycleList<>(2);
        Item a = new Item(1);
        Item b = new Item(2);
        Item c = new Item(3);
        assertTrue(list.push(a));
        assertTrue(list.push(b));
        assertFalse(list.push(c), "third push exceeds the bound");
        assertEquals(2, list.size());
        assertSame(b, list.pop());
        assertSame(a, list.pop());
        assertNull(list.pop());
        assertEquals(0, list.size());
    }

    @Test
    void zeroCapacityKeepsNothing() {
        RecycleList<Item> list = new RecycleList<>(0);
        assertFalse(list.push(new Item(1)));
        assertNull(list.pop());
    }

    /**
     * Four producers push while the single consumer pops and hands items back to the producers:
     * every item is always in exactly one place (a producer's hand or the list), never lost,
     * never popped twice, and the list never holds more than its bound.
     */
    @RepeatedTest(5)
    void manyProducersOneConsumerNoLossNoDuplicateBoundHeld() throws Exception {
        int capacity = 64;
        int producers = 4;
        int perProducer = 200_000;
        RecycleList<Item> list = new RecycleList<>(capacity);
        AtomicInteger dropped = new AtomicInteger();
        AtomicInteger pushed = new AtomicInteger();
        AtomicInteger popped = new AtomicInteger();
        AtomicBoolean duplicate = new AtomicBoolean();
        AtomicBoolean overBound = new AtomicBoolean();
        AtomicBoolean done = new AtomicBoolean();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            int base = p * perProducer;
            threads.add(Thread.ofPlatform().start(() -> {
                await(start);
                for (int i = 0; i < perProducer; i++) {
                    Item it = new Item(base + i);
                    it.inList.set(1);
                    if (list.push(it)) {
                        pushed.incrementAndGet();
                    } else {
                        it.inList.set(0);
                        dropped.incrementAndGet();
                    }
                    if (list.size() > capacity) {
                        overBound.set(true);
                    }
                }
            }));
        }
        Thread consumer = Thread.ofPlatform().start(() -> {
            await(start);
            while (!done.get() || list.size() > 0) {
                Item it = list.pop();
                if (it != null) {
                    if (it.inList.getAndSet(0) != 1) {
                        duplicate.set(true);
                    }
                    popped.incrementAndGet();
                }
            }
        });
        start.countDown();
        for (Thread t : threads) {
            t.join();
        }
        done.set(true);
        consumer.join();
        assertFalse(duplicate.get(), "an item was popped twice");
        assertFalse(overBound.get(), "the list held more than its bound");
        assertEquals(producers * perProducer, pushed.get() + dropped.get());
        assertEquals(pushed.get(), popped.get(), "every pushed item is popped exactly once");
        assertNull(list.pop());
    }

    private static void await(CountDownLatch l) {
        try {
            l.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
