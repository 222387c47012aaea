package org.loommpm.engine;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.loommpm.spi.WorkerTask;

/**
 * The {@link WorkerPool}'s pending tasks: two FIFO lanes, served alternately while both hold
 * tasks, so that neither class of work waits behind the other.
 * <ul>
 *   <li><b>newcomers</b>: a connection's first work ({@link WorkerTask#newcomer()}: a new
 *       connection's first request, an HTTP/2 stream of a connection that has nothing running);</li>
 *   <li><b>regulars</b>: everything else (a keep-alive client's next request, a busy HTTP/2
 *       connection's further streams).</li>
 * </ul>
 * Under keep-alive overload the regular lane is as long as there are busy connections, and a
 * single FIFO put a newcomer behind all of them; here it waits behind the newcomers before it
 * only, each of which takes every other released slot. A newcomer so waits no longer than a
 * keep-alive client's next request does (see docs/architecture.md, "Worker pool and admission
 * control").
 *
 * <p><b>Contract.</b> Lock-free, multi-producer multi-consumer. Any dispatcher {@link #offer}s
 * (pollers, workers redispatching, HTTP/2 frame loops); whoever holds a free slot {@link #poll}s
 * (a worker that finished its task, a dispatcher retrying after its offer, a lender). Each lane
 * is a {@link ConcurrentLinkedQueue}, whose offer and poll are sequentially consistent, so the
 * pool's queue-then-retry / release-then-recheck pair keeps working across both lanes:
 * {@link #isEmpty} reads both. The alternation flag is a plain volatile written by pollers
 * without a CAS: two concurrent polls may both take from the same lane, which costs one turn of
 * fairness, never a task.
 */
final class PendingLanes {
    private final ConcurrentLinkedQueue<WorkerTask> newcomers = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<WorkerTask> regulars = new ConcurrentLinkedQueue<>();
    private final AtomicInteger size = new AtomicInteger();
    private final AtomicInteger newcomerCount = new AtomicInteger();
    /** Which lane the next poll tries first; flipped whenever that lane supplied the task. */
    private volatile boolean newcomersNext = true;

    /** Queues {@code task} in its lane. Any thread. */
    void offer(WorkerTask task) {
        if (task.newcomer()) {
            newcomers.offer(task);
            newcomerCount.incrementAndGet();
        } else {
            regulars.offer(task);
        }
        size.incrementAndGet();
    }

    /**
     * Takes the next task: from the lane whose turn it is, or the other one when that lane is
     * empty (the turn then stays, so the lane that had nothing comes first when it has). Any
     * thread holding a free slot.
     *
     * @return the task, or {@code null} when both lanes are empty
     */
    WorkerTask poll() {
        boolean first = newcomersNext;
        WorkerTask t = first ? pollNewcomer() : regulars.poll();
        if (t != null) {
            newcomersNext = !first;
        } else {
            t = first ? regulars.poll() : pollNewcomer();
        }
        if (t != null) {
            size.decrementAndGet();
        }
        return t;
    }

    private WorkerTask pollNewcomer() {
        WorkerTask t = newcomers.poll();
        if (t != null) {
            newcomerCount.decrementAndGet();
        }
        return t;
    }

    /** Whether both lanes are empty (reads both, for the pool's re-checks). Any thread. */
    boolean isEmpty() {
        return newcomers.isEmpty() && regulars.isEmpty();
    }

    /** Tasks queued in both lanes (a count for observers; never below 0). Any thread. */
    int size() {
        return Math.max(0, size.get());
    }

    /** Tasks queued in the newcomer lane (for observers). Any thread. */
    int newcomers() {
        return Math.max(0, newcomerCount.get());
    }
}
