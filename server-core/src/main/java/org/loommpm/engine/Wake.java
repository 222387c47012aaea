package org.loommpm.engine;

/**
 * How the poller ends a worker's park in {@code Connection.await} ({@link HandOff#AWAIT_READ},
 * {@link HandOff#AWAIT_WRITE}): written by the poller before it unparks the worker, read by the
 * worker (a volatile field: the write happens-before the worker's read after unpark).
 */
enum Wake {
    /** Still parked (the value while the worker waits). */
    NONE,
    /** The socket is ready: retry the read or write. */
    READY,
    /** Timeout passed without readiness: the worker gets a {@code SocketTimeoutException}. */
    TIMEOUT,
    /** The connection was closed under the worker (shutdown, force close). */
    CLOSED
}
