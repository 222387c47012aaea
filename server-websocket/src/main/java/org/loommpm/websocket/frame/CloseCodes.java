package org.loommpm.websocket.frame;

/**
 * The close status codes this server sends (RFC 6455 §7.4.1) and the rule for those it accepts
 * from a client (§7.4.2 and the IANA registry: the registered codes an endpoint may send, 1000-1003 and
 * 1007-1014, and 3000-4999 for libraries and applications).
 */
public final class CloseCodes {
    /** Normal closure. */
    public static final int NORMAL = 1000;
    /** The server is going away (stop, restart) or the client navigated away. */
    public static final int GOING_AWAY = 1001;
    /** A protocol error: bad framing, a reserved bit or opcode, an unmasked frame. */
    public static final int PROTOCOL_ERROR = 1002;
    /** A data type the endpoint cannot accept. */
    public static final int UNSUPPORTED_DATA = 1003;
    /** No status code in the close frame (never sent on the wire). */
    public static final int NO_STATUS = 1005;
    /** The connection ended without a close frame (never sent on the wire). */
    public static final int ABNORMAL = 1006;
    /** A text message (or close reason) that is not UTF-8. */
    public static final int INVALID_PAYLOAD = 1007;
    /** A message that violates the endpoint's policy (e.g. a refused origin after open). */
    public static final int POLICY_VIOLATION = 1008;
    /** A frame or message larger than the limits, or one that inflates beyond them. */
    public static final int TOO_BIG = 1009;
    /** An unexpected condition in the server (the handler threw). */
    public static final int INTERNAL_ERROR = 1011;

    private CloseCodes() {
    }

    /** Whether a client may send {@code code} in a close frame. */
    public static boolean validFromPeer(int code) {
        return (code >= 1000 && code <= 1003) || (code >= 1007 && code <= 1014)
                || (code >= 3000 && code <= 4999);
    }
}
