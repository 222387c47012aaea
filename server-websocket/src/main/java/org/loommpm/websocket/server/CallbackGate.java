package org.loommpm.websocket.server;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Decides who runs a socket's {@code onClose}, so that it never overlaps a callback and runs
 * exactly once: an HTTP/2 reset or a forced stop may end the socket while a worker is still
 * reading its frames or inside {@code onText}.
 *
 * <p><b>Contract</b> (lock-free, one counter). Workers call {@link #enter()} before they read the
 * socket's frames or run a callback and {@link #leave()} after, nested or not; the thread that
 * ends the connection calls {@link #end()} once. Exactly one of these calls returns
 * {@code true}, and its caller runs {@code onClose}: {@code end()} when no worker is inside,
 * else the last worker to leave. A worker must not enter after the end (nothing dispatches a
 * socket whose connection has ended); one that did would not be waited for.
 */
final class CallbackGate {
    /** Set by {@link #end()}. */
    private static final int ENDED = 1 << 30;
    /** Set by the call that returned {@code true}: no later call can. */
    private static final int DONE = 1 << 29;

    /** Workers inside, plus the two flags. */
    private final AtomicInteger state = new AtomicInteger();

    void enter() {
        state.incrementAndGet();
    }

    /** {@return whether the caller, the last to leave after the end, runs onClose now} */
    boolean leave() {
        return state.decrementAndGet() == ENDED && state.compareAndSet(ENDED, ENDED | DONE);
    }

    /** {@return whether the caller runs onClose now: no worker was inside} */
    boolean end() {
        return state.addAndGet(ENDED) == ENDED && state.compareAndSet(ENDED, ENDED | DONE);
    }
}
