package org.loommpm.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;

/**
 * The registry of the protocols' counts: a group is made and registered once however many
 * threads ask for it, a listener sees every entry once (those before it and those after), a gauge
 * is opened minus ended, and a name registered twice or in {@link ProtocolCounters#NONE} fails.
 */
class ProtocolCountersTest {
    /** A protocol's holder, as the protocols write theirs. */
    static final class Sample {
        static final AtomicInteger MADE = new AtomicInteger();
        final LongAdder opened;
        final LongAdder closed;
        final LongAdder sent;

        Sample(ProtocolCounters registry) {
            MADE.incrementAndGet();
            opened = registry.counter("sample.opened", "opened");
            closed = registry.gauge("sample.open", "open now", opened);
            sent = registry.counter("sample.messages", "messages", "direction", "sent");
        }
    }

    @Test
    void aGroupIsMadeOnceAcrossThreads() throws Exception {
        ProtocolCounters registry = new ProtocolCounters();
        Sample.MADE.set(0);
        List<Sample> seen = new CopyOnWriteArrayList<>();
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            threads.add(Thread.ofPlatform().start(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    throw new RuntimeException(e);
                }
                seen.add(registry.group(Sample.class, Sample::new));
            }));
        }
        go.countDown();
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(1, Sample.MADE.get());
        for (Sample s : seen) {
            assertSame(seen.get(0), s);
        }
    }

    @Test
    void listenersSeeEachEntryOnceWhenEverTheyCame() {
        ProtocolCounters registry = new ProtocolCounters();
        LongAdder early = registry.counter("early", "before the listener");
        List<String> heard = new ArrayList<>();
        registry.onRegister(e -> heard.add(e.name() + e.tags() + " " + e.kind() + " " + e.description()));
        Sample s = registry.group(Sample.class, Sample::new);
        registry.group(Sample.class, Sample::new);
        assertEquals(List.of("early{} COUNTER before the listener", "sample.opened{} COUNTER opened",
                "sample.open{} GAUGE open now", "sample.messages{direction=sent} COUNTER messages"), heard);
        early.increment();
        s.opened.add(3);
        s.closed.increment();
        s.sent.increment();
        assertEquals(1, registry.value("early"));
        assertEquals(3, registry.value("sample.opened"));
        assertEquals(2, registry.value("sample.open"));
        assertEquals(1, registry.value("sample.messages", "direction", "sent"));
        assertEquals(0, registry.value("sample.messages"), "tags must match");
        assertEquals(0, registry.value("nobody.registered.this"));
    }

    @Test
    void mistakesFail() {
        ProtocolCounters registry = new ProtocolCounters();
        registry.counter("twice", "once", "k", "v");
        registry.counter("twice", "other tags", "k", "w");
        assertThrows(IllegalStateException.class, () -> registry.counter("twice", "again", "k", "v"));
        assertThrows(IllegalArgumentException.class, () -> registry.counter("odd", "tags", "k"));
        assertThrows(IllegalStateException.class, () -> ProtocolCounters.NONE.group(Sample.class, Sample::new));
        assertEquals(0, ProtocolCounters.NONE.value("sample.opened"));
    }
}
