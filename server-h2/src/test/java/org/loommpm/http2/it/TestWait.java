package org.loommpm.http2.it;

import java.util.function.BooleanSupplier;

/** Polls a condition with a deadline. */
final class TestWait {
    private TestWait() {
    }

    static void until(String what, int seconds, BooleanSupplier cond) throws InterruptedException {
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        while (!cond.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("timed out waiting for: " + what);
            }
            Thread.sleep(5);
        }
    }
}
