package org.loommpm.engine;

import java.lang.System.Logger.Level;

/**
 * Liveness of pollers (spamd's ping, for threads): a poller stores a heartbeat at the top of
 * every loop iteration, and its loop wakes at least every 100 ms, so a heartbeat older than
 * {@code ChildWatchdogTimeout} means the poller is stuck (a blocking call that should not
 * block, a runaway loop, a deadlock). The watchdog then marks the poller's child sick: the child
 * stops accepting, its connections get the graceful-stop treatment, and the supervisor starts a
 * replacement; the stuck thread's stack is logged (LM0803) so the cause can be found.
 *
 * <p>Runs on the supervisor thread only, once per maintenance interval; reads the pollers'
 * volatile heartbeats and writes nothing they read.
 */
final class PollerWatchdog {
    private static final System.Logger LOG = System.getLogger("org.loommpm.engine");

    private final long timeoutNanos;

    /** @param timeoutNanos ChildWatchdogTimeout in nanoseconds; 0 disables the watchdog */
    PollerWatchdog(long timeoutNanos) {
        this.timeoutNanos = timeoutNanos;
    }

    /**
     * Checks every poller of {@code child}; marks the child sick on the first stuck one.
     *
     * @return whether a stuck poller was found (false for a child already sick)
     */
    boolean check(Child child, long now) {
        checkInline(child, now);
        if (timeoutNanos == 0 || child.state() == ChildState.SICK) {
            return false;
        }
        for (Poller p : child.pollerArray()) {
            long silent = silentNanos(p, now);
            if (silent > timeoutNanos) {
                report(child, p, silent);
                child.markSick("poller " + p.index() + " stuck for " + silent / 1_000_000 + " ms");
                return true;
            }
        }
        return false;
    }

    /**
     * LM2501: a poller that has been inside a non-blocking handler (served inline) for longer
     * than {@code NonBlockingHandlerLimit} when this looks: its stack is logged once per such
     * stall, so the blocking call can be found while it blocks.
     */
    private static void checkInline(Child child, long now) {
        long limit = child.config().nonBlockingHandlerLimit().toNanos();
        if (limit == 0) {
            return;
        }
        for (Poller p : child.pollerArray()) {
            long since = p.inlineBoard().servingSince();
            if (since == 0 || now - since <= limit || p.inlineReported == since) {
                continue;
            }
            p.inlineReported = since;
            Thread t = p.thread();
            var r = p.inlineBoard().current();
            Throwable where = new Throwable("stack of " + (t != null ? t.getName() : "poller " + p.index())
                    + " inside a non-blocking handler");
            where.setStackTrace(t != null ? t.getStackTrace() : new StackTraceElement[0]);
            LOG.log(Level.WARNING, "LM2501 child " + child.id() + ": poller " + p.index() + " has been inside a "
                    + "non-blocking handler (" + (r != null ? r.method() + " " + r.path() : "?") + ") for "
                    + (now - since) / 1_000_000 + " ms (NonBlockingHandlerLimit): the handler blocks; its "
                    + "poller's other connections wait meanwhile", where);
        }
    }

    /** How long {@code p} has gone without a heartbeat; 0 for a poller not started or already ended. */
    static long silentNanos(Poller p, long now) {
        if (p.hasExited()) {
            return 0;
        }
        long beat = p.heartbeat();
        long since = beat != 0 ? beat : p.startedNanos();
        return since == 0 ? 0 : now - since;
    }

    private static void report(Child child, Poller p, long silent) {
        Thread t = p.thread();
        Throwable where = new Throwable("stack of " + (t != null ? t.getName() : "poller " + p.index())
                + " (state " + (t != null ? t.getState() : "not started") + ") when the watchdog fired");
        where.setStackTrace(t != null ? t.getStackTrace() : new StackTraceElement[0]);
        LOG.log(Level.ERROR, "LM0803 child " + child.id() + " (generation " + child.generation() + "): poller "
                + p.index() + " has not completed a loop iteration for " + silent / 1_000_000
                + " ms (ChildWatchdogTimeout); the child is sick: it stops accepting, finishes its connections "
                + "and a replacement starts", where);
    }
}
