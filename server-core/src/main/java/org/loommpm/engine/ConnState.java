package org.loommpm.engine;

/**
 * Connection states, named after httpd's {@code CONN_STATE_*}. Who owns the connection in each
 * is part of the state: see {@link Connection} for the model and its transitions.
 */
public enum ConnState {
    /** Accepted; waiting in its poller's inbox to be registered. Owner: the accepting poller. */
    NEW,
    /**
     * On a PROXY protocol listener, before anything else: the poller reads the header itself
     * (read interest, the header deadline, no context, no thread, no transport yet). Owner: poller.
     */
    PROXY_HEADER,
    /** Between requests (or before the first): read interest, a deadline, no context, no thread. Owner: poller. */
    KEEPALIVE,
    /** Part of a request head has arrived; its bytes wait in the context for the rest. Owner: poller. */
    ASYNC_WAITIO,
    /**
     * A multiplexed connection (HTTP/2) whose streams run on their own workers while nothing
     * is left for the connection's own task: read interest, an optional deadline, context kept,
     * no thread. Readiness or a {@link Connection#signal() signal} from a stream re-dispatches
     * it. Owner: poller.
     */
    MULTIPLEXED,
    /** On a worker: parsing a head, running a handler, reading a body, writing. Owner: worker. */
    PROCESSING,
    /** The worker's virtual thread is parked until the poller reports the socket readable. Owner: worker. */
    SUSPENDED,
    /** The worker's virtual thread is parked until the poller reports the socket writable. Owner: worker. */
    WRITE_COMPLETION,
    /** Output shut down; unread input drained by the poller until EOF or LingerTimeout. Owner: poller. */
    LINGER,
    /** Closed, counted once, context returned. Owner: nobody. */
    CLOSED
}
