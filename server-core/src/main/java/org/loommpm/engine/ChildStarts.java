package org.loommpm.engine;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Starting in-JVM children, and starting them again with {@link Backoff} when they cannot start
 * (no selector, no thread: usually a resource limit). A generation's start is synchronous: it
 * returns once one child runs, leaving the others to be retried in the background, and fails
 * (LM0806) if not one could start after {@value Backoff#START_ATTEMPTS} attempts, instead of
 * leaving a server with no child.
 *
 * <p>Threads: {@link #startGeneration} runs on the caller of the supervisor's start or restart;
 * {@link #startOrRetry} and {@link #retryDue} on the supervisor thread. The retry queue is
 * concurrent: any of them adds, only the supervisor thread takes.
 */
final class ChildStarts {
    private static final System.Logger LOG = System.getLogger("org.loommpm.engine");

    /** Starts one child of a generation (the supervisor's: create, register, start its pollers). */
    @FunctionalInterface
    interface Starter {
        void start(Generation g) throws IOException;
    }

    /** A child whose start failed, to be tried again at {@code dueNanos}. */
    private record PendingStart(Generation generation, int attempt, long dueNanos) {
    }

    private final Starter starter;
    private final ConcurrentLinkedQueue<PendingStart> retries = new ConcurrentLinkedQueue<>();

    ChildStarts(Starter starter) {
        this.starter = starter;
    }

    /**
     * Starts {@code g}'s StartServers children. Those that fail are retried later, in the
     * background, as long as one has started; if none has after {@value Backoff#START_ATTEMPTS}
     * attempts (with back-off), gives up.
     *
     * @throws IOException if not one child of the generation could start (LM0806)
     */
    void startGeneration(Generation g) throws IOException {
        int missing = 0;
        Exception last = null;
        for (int i = 0; i < g.config().startServers(); i++) {
            Exception e = tryStart(g, 1, true);
            if (e != null) {
                missing++;
                last = e;
            }
        }
        for (int attempt = 2; missing == g.config().startServers(); attempt++) {
            if (attempt > Backoff.START_ATTEMPTS) {
                String msg = "no child of generation " + g.number() + " could start after " + Backoff.START_ATTEMPTS
                        + " attempts (a resource shortage or an unrecoverable failure before any child was "
                        + "ready); last failure: " + last.getMessage();
                LOG.log(Level.ERROR, "LM0806 " + msg);
                throw new IOException(msg, last);
            }
            sleep(Backoff.nanos(attempt - 1));
            last = tryStart(g, attempt, attempt < Backoff.START_ATTEMPTS);
            if (last == null) {
                missing--;
            }
        }
        for (int i = 0; i < missing; i++) {
            retries.add(new PendingStart(g, 2, System.nanoTime() + Backoff.nanos(1)));
        }
    }

    private static void sleep(long nanos) throws IOException {
        try {
            Thread.sleep(nanos / 1_000_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while starting children", e);
        }
    }

    /**
     * Starts a child of {@code g}; returns null, or the failure (logged, LM0805).
     *
     * @param retry whether another attempt follows a failure (said in the log line)
     */
    private Exception tryStart(Generation g, int attempt, boolean retry) {
        try {
            starter.start(g);
            return null;
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.WARNING, "LM0805 could not start a child of generation " + g.number() + " (attempt "
                    + attempt + "): " + e.getMessage()
                    + (retry ? "; next attempt in " + Backoff.nanos(attempt) / 1_000_000 + " ms" : ""));
            return e;
        }
    }

    /** Starts a child, or retries it later if it cannot start now. Supervisor thread. */
    void startOrRetry(Generation g) {
        if (tryStart(g, 1, true) != null) {
            retries.add(new PendingStart(g, 2, System.nanoTime() + Backoff.nanos(1)));
        }
    }

    /** Tries the starts of {@code g} that are due; drops those of older generations. Supervisor thread. */
    void retryDue(Generation g, long now) {
        List<PendingStart> later = new ArrayList<>();
        PendingStart p;
        while ((p = retries.poll()) != null) {
            if (p.generation() != g) {
                continue; // a newer generation replaced it: nothing to start any more
            }
            if (p.dueNanos() - now > 0) {
                later.add(p);
            } else if (tryStart(g, p.attempt(), true) != null) {
                later.add(new PendingStart(g, p.attempt() + 1, now + Backoff.nanos(p.attempt())));
            }
        }
        retries.addAll(later);
    }

    /** Children of {@code g} waiting for a retried start. */
    int waiting(Generation g) {
        int n = 0;
        for (PendingStart p : retries) {
            if (p.generation() == g) {
                n++;
            }
        }
        return n;
    }

    /** Forgets every pending retry (a drain or stop: nothing more starts). */
    void clear() {
        retries.clear();
    }
}
