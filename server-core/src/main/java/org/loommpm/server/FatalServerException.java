package org.loommpm.server;

/**
 * A fatal error ended the server on its own (fail-stop): an {@link OutOfMemoryError} in one of
 * its threads, or a poller or the supervisor thread that died. Given to
 * {@link LoomServer.Builder#onFatal} when it happens, and thrown by {@link LoomServer#awaitStop()}
 * once the server has stopped, so an application whose main thread waits there ends with an
 * error rather than a clean exit status. The cause is what the thread saw.
 */
public final class FatalServerException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** What was fatal. */
    public enum Kind {
        /** An {@link OutOfMemoryError} seen by a worker, a poller or the supervisor. */
        OUT_OF_MEMORY,
        /** A poller thread ended on an uncaught error; its connections were closed. */
        POLLER_DIED,
        /** The supervisor thread ended on an uncaught error: no child would be replaced. */
        SUPERVISOR_DIED
    }

    /** What was fatal. */
    private final Kind kind;
    /** The name of the thread that saw it. */
    private final String thread;

    FatalServerException(Kind kind, String thread, Throwable cause) {
        // No stack trace of its own: it is made where memory may be short, and the cause has one.
        super(kind + " in thread " + thread, cause, true, false);
        this.kind = kind;
        this.thread = thread;
    }

    /** {@return what was fatal} */
    public Kind kind() {
        return kind;
    }

    /** {@return the name of the thread that saw the error} */
    public String thread() {
        return thread;
    }
}
