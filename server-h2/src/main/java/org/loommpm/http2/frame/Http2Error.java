package org.loommpm.http2.frame;

/**
 * A protocol violation found while processing frames (RFC 9113 §5.4): a connection error ends
 * the connection with GOAWAY, a stream error resets one stream with RST_STREAM. Thrown and
 * caught inside the connection's frame loop only; no stack trace (it is control flow).
 */
public final class Http2Error extends Exception {
    private final ErrorCode code;
    private final int streamId;

    private Http2Error(ErrorCode code, int streamId, String message) {
        super(message, null, false, false);
        this.code = code;
        this.streamId = streamId;
    }

    /** A connection error: GOAWAY with {@code code}, then close. */
    public static Http2Error connection(ErrorCode code, String message) {
        return new Http2Error(code, 0, message);
    }

    /** A stream error: RST_STREAM with {@code code} on {@code streamId}; the connection goes on. */
    public static Http2Error stream(int streamId, ErrorCode code, String message) {
        return new Http2Error(code, streamId, message);
    }

    /** The error code to send. */
    public ErrorCode code() {
        return code;
    }

    /** The stream to reset, or 0 for a connection error. */
    public int streamId() {
        return streamId;
    }

    /** Whether the whole connection ends. */
    public boolean isConnectionError() {
        return streamId == 0;
    }
}
