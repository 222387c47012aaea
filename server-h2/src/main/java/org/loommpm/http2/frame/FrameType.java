package org.loommpm.http2.frame;

/** RFC 9113 §6 frame types, flags, settings identifiers and fixed sizes. */
public final class FrameType {
    public static final int DATA = 0x0;
    public static final int HEADERS = 0x1;
    public static final int PRIORITY = 0x2;
    public static final int RST_STREAM = 0x3;
    public static final int SETTINGS = 0x4;
    public static final int PUSH_PROMISE = 0x5;
    public static final int PING = 0x6;
    public static final int GOAWAY = 0x7;
    public static final int WINDOW_UPDATE = 0x8;
    public static final int CONTINUATION = 0x9;

    public static final int FLAG_END_STREAM = 0x1;
    public static final int FLAG_ACK = 0x1;
    public static final int FLAG_END_HEADERS = 0x4;
    public static final int FLAG_PADDED = 0x8;
    public static final int FLAG_PRIORITY = 0x20;

    public static final int SETTINGS_HEADER_TABLE_SIZE = 0x1;
    public static final int SETTINGS_ENABLE_PUSH = 0x2;
    public static final int SETTINGS_MAX_CONCURRENT_STREAMS = 0x3;
    public static final int SETTINGS_INITIAL_WINDOW_SIZE = 0x4;
    public static final int SETTINGS_MAX_FRAME_SIZE = 0x5;
    public static final int SETTINGS_MAX_HEADER_LIST_SIZE = 0x6;
    /** RFC 8441 §3: the server accepts extended CONNECT ({@code :protocol}). */
    public static final int SETTINGS_ENABLE_CONNECT_PROTOCOL = 0x8;

    /** Bytes of a frame header. */
    public static final int HEADER_LENGTH = 9;
    /** The protocol's initial window and the smallest allowed max frame size. */
    public static final int DEFAULT_WINDOW = 65_535;
    public static final int DEFAULT_MAX_FRAME_SIZE = 16_384;
    /** 2^31-1: the largest window (RFC 9113 §6.9.1). */
    public static final long MAX_WINDOW = Integer.MAX_VALUE;

    private FrameType() {
    }

    /** The name of a type, for logs. */
    public static String name(int type) {
        return switch (type) {
            case DATA -> "DATA";
            case HEADERS -> "HEADERS";
            case PRIORITY -> "PRIORITY";
            case RST_STREAM -> "RST_STREAM";
            case SETTINGS -> "SETTINGS";
            case PUSH_PROMISE -> "PUSH_PROMISE";
            case PING -> "PING";
            case GOAWAY -> "GOAWAY";
            case WINDOW_UPDATE -> "WINDOW_UPDATE";
            case CONTINUATION -> "CONTINUATION";
            default -> "0x" + Integer.toHexString(type);
        };
    }
}
