package org.loommpm.engine;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.loommpm.config.SlotlessWaits;
import org.loommpm.spi.IntervalLog;
import org.loommpm.spi.WorkerTask;

/**
 * One child's workers: virtual threads, at most {@code ThreadsPerChild} running at once.
 *
 * <p>A task runs only while it holds a <em>slot</em> (its permit and its scoreboard row). A
 * dispatch that finds no free slot is queued as <em>pending</em>; a worker that finishes its task
 * takes the next pending task on the same virtual thread before it gives its slot back, so a
 * saturated pool starts no threads. Pending tasks wait in two lanes served alternately, a
 * connection's first work and the rest ({@link PendingLanes}), so a newcomer never waits behind
 * every busy keep-alive connection. The counts:
 * <ul>
 *   <li><b>active</b>: tasks holding a slot, including those parked on socket I/O;</li>
 *   <li><b>idle</b>: free slots ({@code ThreadsPerChild - active}, never below 0);</li>
 *   <li><b>pending</b>: dispatched tasks waiting for a slot.</li>
 * </ul>
 * Lost wake-ups are avoided the usual way: a dispatcher queues and then retries a slot; a
 * releaser frees its slot and then re-checks the queue. With both steps on sequentially
 * consistent atomics at least one side sees the other.
 *
 * <p><b>Lending a slot.</b> A slot means code is running. A running task that has to wait for
 * its peer for a while (an HTTP/2 stream whose response waits for the client's flow-control
 * window) {@link #lend}s its slot for the wait: it is free for other work at once and the task
 * is not counted as active. Before running on, the task {@link #reclaim}s a slot, any free one,
 * parking in {@link #reclaimers} until a releaser hands one on (the same queue-then-retry pair
 * as above); it reports the slot it ends with through {@link WorkerTask#slotAfterRun}. Pending tasks
 * take released slots first, so a reclaimer may wait while the pool is saturated: it waits as a
 * parked virtual thread, holding nothing. At most {@code MaxSlotlessWaits} tasks are lent out at
 * once ({@link #lent}): a {@link #lend} beyond that is refused (LM0302) and the task waits on its
 * slot, as every wait did before slots were lent, so the threads parked on peers stay within
 * {@code ThreadsPerChild + MaxSlotlessWaits}.
 *
 * <p><b>Connections move.</b> A connection's task ({@link Connection}) may lend its slot in a
 * read that waits on the client and go on with another; since the same connection may meanwhile
 * run in another task, it cannot report that slot through {@link WorkerTask#slotAfterRun} (a
 * field of the connection) but writes it into its worker's {@link Hold}, which only the worker's
 * thread touches.
 */
public final class WorkerPool {
    private static final System.Logger LOG = System.getLogger("org.loommpm.engine");
    /**
     * How long a connection's read waits on the client before it lends its slot (as HTTP/2's
     * stream writes do): a body that is arriving parks far shorter between its segments.
     */
    static final long LEND_AFTER_NANOS = 20_000_000;

    private final int size;
    private final SlotStack free;
    private final Scoreboard scoreboard;
    private final AtomicInteger active = new AtomicInteger();
    /** Pending tasks: any dispatcher offers, whoever holds a free slot polls (see {@link PendingLanes}). */
    private final PendingLanes queue = new PendingLanes();
    /** Tasks that lent their slot and have not reclaimed one (see {@link #lend}). */
    private final AtomicInteger lent = new AtomicInteger();
    /** MaxSlotlessWaits: the most tasks lent out at once. */
    private final int maxLent;
    /** Where a refused lend is logged (LM0302), once per interval. */
    private final IntervalLog intervalLog;
    /** Tasks parked in {@link #reclaim}: they offer themselves, releasers poll one and unpark it. */
    private final ConcurrentLinkedQueue<Thread> reclaimers = new ConcurrentLinkedQueue<>();
    private final Thread.Builder threads = Thread.ofVirtual();
    /** Where a task's out-of-memory error goes (it is fatal; other failures are LM0301). */
    private final FailStop failStop;
    /** Called after a slot is released: queued TLS handshake steps may go on (engine.HandshakeAdmission). */
    private final Runnable onSlotFreed;

    /**
     * @param size ThreadsPerChild
     * @param failStop the server's fail-stop policy
     */
    WorkerPool(int size, FailStop failStop) {
        this(size, SlotlessWaits.DEFAULTS.max(), () -> { }, failStop, new IntervalLog(Duration.ofSeconds(10)));
    }

    /**
     * @param size ThreadsPerChild
     * @param maxLent MaxSlotlessWaits (0: slots are never lent)
     * @param onSlotFreed called after a slot is released (the child's handshake admission pumps its queue)
     * @param failStop the server's fail-stop policy
     * @param intervalLog the server's interval log (LM0302)
     */
    WorkerPool(int size, int maxLent, Runnable onSlotFreed, FailStop failStop, IntervalLog intervalLog) {
        this.onSlotFreed = onSlotFreed;
        this.size = size;
        this.maxLent = maxLent;
        this.intervalLog = intervalLog;
        this.failStop = failStop;
        this.free = new SlotStack(size);
        this.scoreboard = new Scoreboard(size);
    }

    /** Runs {@code task} on a worker now, or as soon as a slot frees up. Any thread. */
    public void dispatch(WorkerTask task) {
        int slot = free.pop();
        if (slot >= 0) {
            start(slot, task);
            return;
        }
        queue.offer(task);
        // A slot released between our pop and offer would not have seen the task: retry.
        startPending();
    }

    /**
     * Starts queued tasks on free slots until one of them runs out: the dispatcher's retry after
     * it queued, and the re-check after a slot is lent (a releaser that found the queue empty
     * just before the offer left its slot free).
     */
    private void startPending() {
        while (!queue.isEmpty()) {
            int s = free.pop();
            if (s < 0) {
                return;
            }
            WorkerTask next = pollPending();
            if (next == null) {
                free.push(s);
                wakeReclaimer();
                return;
            }
            start(s, next);
        }
    }

    /**
     * Runs the owner task of a multiplexed connection (HTTP/2's frame loop) now: on a free slot
     * if there is one, otherwise at once on a virtual thread holding no slot (it then gets
     * {@link #WorkerTask.NO_SLOT}, is not counted as active and shows on no scoreboard row). Queuing it as
     * pending could deadlock: the connection's own stream tasks may hold every slot while they
     * wait for this task to write their output and read their request bodies. The protocol
     * bounds the owner's work per dispatch, and there is at most one owner task per connection.
     * Any thread.
     */
    public void dispatchOwner(WorkerTask task) {
        int slot = free.pop();
        if (slot >= 0) {
            start(slot, task);
            return;
        }
        threads.start(() -> {
            try {
                task.run(WorkerTask.NO_SLOT);
            } catch (Throwable t) {
                failed(t);
            }
        });
    }

    private void start(int slot, WorkerTask task) {
        // The dispatcher owns the slot it popped until the thread starts (thread start orders
        // this store before the worker's own), so the letter has one writer at a time.
        scoreboard.set(slot, Scoreboard.STARTING);
        active.incrementAndGet();
        threads.start(new Worker(slot, task));
    }

    /**
     * A worker thread's body. A class rather than a lambda: the capturing lambda's first use
     * spun a class and a method-handle form while the first request waited (~3 ms).
     */
    private final class Worker extends Hold implements Runnable {
        private final WorkerTask first;

        Worker(int slot, WorkerTask first) {
            this.slot = slot;
            this.first = first;
        }

        @Override
        public void run() {
            runLoop(this, slot, first);
        }
    }

    /**
     * The slot a worker holds while it runs a {@link Connection}'s task, which moves it when a
     * read lends its slot and reclaims another. The worker's thread only (the connection reaches
     * it through the run it was given).
     */
    static class Hold {
        /** The slot held now. */
        int slot;
    }

    private void runLoop(Hold hold, int slot, WorkerTask first) {
        WorkerTask task = first;
        int s = slot;
        for (;;) {
            s = runOne(hold, s, task);
            task = pollPending();
            if (task != null) {
                continue;
            }
            scoreboard.set(s, Scoreboard.WAITING);
            active.decrementAndGet();
            free.push(s);
            onSlotFreed.run();
            wakeReclaimer();
            // Re-check: a dispatcher may have queued after our poll but before our release.
            for (;;) {
                if (queue.isEmpty()) {
                    return;
                }
                s = free.pop();
                if (s < 0) {
                    return;
                }
                task = pollPending();
                if (task != null) {
                    active.incrementAndGet();
                    break;
                }
                free.push(s);
                wakeReclaimer();
            }
        }
    }

    /**
     * Gives the calling task's slot back while it waits for its peer (see the class comment); the
     * task must {@link #reclaim} one before it runs on. Pending tasks may start on the freed slot.
     * Refused when {@code MaxSlotlessWaits} tasks are lent out already: the task then keeps its
     * slot for the wait. The worker thread running that task only.
     *
     * @return whether the slot was lent
     */
    public boolean lend(int slot) {
        if (lent.incrementAndGet() > maxLent) {
            lent.decrementAndGet();
            if (maxLent > 0) {
                intervalLog.log(LOG, Level.WARNING, "LM0302 MaxSlotlessWaits ({0}) reached: waits on clients keep"
                        + " their worker slots", maxLent);
            }
            return false;
        }
        scoreboard.set(slot, Scoreboard.WAITING);
        active.decrementAndGet();
        free.push(slot);
        onSlotFreed.run();
        wakeReclaimer();
        startPending();
        return true;
    }

    /**
     * Takes a slot again after {@link #lend}: a free one at once, else parks until a releaser
     * hands one on. The task's thread only.
     *
     * @return the slot now held (counted active, its letter READING)
     */
    public int reclaim() {
        Thread me = Thread.currentThread();
        for (;;) {
            int s = free.pop();
            if (s < 0) {
                reclaimers.offer(me);
                // A slot released between the pop and the offer saw no reclaimer: retry once.
                s = free.pop();
                if (s < 0) {
                    LockSupport.park(this);
                    reclaimers.remove(me);
                    continue;
                }
                reclaimers.remove(me);
            }
            active.incrementAndGet();
            lent.decrementAndGet();
            scoreboard.set(s, Scoreboard.READING);
            return s;
        }
    }

    /** After a slot was pushed free: unparks one task waiting in {@link #reclaim}, if any. */
    private void wakeReclaimer() {
        Thread t = reclaimers.poll();
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    /** Runs {@code task} on {@code slot}: {@return the slot held after it} */
    private int runOne(Hold hold, int slot, WorkerTask task) {
        scoreboard.set(slot, Scoreboard.READING);
        MovesSlot m = task instanceof MovesSlot x ? x : null;
        hold.slot = slot;
        try {
            if (m != null) {
                m.run(hold);
            } else {
                task.run(slot);
            }
        } catch (Throwable t) {
            failed(t);
        }
        return m != null ? hold.slot : task.slotAfterRun(slot);
    }

    /**
     * A task whose run may move its slot (a {@link Connection}'s read that lends it, also when a
     * handshake step of {@link HandshakeAdmission} runs the connection): it reports the slot it
     * ends with in the worker's {@link Hold}, not through {@link WorkerTask#slotAfterRun}.
     */
    interface MovesSlot {
        /** Runs on the slot in {@code hold}, leaving there the slot held at the end. */
        void run(Hold hold);
    }

    /**
     * A task threw past its own handling: out of memory is fatal ({@link FailStop}); anything else
     * is a bug of that task, logged, and the worker goes on (a connection's task has closed the
     * connection it still owned: {@link Connection#run}).
     */
    private void failed(Throwable t) {
        if (!failStop.taskFailed(t)) {
            LOG.log(Level.ERROR, "LM0301 worker task failed", t);
        }
    }

    private WorkerTask pollPending() {
        return queue.poll();
    }

    /** ThreadsPerChild. */
    public int size() {
        return size;
    }

    /** Tasks holding a slot (running or parked on I/O). */
    public int active() {
        return active.get();
    }

    /** Free slots, never negative. Read {@link #active()} first when reading both. */
    public int idle() {
        return Math.max(0, size - active.get());
    }

    /** Tasks waiting for a slot. */
    public int pending() {
        return queue.size();
    }

    /** Of the {@link #pending} tasks, those in the newcomer lane (a connection's first work). */
    public int pendingNewcomers() {
        return queue.newcomers();
    }
    /** Tasks waiting on their peer without a slot (lent, not yet reclaimed); at most MaxSlotlessWaits. */
    public int lent() {
        return lent.get();
    }


    /** The slots' states. */
    public Scoreboard scoreboard() {
        return scoreboard;
    }
}
