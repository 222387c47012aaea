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
}
