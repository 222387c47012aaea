package org.loommpm.engine;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A child factory for tests: its next {@code n} starts fail as if no selector could be opened,
 * or its next one throws an error (on the supervisor thread for a replacement, which ends it),
 * and the children it creates can have a poller stalled at the top of its next loop iteration
 * (the children carry this fixture as their {@link PollerProbe}). Any thread.
 */
final class StartFaults implements ChildFactory, PollerProbe {
    private final AtomicInteger left = new AtomicInteger();
    private final java.util.concurrent.atomic.AtomicReference<Error> error = new java.util.concurrent.atomic.AtomicReference<>();
    private final Map<Poller, Runnable> stalls = new ConcurrentHashMap<>();

    /** The next {@code n} child starts fail (0: none do). */
    void failNext(int n) {
        left.set(n);
    }

    /** The next child start throws {@code e}. */
    void throwNext(Error e) {
        error.set(e);
    }

    /** Runs {@code r} on {@code p}'s thread at the top of its next iteration (a test wedges it there). */
    void stallNextIteration(Poller p, Runnable r) {
        stalls.put(p, r);
        p.wakeup();
    }

    @Override
    public void iteration(Poller p) {
        Runnable r = stalls.remove(p);
        if (r != null) {
            r.run();
        }
    }

    @Override
    public Child create(int id, Generation g, Supervisor supervisor) throws IOException {
        Error e = error.getAndSet(null);
        if (e != null) {
            throw e;
        }
        for (int n = left.get(); n > 0; n = left.get()) {
            if (left.compareAndSet(n, n - 1)) {
                throw new IOException("injected start-up failure (test fixture)");
            }
        }
        return new Child(id, g.number(), g.config(), g.handler(), supervisor, g.listeners(), this);
    }
}
