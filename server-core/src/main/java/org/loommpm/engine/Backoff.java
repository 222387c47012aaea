package org.loommpm.engine;

/**
 * The start-up retry schedule both supervisors share: {@link Supervisor} for an in-JVM child that
 * could not open its selectors or threads, the jar's process supervisor for a child process that
 * died before it was ready. The wait before the next attempt is 100 ms, doubling, at most 10 s; a
 * generation of which not one child starts is given up after {@value #START_ATTEMPTS} attempts
 * per child. Constants and a pure function: any thread.
 */
public final class Backoff {
    /** Attempts per child before a generation of which no child could start is given up. */
    public static final int START_ATTEMPTS = 5;
    private static final long FIRST_NANOS = 100_000_000L;
    private static final long MAX_NANOS = 10_000_000_000L;

    private Backoff() {
    }

    /** The wait before attempt {@code failures + 1}: 100 ms doubling, at most 10 s (100 ms for 0 or 1 failure). */
    public static long nanos(int failures) {
        return Math.min(MAX_NANOS, FIRST_NANOS << Math.min(20, Math.max(0, failures - 1)));
    }
}
