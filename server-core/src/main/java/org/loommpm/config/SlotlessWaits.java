package org.loommpm.config;

/**
 * Waits on a client that hold no worker slot, with their default; one {@link ServerConfig} field.
 * A worker slot means code is running: a task that has waited on its client for more than 20 ms
 * (an HTTP/1.1 or HTTP/2 request body not arriving, an HTTP/2 response held back by the client's
 * flow-control window) lends its slot for the rest of the wait and takes one again before it runs
 * on. {@code docs/configuration.md} and {@code docs/architecture.md} ("Worker pool and admission
 * control") describe it.
 *
 * @param max {@code MaxSlotlessWaits}: how many such waits one child holds at once; a wait past
 *        that keeps its slot (as every wait did before slots were lent), so the virtual threads
 *        parked on clients stay within {@code ThreadsPerChild + MaxSlotlessWaits} per child;
 *        0 never lends a slot
 */
public record SlotlessWaits(int max) {
    /**
     * The default: 1024 per child, four times the default {@code ThreadsPerChild}. Each such wait
     * is one connection's (or HTTP/2 stream's) parked virtual thread and what its handler holds,
     * a few tens of KiB: about 40 MB per child at the bound.
     */
    public static final SlotlessWaits DEFAULTS = new SlotlessWaits(1024);

    /** Checks the bound. */
    public SlotlessWaits {
        if (max < 0) {
            throw new IllegalArgumentException("MaxSlotlessWaits must be 0 or more, got " + max);
        }
    }
}
