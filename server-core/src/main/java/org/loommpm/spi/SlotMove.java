package org.loommpm.spi;

/**
 * Told that the task serving a connection runs on another worker slot: a read that waited on the
 * client lent the task's slot for the wait ({@link ProtocolConnection#read(java.nio.ByteBuffer, long, SlotMove)})
 * and reclaimed one, maybe another, before returning. The protocol shows its exchange in that slot
 * of the scoreboard again and writes its rows there from now on. Called on the task's own thread,
 * holding the new slot.
 */
@FunctionalInterface
public interface SlotMove {
    /**
     * The task holds {@code slot} now (its scoreboard row shows {@link SlotBoard#READING} and the
     * request the row's previous holder served).
     *
     * @param slot the slot held now
     */
    void movedTo(int slot);

    /**
     * Whether the next wait lends the slot at once instead of after its 20 ms grace: once a body
     * has been slow (a wait of it lent the slot), each later wait for it does. Otherwise a client
     * sending a byte a little more often than every 20 ms would keep its slot most of the time.
     *
     * @return whether to lend at once
     */
    default boolean lendAtOnce() {
        return false;
    }
}
