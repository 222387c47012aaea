package org.loommpm.bench;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;
import org.loommpm.api.EventStream;
import org.loommpm.api.Handler;
import org.loommpm.api.ServerSentEvent;
import org.loommpm.api.SuspendedResponse;

/**
 * The benchmark app's long-lived routes (loom only):
 * <ul>
 *   <li>{@code GET /events}: a Server-Sent Events stream; one broadcaster thread, started by the
 *       first subscriber, sends every subscriber an event with an increasing id every 100 ms, its
 *       data {@code t=<epoch µs>} (when it was sent, for the client's delivery latency). A
 *       reconnecting client's {@code Last-Event-ID} is honoured: the events after it still in the last 600 (one
 *       minute) are replayed first. A subscriber whose queue is full misses that event (it can
 *       catch up through Last-Event-ID): counted, not waited for.</li>
 *   <li>{@code GET /poll}: a long poll: suspended, answered {@code 204} by its deadline
 *       ({@code ?hold=SECONDS}, default 300), holding no worker slot meanwhile.</li>
 * </ul>
 */
final class BenchEvents {
    private static final int HISTORY = 600;
    private static final long PERIOD_MILLIS = 100;

    private final Set<EventStream> subscribers = ConcurrentHashMap.newKeySet();
    private final AtomicLong lastId = new AtomicLong();
    private final AtomicReferenceArray<ServerSentEvent> history = new AtomicReferenceArray<>(HISTORY);
    private final LongAdder skipped = new LongAdder();

    /**
     * Whether the broadcaster runs. It starts with the first subscriber, not with the app: the
     * other workloads' loom-mpm would otherwise run a thread waking ten times a second that no
     * peer's app has (about 2 ms of CPU a second, 0.2 µs a request at 10,000 req/s).
     */
    private final AtomicBoolean broadcasting = new AtomicBoolean();

    /** {@code GET /events}. */
    Handler events() {
        return (req, res) -> {
            if (broadcasting.compareAndSet(false, true)) {
                Thread.ofPlatform().daemon(true).name("bench-events").start(this::broadcast);
            }
            EventStream es = res.eventStream();
            String last = es.lastEventId();
            long now = lastId.get();
            if (last != null) {
                long from;
                try {
                    from = Long.parseLong(last.trim()) + 1;
                } catch (NumberFormatException e) {
                    from = now + 1;
                }
                for (long id = Math.max(from, now - HISTORY + 1); id <= now; id++) {
                    ServerSentEvent e = history.get((int) (id % HISTORY));
                    if (e != null && e.id().equals(Long.toString(id)) && !es.send(e)) {
                        break;
                    }
                }
            }
            subscribers.add(es);
            es.closed().thenRun(() -> subscribers.remove(es));
        };
    }

    /** {@code GET /poll[?hold=SECONDS]}. */
    static Handler poll() {
        return (req, res) -> {
            String hold = req.queryParam("hold");
            SuspendedResponse later = res.suspend(Duration.ofSeconds(hold == null ? 300 : Long.parseLong(hold)));
            later.onTimeout(() -> later.status(204).complete());
        };
    }

    private void broadcast() {
        long next = System.nanoTime();
        for (;;) {
            next += PERIOD_MILLIS * 1_000_000;
            long wait = next - System.nanoTime();
            if (wait > 0) {
                try {
                    Thread.sleep(Duration.ofNanos(wait));
                } catch (InterruptedException e) {
                    return;
                }
            }
            long id = lastId.incrementAndGet();
            Instant t = Instant.now();
            long micros = ChronoUnit.MICROS.between(Instant.EPOCH, t);
            ServerSentEvent e = ServerSentEvent.data("t=" + micros).id(Long.toString(id));
            history.set((int) (id % HISTORY), e);
            for (EventStream s : subscribers) {
                try {
                    if (!s.send(e)) {
                        skipped.increment();
                    }
                } catch (IOException gone) {
                    subscribers.remove(s);
                }
            }
        }
    }
}
