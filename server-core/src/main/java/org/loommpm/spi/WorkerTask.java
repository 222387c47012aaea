package org.loommpm.spi;

/**
 * Work for one worker slot of a child ({@link ChildServices#dispatch}): a connection's turn on a
 * worker, or an HTTP/2 stream's handler. It runs on a virtual thread that holds the slot.
 */
@FunctionalInterface
public interface WorkerTask {
    /** The slot a task started by {@link ChildServices#dispatchOwner} receives when it holds none. */
    int NO_SLOT = -1;

    /**
     * Runs on a virtual thread holding worker slot {@code slot} (or {@link #NO_SLOT}).
     *
     * @param slot the slot held
     */
    void run(int slot);

    /**
     * The slot the task holds once {@link #run} returned: {@code slot}, unless it lent its slot
     * and reclaimed another ({@link ChildServices#lend}, {@link ChildServices#reclaim}).
     *
     * @param slot the slot the task ran with
     * @return the slot it holds now
     */
    default int slotAfterRun(int slot) {
        return slot;
    }

    /**
     * Whether this is its connection's first work waiting for a slot: a new connection's first
     * request, or an HTTP/2 stream of a connection that has nothing else running. When every slot
     * is busy such tasks wait in a lane of their own, served in turn with the others, so a new
     * client does not queue behind every busy keep-alive connection. Asked once, by the
     * dispatching thread, when the task is queued.
     *
     * @return {@code true} for a connection's first work; {@code false} (the default) otherwise
     */
    default boolean newcomer() {
        return false;
    }
}
