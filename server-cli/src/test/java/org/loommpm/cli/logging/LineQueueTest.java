package org.loommpm.cli.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class LineQueueTest {
    @Test
    void takesAllInArrivalOrderAndGivesTheRoomBack() {
        LineQueue q = new LineQueue(2);
        assertTrue(q.offer("a"));
        q.push("control");
        assertTrue(q.offer("b"));
        assertFalse(q.offer("c"), "two lines wait: full");
        q.push("stop"); // control items are never refused
        List<Object> got = new ArrayList<>();
        for (LineQueue.Node n = q.takeAll(); n != null; n = n.next) {
            got.add(n.item);
        }
        assertEquals(List.of("a", "control", "b", "stop"), got);
        assertTrue(q.isEmpty());
        assertNull(q.takeAll());
        assertTrue(q.offer("d") && q.offer("e"), "the room came back");
    }

    /**
     * Four producers race one consumer: every accepted line arrives exactly once, each
     * producer's lines in its order, refused ones are exactly those offered while the bound was
     * taken, and one take never holds more lines than the bound.
     */
    @Test
    void manyProducersOneConsumer() throws Exception {
        int producers = 4;
        int perProducer = 200_000;
        int capacity = 1024;
        LineQueue q = new LineQueue(capacity);
        AtomicInteger accepted = new AtomicInteger();
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
                for (int i = 0; i < perProducer; i++) {
                    if (q.offer(new long[] {id, i})) {
                        accepted.incrementAndGet();
                    }
                }
            }));
        }
        long[] last = new long[producers];
        Arrays.fill(last, -1);
        int received = 0;
        start.countDown();
        boolean producing = true;
        while (producing || !q.isEmpty()) {
            producing = threads.stream().anyMatch(Thread::isAlive);
            int inTake = 0;
            for (LineQueue.Node n = q.takeAll(); n != null; n = n.next) {
                long[] line = (long[]) n.item;
                int id = (int) line[0];
                assertTrue(line[1] > last[id], "producer " + id + "'s order: " + line[1] + " after " + last[id]);
                last[id] = line[1];
                received++;
                inTake++;
            }
            assertTrue(inTake <= capacity, "one take held " + inTake + " lines, bound " + capacity);
        }
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(accepted.get(), received);
        assertTrue(received > 0);
        assertTrue(q.offer(new long[] {0, 0}), "all the room is back");
    }
}
