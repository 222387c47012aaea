package org.loommpm.http2.frame;

/** RFC 9113 §7 error codes, as carried by RST_STREAM and GOAWAY. */
public enum ErrorCode {
    NO_ERROR(0x0),
    PROTOCOL_ERROR(0x1),
    INTERNAL_ERROR(0x2),
    FLOW_CONTROL_ERROR(0x3),
    SETTINGS_TIMEOUT(0x4),
    STREAM_CLOSED(0x5),
    FRAME_SIZE_ERROR(0x6),
    REFUSED_STREAM(0x7),
    CANCEL(0x8),
    COMPRESSION_ERROR(0x9),
    CONNECT_ERROR(0xa),
    ENHANCE_YOUR_CALM(0xb),
    INADEQUATE_SECURITY(0xc),
    HTTP_1_1_REQUIRED(0xd);

    private final int code;

    ErrorCode(int code) {
        this.code = code;
    }

    /** The code on the wire. */
    public int code() {
        return code;
    }

    /** The name for a code received from a peer ({@code 0x...} for unknown codes, which are allowed). */
    public static String describe(int code) {
        for (ErrorCode e : values()) {
            if (e.code == code) {
                return e.name();
            }
        }
        return "0x" + Integer.toHexString(code);
    }
}
