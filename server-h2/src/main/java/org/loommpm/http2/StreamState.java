package org.loommpm.http2;

/**
 * A stream's state (RFC 9113 §5.1), without the reserved states (this server never pushes).
 *
 * <pre>
 *   state               client may send              server may send
 *   IDLE                HEADERS (opens it)           nothing
 *   OPEN                DATA, trailers, RST, WU      HEADERS, DATA, RST, WU
 *   HALF_CLOSED_REMOTE  RST, WU, PRIORITY            HEADERS, DATA, RST, WU
 *   HALF_CLOSED_LOCAL   DATA, trailers, RST, WU      RST, WU
 *   CLOSED              PRIORITY (anything else is an error, or ignored right after our RST)
 *
 *   IDLE               --HEADERS received-->            OPEN
 *   IDLE               --HEADERS+END_STREAM received--> HALF_CLOSED_REMOTE
 *   OPEN               --END_STREAM received-->         HALF_CLOSED_REMOTE
 *   OPEN               --END_STREAM sent-->             HALF_CLOSED_LOCAL
 *   HALF_CLOSED_REMOTE --END_STREAM sent-->             CLOSED
 *   HALF_CLOSED_LOCAL  --END_STREAM received-->         CLOSED
 *   any                --RST_STREAM sent or received--> CLOSED
 * </pre>
 * The frame loop is the only thread that reads or changes a stream's state. A server that has
 * sent its whole response while the request is still arriving (HALF_CLOSED_LOCAL) resets the
 * stream with NO_ERROR (RFC 9113 §8.1), so HALF_CLOSED_LOCAL is short-lived here.
 */
enum StreamState {
    IDLE,
    OPEN,
    HALF_CLOSED_REMOTE,
    HALF_CLOSED_LOCAL,
    CLOSED;

    /** What happens to a stream. */
    enum Event {
        RECV_HEADERS,
        RECV_END_STREAM,
        SEND_END_STREAM,
        RESET
    }

    /**
     * The state after {@code e}.
     *
     * @throws IllegalStateException when {@code e} cannot happen in this state (callers check
     *         the protocol rules first; reaching this is a bug)
     */
    StreamState on(Event e) {
        return switch (e) {
            case RESET -> CLOSED;
            case RECV_HEADERS -> switch (this) {
                case IDLE -> OPEN;
                default -> throw illegal(e);
            };
            case RECV_END_STREAM -> switch (this) {
                case OPEN -> HALF_CLOSED_REMOTE;
                case HALF_CLOSED_LOCAL -> CLOSED;
                default -> throw illegal(e);
            };
            case SEND_END_STREAM -> switch (this) {
                case OPEN -> HALF_CLOSED_LOCAL;
                case HALF_CLOSED_REMOTE -> CLOSED;
                default -> throw illegal(e);
            };
        };
    }

    /** Whether the client may still send DATA or trailers. */
    boolean remoteOpen() {
        return this == OPEN || this == HALF_CLOSED_LOCAL;
    }

    private IllegalStateException illegal(Event e) {
        return new IllegalStateException(e + " in state " + this);
    }
}
