package org.loommpm.engine;

/**
 * What a connection's owner asks its poller to do with it: the hand-off half of the ownership
 * protocol (see {@link Connection}'s state model). Set in {@code Connection.op} before the push
 * onto the poller's {@link HandoffQueue}, whose CAS publishes it; the poller reads it once in
 * {@code Poller.apply} and resets it to {@link #NONE}.
 */
enum HandOff {
    /** Nothing asked (the field's value between hand-offs). */
    NONE,
    /** A new connection: register it with the selector (KEEPALIVE under the first-request deadline). */
    REGISTER,
    /** Idle until the next request: OP_READ under KeepAliveTimeout (context released). */
    KEEPALIVE,
    /** The rest of a request head: OP_READ under the head's absolute deadline (ASYNC_WAITIO). */
    READ_WAIT,
    /** A worker parks until the socket is readable (SUSPENDED). */
    AWAIT_READ,
    /** A worker parks until the socket is writable (WRITE_COMPLETION). */
    AWAIT_WRITE,
    /** Close gracefully: output shut, input drained under LingerTimeout. */
    LINGER,
    /** Close at once. */
    CLOSE,
    /** A multiplexed connection waits for readiness, a signal or its deadline (MULTIPLEXED). */
    WATCH,
    /**
     * A connection with no work for a worker until its peer sends bytes, a signal, or its
     * deadline: its poller writes its outbound queue meanwhile (DETACHED).
     */
    DETACH;

    /** Whether a worker is parked behind this hand-off: it must be woken on every path. */
    boolean parksWorker() {
        return this == AWAIT_READ || this == AWAIT_WRITE;
    }
}
