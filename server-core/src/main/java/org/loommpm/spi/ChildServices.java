package org.loommpm.spi;

/**
 * What a protocol may use of the child its connection belongs to, and nothing more: running
 * work on the child's workers, the worker slots' scoreboard, whether the child is finishing, and
 * the server-wide protocol counters, the child's input budget. The child itself, its pool and its pollers stay the
 * engine's. Any thread (each method says what it needs).
 */
public interface ChildServices {
    /**
     * Runs {@code task} on a worker now, or as soon as a slot frees up (admission-counted).
     *
     * @param task the task
     */
    void dispatch(WorkerTask task);

    /**
     * Runs a multiplexed connection's owner task now, on a free slot or without one
     * ({@link WorkerTask#NO_SLOT}): never queued behind the connection's own tasks, which may
     * hold every slot while they wait for it.
     *
     * @param task the connection's owner task
     */
    void dispatchOwner(WorkerTask task);

    /**
     * Gives a running task's slot back while it waits for its peer; it must {@link #reclaim}
     * one before running on. Refused when the child has {@code MaxSlotlessWaits} tasks lent out
     * already: the task then keeps its slot for the wait. The task's own thread.
     *
     * @param slot the slot the task holds
     * @return whether the slot was lent (only then does the task {@link #reclaim} one)
     */
    boolean lend(int slot);

    /** {@return takes a slot again after {@link #lend}, parking until one is free. The task's own thread} */
    int reclaim();

    /** {@return tasks holding a slot now (running or parked on I/O)} */
    int busyWorkers();

    /** {@return the worker slots' states and current requests (mod_status's scoreboard)} */
    SlotBoard scoreboard();

    /**
     * Counts a completed exchange that ended holding no worker slot (a suspended HTTP/2 exchange
     * answered from another thread) in the child's request and byte totals, as a slot's
     * {@link SlotBoard#requestDone} does for the others. Any thread.
     *
     * @param bytesSent the response's bytes on the wire
     */
    void requestDoneWithoutSlot(long bytesSent);

    /** {@return whether the child accepts nothing more and finishes its connections (retiring, restart)} */
    boolean isDraining();

    /** {@return whether the server is stopping: connections end as soon as they are idle} */
    boolean isStopping();

    /** {@return the registry of the server-wide counts the protocols keep, each registering its own} */
    ProtocolCounters counters();

    /**
     * {@return the child's bound on what clients make it hold in memory: a consumer reserves
     * before it buffers client bytes and releases on every path that lets them go (see
     * {@link InputBudget}). Any thread}
     */
    InputBudget inputBudget();

    /**
     * {@return where per-connection lines that come in floods under attack (timeouts) are logged:
     * the server's, one line per id per interval with a count}
     */
    IntervalLog intervalLog();

    /**
     * {@return the CPU this child spent for each client address: protocols charge the work a
     * client makes them do (oversized header blocks, inflating) and slow or close its connection
     * on the verdict. Any thread}
     */
    ClientCharges charges();
}
