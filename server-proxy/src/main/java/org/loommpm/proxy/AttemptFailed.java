package org.loommpm.proxy;

/**
 * Why one attempt to proxy a request to one member failed, and what may follow: whether the
 * request may be sent again (nothing of the client's body was consumed and no byte of a response
 * reached the client) and which status answers it otherwise.
 */
final class AttemptFailed extends Exception {
    private static final long serialVersionUID = 1L;

    /** Where the attempt failed. */
    enum Kind {
        /** A pooled connection turned out closed before any response byte: not the member's fault. */
        STALE(502),
        /** The backend closed or reset the connection before a whole response head. */
        NO_RESPONSE(502),
        /** No response head within the timeout. */
        TIMEOUT(504),
        /** The response head or its framing broke HTTP/1.1. */
        PROTOCOL(502),
        /** The response had begun when the backend failed: the client's response is cut off. */
        ABORTED(502);

        final int status;

        Kind(int status) {
            this.status = status;
        }
    }

    final Kind kind;
    /** Whether the request was left intact: no body byte read from the client, nothing sent to it. */
    final boolean repeatable;

    AttemptFailed(Kind kind, boolean repeatable, Throwable cause) {
        super(cause.getClass().getSimpleName() + ": " + cause.getMessage(), cause, false, false);
        this.kind = kind;
        this.repeatable = repeatable;
    }
}
