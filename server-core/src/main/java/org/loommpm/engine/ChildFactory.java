package org.loommpm.engine;

import java.io.IOException;

/**
 * How the supervisor creates an in-JVM child: {@link #CHILDREN} in production. A seam rather than
 * a hook on the supervisor, so tests can supply a factory that fails (a child that cannot open its
 * selectors) without the production class carrying test-only state. Called on the thread that
 * starts the child (the embedding application's or "loom-supervisor").
 */
@FunctionalInterface
interface ChildFactory {
    /** Creates children with {@link Child}'s constructor. An anonymous class, not {@code Child::new}: a method reference spins a class at start-up. */
    ChildFactory CHILDREN = new ChildFactory() {
        @Override
        public Child create(int id, Generation g, Supervisor supervisor) throws IOException {
            return new Child(id, g.number(), g.config(), g.handler(), supervisor, g.listeners(), null);
        }
    };

    /**
     * Creates child {@code id} of {@code g}: opens its pollers and registers {@code g}'s listeners
     * with its poller 0 (see {@link Child}).
     *
     * @throws IOException if it cannot (nothing stays open then)
     */
    Child create(int id, Generation g, Supervisor supervisor) throws IOException;
}
