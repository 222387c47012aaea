package org.loommpm.engine;

/**
 * Told when a child starts and when it has exited, so per-child views (metrics) can follow the
 * children a server runs through (replacement, graceful restart). Calls are rare; they run on
 * the thread that starts the child (the embedding application's or "loom-supervisor") and on the
 * exiting child's last poller, and must not block.
 */
public interface ChildListener {
    /** A child was created; its pollers are about to start. */
    void childStarted(ChildStats child);

    /** Every poller of the child has ended; its counts are final. */
    void childExited(ChildStats child);
}
