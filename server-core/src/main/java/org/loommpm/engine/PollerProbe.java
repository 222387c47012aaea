package org.loommpm.engine;

/**
 * Called by a poller on its own thread at the top of every loop iteration, when the child was
 * created with one: how a test fixture wedges a poller to exercise the {@link PollerWatchdog}
 * without the poller carrying test-only state. Production children have none ({@code null}: one
 * final-field check per iteration).
 */
@FunctionalInterface
interface PollerProbe {
    /** The poller {@code p} starts an iteration. Its own thread. */
    void iteration(Poller p);
}
