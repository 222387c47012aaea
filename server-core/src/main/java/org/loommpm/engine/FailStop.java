package org.loommpm.engine;

import java.lang.System.Logger.Level;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Fail-stop: the errors after which a server must not go on as if nothing had happened, and
 * who decides what ends then.
 *
 * <p><b>What is fatal.</b> A poller or the supervisor thread ending on an uncaught throwable: a
 * dead poller strands every connection bound to it (poller 0's death also stops accepting), a
 * dead supervisor replaces no child and runs no watchdog, and either way the process stays up
 * serving less or nothing, which no process manager notices. And an {@link OutOfMemoryError}
 * seen by an engine thread (a worker, a poller, the supervisor): after one, any allocation of
 * any thread may fail in code that does not expect it, so the state of the whole process is in
 * doubt. An out-of-memory error ending a poller or the supervisor counts as out of memory.
 *
 * <p><b>What happens.</b> One ERROR line (LM2600 out of memory, LM2601 a poller died, LM2602 the
 * supervisor died) with the error, then the {@link Handler}, once per server: the first fatal
 * error calls it, later ones are only logged. The handler decides what ends: the embedding
 * {@code LoomServer} stops the server (see its builder's {@code onFatal}), the jar halts the JVM
 * with an exit status per {@link Kind}.
 *
 * <p><b>Threads.</b> Any thread; the handler runs on the thread that saw the error, which may be
 * a poller or the supervisor about to end, so it must not wait for the server's own threads.
 * Under memory exhaustion the log line itself may fail; the handler is called regardless.
 */
public final class FailStop {
    private static final System.Logger LOG = System.getLogger("org.loommpm.engine");
    /** How far down a chain of causes an out-of-memory error is looked for (a wrapped one counts). */
    private static final int CAUSE_DEPTH = 8;

    /** What was fatal; the jar exits with a status of its own for each. */
    public enum Kind {
        /** An {@link OutOfMemoryError} seen by an engine thread. */
        OUT_OF_MEMORY,
        /** A poller thread ended on an uncaught throwable. */
        POLLER_DIED,
        /** The supervisor thread ended on an uncaught throwable. */
        SUPERVISOR_DIED
    }

    /** What ends after a fatal error (the server, the process). */
    @FunctionalInterface
    public interface Handler {
        /**
         * @param kind what was fatal
         * @param thread the name of the thread that saw it
         * @param error what it saw
         */
        void fatal(Kind kind, String thread, Throwable error);
    }

    private final AtomicBoolean fired = new AtomicBoolean();
    /** Set before the server starts (published by the threads' start); null: the log line only. */
    private volatile Handler handler;

    /** Sets what ends after a fatal error. Before the server starts. */
    void handler(Handler h) {
        handler = h;
    }

    /**
     * A worker's task ended on {@code t}: fatal if it is (or wraps) an out-of-memory error.
     *
     * @return whether it was fatal (then logged here; otherwise the caller reports it)
     */
    boolean taskFailed(Throwable t) {
        if (!isOutOfMemory(t)) {
            return false;
        }
        fatal(Kind.OUT_OF_MEMORY, t);
        return true;
    }

    /** The calling poller's loop ended on {@code t}. */
    void pollerDied(Throwable t) {
        fatal(isOutOfMemory(t) ? Kind.OUT_OF_MEMORY : Kind.POLLER_DIED, t);
    }

    /** The calling supervisor thread's loop ended on {@code t}. */
    void supervisorDied(Throwable t) {
        fatal(isOutOfMemory(t) ? Kind.OUT_OF_MEMORY : Kind.SUPERVISOR_DIED, t);
    }

    /** Whether {@code t} is an {@link OutOfMemoryError} or has one among its first causes. */
    static boolean isOutOfMemory(Throwable t) {
        Throwable c = t;
        for (int i = 0; c != null && i < CAUSE_DEPTH; i++) {
            if (c instanceof OutOfMemoryError) {
                return true;
            }
            c = c.getCause();
        }
        return false;
    }

    private void fatal(Kind kind, Throwable t) {
        Thread current = Thread.currentThread();
        // Workers are unnamed virtual threads: their toString names them by id.
        String thread = current.getName().isEmpty() ? current.toString() : current.getName();
        boolean first = fired.compareAndSet(false, true);
        try {
            LOG.log(Level.ERROR, switch (kind) {
                case OUT_OF_MEMORY -> "LM2600 out of memory in " + thread;
                case POLLER_DIED -> "LM2601 poller " + thread + " died; its connections are closed";
                case SUPERVISOR_DIED -> "LM2602 the supervisor thread " + thread + " died";
            } + (first ? ": fail-stop, the server ends" : " (the server is already ending)"), t);
        } catch (Throwable logFailed) {
            // Out of memory again while formatting: the handler matters more than the line.
        }
        Handler h = handler;
        if (first && h != null) {
            h.fatal(kind, thread, t);
        }
    }
}
