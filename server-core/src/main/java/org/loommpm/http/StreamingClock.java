package org.loommpm.http;

import java.lang.System.Logger.Level;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;

/**
 * The one thread that keeps time for suspended exchanges and event streams of every server in
 * the JVM: their deadlines, the graceful-stop rule and event-stream heartbeats (see
 * {@link SuspendedExchange#tick}). A platform daemon thread, started on first use, that looks at
 * each registered exchange every {@link #TICK_MILLIS} ms; it never writes to a socket itself (what
 * it sends is queued like any other thread's send). Deadlines are therefore kept to within a tick.
 *
 * <p>One thread rather than a timer per exchange, so a suspended exchange costs a set entry,
 * not a scheduled task, and no thread is held per exchange. Registration: any thread adds and
 * removes (a concurrent set); only the clock thread iterates. With nothing registered the thread
 * parks instead of ticking; {@link #add} unparks it (an unpark before the park is not lost: it
 * leaves the permit).
 */
final class StreamingClock implements Runnable {
    static final StreamingClock INSTANCE = new StreamingClock();
    static final long TICK_MILLIS = 100;
    private static final System.Logger LOG = System.getLogger("org.loommpm.http");

    private final Set<SuspendedExchange> exchanges = ConcurrentHashMap.newKeySet();
    private volatile Thread thread;

    private StreamingClock() {
    }

    void add(SuspendedExchange e) {
        exchanges.add(e);
        Thread t = thread;
        if (t == null) {
            startThread();
        } else {
            LockSupport.unpark(t);
        }
    }

    void remove(SuspendedExchange e) {
        exchanges.remove(e);
    }

    /** Exchanges registered now (tests). */
    int size() {
        return exchanges.size();
    }

    private synchronized void startThread() {
        if (thread == null) {
            thread = Thread.ofPlatform().daemon(true).name("loom-streaming-clock").start(this);
        }
    }

    @Override
    public void run() {
        for (;;) {
            if (exchanges.isEmpty()) {
                LockSupport.park(this); // until the next add: nothing to keep time for
                continue;
            }
            try {
                Thread.sleep(TICK_MILLIS);
            } catch (InterruptedException e) {
                // Never interrupted by the server; keep time.
            }
            long now = System.nanoTime();
            for (SuspendedExchange e : exchanges) {
                try {
                    e.tick(now);
                } catch (RuntimeException | Error t) {
                    LOG.log(Level.ERROR, "LM1605 the streaming clock failed on an exchange; it is ended", t);
                    exchanges.remove(e);
                    e.clientGone();
                }
            }
        }
    }
}
