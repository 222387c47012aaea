package org.loommpm.http2;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * Bounds how long a handler run inline ({@link InlineRun}) keeps its connection's frame loop:
 * one virtual thread per generation of HTTP/2 connections looks every {@link #TICK_NANOS} at the
 * runs in progress and escapes those older than {@link #ESCAPE_AFTER_NANOS}, so a handler that
 * blocks (a slow backend, a sleep) delays the other streams of its connection by at most about
 * {@code ESCAPE_AFTER + TICK}, after which they are read and served as before.
 *
 * <p><b>Threads.</b> {@link #running}: a concurrent set; frame loops add and remove their run
 * (any thread), the watcher iterates. The watcher starts on the first run and ends after
 * {@link #IDLE_TICKS} ticks without any, so an idle server has no timer wake-ups;
 * {@link #active} (CAS) makes sure at most one watcher runs and that a run added while it
 * was ending is not missed.
 */
final class InlineWatch {
    /** How often the watcher looks. */
    static final long TICK_NANOS = 5_000_000;
    /** How long an inline handler may run before its connection's loop goes on without it. */
    static final long ESCAPE_AFTER_NANOS = 5_000_000;
    /** Ticks without any run after which the watcher ends (about a second). */
    private static final int IDLE_TICKS = 200;

    private final Set<InlineRun> running = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean active = new AtomicBoolean();

    /** A run began. Any thread. */
    void add(InlineRun r) {
        running.add(r);
        if (!active.get() && active.compareAndSet(false, true)) {
            Thread.ofVirtual().name("h2-inline-watch").start(this::watch);
        }
    }

    /** A run ended. Any thread. */
    void remove(InlineRun r) {
        running.remove(r);
    }

    private void watch() {
        int idle = 0;
        for (;;) {
            LockSupport.parkNanos(this, TICK_NANOS);
            if (running.isEmpty()) {
                if (++idle < IDLE_TICKS) {
                    continue;
                }
                active.set(false);
                // A run added between the look and the flag found the watcher still active.
                if (running.isEmpty() || !active.compareAndSet(false, true)) {
                    return;
                }
            }
            idle = 0;
            long now = System.nanoTime();
            for (InlineRun r : running) {
                r.escapeIfSlow(now, ESCAPE_AFTER_NANOS);
            }
        }
    }
}
