package org.loommpm.websocket.frame;

/**
 * A client broke the protocol or a limit: the connection is closed with {@link #closeCode()}
 * (RFC 6455 §7.1.7, "fail the WebSocket connection") and the given reason.
 */
public final class WebSocketProtocolException extends Exception {
    private static final long serialVersionUID = 1L;

    private final int closeCode;

    /**
     * @param closeCode the status to close with ({@link CloseCodes})
     * @param reason a short text for the close frame and the log (at most 123 bytes of UTF-8)
     */
    public WebSocketProtocolException(int closeCode, String reason) {
        super(reason, null, false, false);
        this.closeCode = closeCode;
    }

    /** The close status code. */
    public int closeCode() {
        return closeCode;
    }
}
