package org.loommpm.engine;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;

/** A child factory whose next {@code n} starts fail as if no selector could be opened. Any thread. */
final class StartFaults implements ChildFactory {
    private final AtomicInteger left = new AtomicInteger();

    /** The next {@code n} child starts fail (0: none do). */
    void failNext(int n) {
        left.set(n);
    }

    @Override
    public Child create(int id, Generation g, Supervisor supervisor) throws IOException {
        for (int n = left.get(); n > 0; n = left.get()) {
            if (left.compareAndSet(n, n - 1)) {
                throw new IOException("injected start-up failure (test fixture)");
            }
        }
        return ChildFactory.CHILDREN.create(id, g, supervisor);
    }
}
