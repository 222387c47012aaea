package org.loommpm.http;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Says when a failure's stack trace is worth logging: the first time its throw site fails in a
 * window (a minute for handler failures), not again until the window has passed. The site is the
 * exception's class and the top frame of its stack. A handler that throws on every request then
 * costs its log one line per request (the exception's class and message) instead of a whole trace
 * each (17 lines, 1.1 KB, for a plain {@code RuntimeException} through a router). Thread-safe.
 *
 * <p>At most {@link #MAX_SITES} sites are remembered, so exceptions made on the fly (generated
 * classes, sites without end) cannot grow it: when it is full, expired sites are dropped, and a
 * new site's trace waits until there is room.
 */
public final class StackTraceLimiter {
    /** The one for failures of the application's handlers, shared by the protocols. */
    public static final StackTraceLimiter HANDLERS = new StackTraceLimiter(Duration.ofMinutes(1), System::nanoTime);
    /** What a line whose trace is left out says about it. */
    public static final String NOT_REPEATED = " (stack trace: once a minute per throw site)";
    /** Sites remembered at most. */
    static final int MAX_SITES = 1024;

    private final long windowNanos;
    private final LongSupplier nanoClock;
    /** Site, and when its trace was last logged ({@code nanoClock}'s time). */
    private final ConcurrentHashMap<String, Long> traced = new ConcurrentHashMap<>();

    /**
     * @param window how long a site's trace is not repeated
     * @param nanoClock the time in nanoseconds ({@link System#nanoTime} but in tests)
     */
    public StackTraceLimiter(Duration window, LongSupplier nanoClock) {
        this.windowNanos = window.toNanos();
        this.nanoClock = nanoClock;
    }

    /**
     * {@code t} when its stack trace is to be logged now: its site has not been traced within the
     * window, or {@code always} (the logger is at debug, where every trace is wanted); else
     * {@code null}, and the caller logs the exception's class and message alone.
     */
    public Throwable traceOrNull(Throwable t, boolean always) {
        if (always) {
            return t;
        }
        String site = site(t);
        long now = nanoClock.getAsLong();
        if (traced.size() >= MAX_SITES && !traced.containsKey(site)) {
            traced.values().removeIf(at -> now - at >= windowNanos);
            if (traced.size() >= MAX_SITES) {
                return null;
            }
        }
        boolean[] due = new boolean[1];
        traced.compute(site, (k, at) -> {
            due[0] = at == null || now - at >= windowNanos;
            return due[0] ? now : at;
        });
        return due[0] ? t : null;
    }

    /** The exception's class and the frame it was thrown from (its class alone when it has no trace). */
    static String site(Throwable t) {
        StackTraceElement[] stack = t.getStackTrace();
        return stack.length == 0 ? t.getClass().getName() : t.getClass().getName() + " at " + stack[0];
    }
}
