package org.loommpm.cli;

import java.lang.System.Logger.Level;
import java.util.function.Consumer;
import org.loommpm.cli.logging.ErrorLog;
import org.loommpm.server.FatalServerException;

/**
 * The jar's end after a fatal error (fail-stop): the JVM halts with a status that says why, so a
 * process manager restarts it (and a {@code ChildProcesses On} supervisor replaces the child),
 * instead of a process that stays up serving less or nothing.
 *
 * <ul>
 *   <li>{@value #OUT_OF_MEMORY}: out of memory, the status {@code -XX:+ExitOnOutOfMemoryError} exits with too;</li>
 *   <li>{@value #POLLER_DIED}: a poller thread died;</li>
 *   <li>{@value #SUPERVISOR_DIED}: the supervisor thread died.</li>
 * </ul>
 * (0, 1 and 2 are the jar's other statuses: stopped, could not start, bad command line.)
 *
 * <p>{@link #HOOK} is the server's {@code onFatal} hook (the engine has logged LM2600-LM2602);
 * {@link Uncaught} is the JVM's default handler of uncaught exceptions, so an out-of-memory error
 * that ends any other thread (a log writer, the signal thread, an application's own) ends the
 * process too (LM2600). Both flush the error log for at most {@value #FLUSH_MILLIS} ms, then
 * {@link Runtime#halt}: {@code System.exit} would run shutdown hooks and wait for them, which
 * after such an error may never finish.
 */
final class FatalExit {
    private static final System.Logger LOG = System.getLogger("org.loommpm.cli");

    /** Exit status after an {@link OutOfMemoryError}. */
    static final int OUT_OF_MEMORY = 3;
    /** Exit status after a poller thread died. */
    static final int POLLER_DIED = 4;
    /** Exit status after the supervisor thread died. */
    static final int SUPERVISOR_DIED = 5;
    /** How long the error log may take to write its last lines. */
    static final long FLUSH_MILLIS = 1_000;

    /** The server's {@code onFatal} hook in the jar. */
    static final Consumer<FatalServerException> HOOK = new Hook();

    private FatalExit() {
    }

    /** The exit status for {@code kind}. */
    static int status(FatalServerException.Kind kind) {
        return switch (kind) {
            case OUT_OF_MEMORY -> OUT_OF_MEMORY;
            case POLLER_DIED -> POLLER_DIED;
            case SUPERVISOR_DIED -> SUPERVISOR_DIED;
        };
    }

    private static void halt(int status) {
        try {
            ErrorLog.flush(FLUSH_MILLIS);
        } catch (Throwable flushFailed) {
            // Out of memory again: the exit matters more than the last lines.
        }
        Runtime.getRuntime().halt(status);
    }

    /** {@link #HOOK}: a class, not a lambda (start-up cost). */
    private static final class Hook implements Consumer<FatalServerException> {
        @Override
        public void accept(FatalServerException e) {
            halt(status(e.kind()));
        }
    }

    /**
     * The JVM's default handler: an out-of-memory error ends the process; anything else is
     * printed as the JVM would have (a thread's own business).
     */
    static final class Uncaught implements Thread.UncaughtExceptionHandler {
        @Override
        public void uncaughtException(Thread t, Throwable e) {
            if (e instanceof OutOfMemoryError) {
                try {
                    LOG.log(Level.ERROR, "LM2600 out of memory in " + t + ": fail-stop, exit status " + OUT_OF_MEMORY, e);
                } catch (Throwable logFailed) {
                    // Out of memory again while formatting: the exit matters more than the line.
                }
                halt(OUT_OF_MEMORY);
            }
            System.err.print("Exception in thread \"" + t.getName() + "\" ");
            e.printStackTrace(System.err);
        }
    }
}
