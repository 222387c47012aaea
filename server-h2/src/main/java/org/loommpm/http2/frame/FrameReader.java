package org.loommpm.http2.frame;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The server side of RFC 9113's frame layer: checks the client connection preface, cuts whole
 * frames out of the bytes read, checks each frame's layout, and hands its fields to a
 * {@link FrameListener}. Layout violations get the codes RFC 9113 assigns: a frame too large for
 * SETTINGS_MAX_FRAME_SIZE, a wrong fixed length or padding longer than the frame are
 * FRAME_SIZE_ERROR or PROTOCOL_ERROR connection errors (a PRIORITY of the wrong length is a
 * stream error, §6.3); a connection-level frame on a stream, a stream frame on stream 0, a client
 * PUSH_PROMISE, a HEADERS on an even stream, anything before the client's SETTINGS (§3.4) or
 * inside another stream's header block (§6.10) are PROTOCOL_ERROR. Unknown types are skipped
 * (§4.1).
 *
 * <p>Stateful per connection (preface seen, SETTINGS seen, the header block in progress) and
 * confined to whoever reads the connection; it allocates nothing per frame.
 */
public final class FrameReader {
    /** The client connection preface every HTTP/2 connection starts with (RFC 9113 §3.4). */
    private static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    private final FrameListener listener;
    private final int maxFrameSize;
    private boolean prefaceDone;
    private boolean settingsSeen;
    /** The stream whose header block continues in CONTINUATION frames, or 0. */
    private int blockStream;
    /** Bytes the partial frame at the buffer's position needs in all, or 0. */
    private int partialFrame;

    /** A reader that expects the client connection preface first. */
    public FrameReader(FrameListener listener, int maxFrameSize) {
        this.listener = listener;
        this.maxFrameSize = maxFrameSize;
    }

    /** Whether the client connection preface has been read. */
    public boolean prefaceDone() {
        return prefaceDone;
    }

    /** Whether a header block awaits CONTINUATION frames. */
    public boolean inHeaderBlock() {
        return blockStream != 0;
    }

    /**
     * The size (header included) of the frame that has begun at the buffer's position and is
     * not whole yet, after {@link #read}; 0 when none (or when even its header is partial). A
     * caller whose buffer is smaller must grow it.
     */
    public int partialFrameSize() {
        return partialFrame;
    }

    /**
     * Reads the preface (once) and every whole frame in {@code in} (read mode, heap-backed):
     * consumed bytes are skipped, a partial frame is left.
     *
     * @return whether anything was consumed
     * @throws Http2Error a connection error
     */
    public boolean read(ByteBuffer in) throws Http2Error {
        boolean any = false;
        partialFrame = 0;
        if (!prefaceDone) {
            if (!preface(in)) {
                return false;
            }
            any = true;
        }
        byte[] a = in.array();
        int base = in.arrayOffset();
        // Positions are kept in locals and stored once: the listener never touches the buffer.
        int p = base + in.position();
        int end = base + in.limit();
        try {
            while (end - p >= FrameType.HEADER_LENGTH) {
                int length = (a[p] & 0xff) << 16 | (a[p + 1] & 0xff) << 8 | (a[p + 2] & 0xff);
                int type = a[p + 3] & 0xff;
                if (length > maxFrameSize) {
                    throw tooLarge(type, length);
                }
                int next = p + FrameType.HEADER_LENGTH + length;
                if (next > end) {
                    partialFrame = FrameType.HEADER_LENGTH + length;
                    break;
                }
                int at = p;
                p = next;
                try {
                    frame(type, a[at + 4] & 0xff, int31(a, at + 5), a, at + FrameType.HEADER_LENGTH, length);
                } catch (Http2Error e) {
                    if (e.isConnectionError()) {
                        throw e;
                    }
                    listener.streamError(e);
                }
                listener.frameCompleted();
                any = true;
            }
        } finally {
            in.position(p - base);
        }
        return any;
    }

    /** A copy of the client connection preface (RFC 9113 §3.4), for clients built in tests and benchmarks. */
    public static byte[] preface() {
        return PREFACE.clone();
    }

    private boolean preface(ByteBuffer in) throws Http2Error {
        byte[] preface = PREFACE;
        int n = Math.min(in.remaining(), preface.length);
        for (int i = 0; i < n; i++) {
            if (in.get(in.position() + i) != preface[i]) {
                throw Http2Error.connection(ErrorCode.PROTOCOL_ERROR, "invalid connection preface");
            }
        }
        if (n < preface.length) {
            return false;
        }
        in.position(in.position() + preface.length);
        prefaceDone = true;
        return true;
    }

    /*
     * The per-frame path is kept in small methods, error messages built in methods of their own:
     * so that the JIT inlines it into the read loop (a switch carrying every case's code was too
     * large to inline, which cost 2.5x in Http2FrameBench).
     */
    private void frame(int type, int flags, int sid, byte[] a, int p, int len) throws Http2Error {
        if (!settingsSeen && type != FrameType.SETTINGS) {
            throw Http2Error.connection(ErrorCode.PROTOCOL_ERROR, "the client preface must start with SETTINGS");
        }
        if (blockStream != 0 && (type != FrameType.CONTINUATION || sid != blockStream)) {
            throw interrupted(type);
        }
        switch (type) {
            case FrameType.DATA -> data(flags, sid, a, p, len);
            case FrameType.HEADERS -> headers(flags, sid, a, p, len);
            case FrameType.PRIORITY -> priority(sid, a, p, len);
            case FrameType.RST_STREAM -> rstStream(sid, a, p, len);
            case FrameType.SETTINGS -> settings(flags, sid, a, p, len);
            case FrameType.PUSH_PROMISE -> throw Http2Error.connection(ErrorCode.PROTOCOL_ERROR,
                    "a client must not send PUSH_PROMISE");
            case FrameType.PING -> ping(flags, sid, a, p, len);
            case FrameType.GOAWAY -> goAway(sid, a, p, len);
            case FrameType.WINDOW_UPDATE -> windowUpdate(sid, a, p, len);
            case FrameType.CONTINUATION -> continuation(flags, sid, a, p, len);
            default -> {
                // Unknown frame types are ignored (RFC 9113 §4.1).
            }
        }
    }

    /**
     * Whether {@code in} (read mode) holds only whole frames, at most one of them HEADERS (with
     * END_HEADERS) and none CONTINUATION: processing it opens at most one stream and leaves no
     * header block open. A look at the frame headers only; the frames are checked when read.
     *
     * @param in bytes received, in read mode (not consumed)
     * @return whether those bytes are whole frames with at most one, complete, header block
     */
    public static boolean wholeFramesOneHeaderBlock(ByteBuffer in) {
        byte[] a = in.array();
        int p = in.arrayOffset() + in.position();
        int end = in.arrayOffset() + in.limit();
        int headers = 0;
        while (p < end) {
            if (end - p < FrameType.HEADER_LENGTH) {
                return false;
            }
            int len = (a[p] & 0xff) << 16 | (a[p + 1] & 0xff) << 8 | (a[p + 2] & 0xff);
            int type = a[p + 3] & 0xff;
            if (type == FrameType.CONTINUATION || (type == FrameType.HEADERS
                    && (++headers > 1 || (a[p + 4] & FrameType.FLAG_END_HEADERS) == 0))) {
                return false;
            }
            p += FrameType.HEADER_LENGTH + len;
        }
        return p == end;
    }

    private static Http2Error tooLarge(int type, int length) {
        return Http2Error.connection(ErrorCode.FRAME_SIZE_ERROR, FrameType.name(type) + " frame of " + length
                + " bytes exceeds SETTINGS_MAX_FRAME_SIZE");
    }

    private Http2Error interrupted(int type) {
        return Http2Error.connection(ErrorCode.PROTOCOL_ERROR, FrameType.name(type)
                + " inside the header block of stream " + blockStream);
    }

    private void priority(int sid, byte[] a, int p, int len) throws Http2Error {
        streamFrame("PRIORITY", sid);
        if (len != 5) {
            throw Http2Error.stream(sid, ErrorCode.FRAME_SIZE_ERROR, "PRIORITY of " + len + " bytes");
        }
        listener.priority(sid, int31(a, p));
    }

    private void rstStream(int sid, byte[] a, int p, int len) throws Http2Error {
        streamFrame("RST_STREAM", sid);
        fixedLength("RST_STREAM", len, 4);
        listener.rstStream(sid, int32(a, p));
    }

    private void ping(int flags, int sid, byte[] a, int p, int len) throws Http2Error {
        connectionFrame("PING", sid);
        fixedLength("PING", len, 8);
        listener.ping(a, p, (flags & FrameType.FLAG_ACK) != 0);
    }

    private void goAway(int sid, byte[] a, int p, int len) throws Http2Error {
        connectionFrame("GOAWAY", sid);
        if (len < 8) {
            throw Http2Error.connection(ErrorCode.FRAME_SIZE_ERROR, "GOAWAY of " + len + " bytes");
        }
        listener.goAway(int31(a, p), int32(a, p + 4));
    }

    private void windowUpdate(int sid, byte[] a, int p, int len) throws Http2Error {
        fixedLength("WINDOW_UPDATE", len, 4);
        listener.windowUpdate(sid, int31(a, p));
    }

    private void continuation(int flags, int sid, byte[] a, int p, int len) throws Http2Error {
        if (blockStream == 0) {
            throw Http2Error.connection(ErrorCode.PROTOCOL_ERROR, "CONTINUATION without a header block");
        }
        boolean endHeaders = (flags & FrameType.FLAG_END_HEADERS) != 0;
        if (endHeaders) {
            blockStream = 0;
        }
        listener.continuation(sid, a, p, len, endHeaders);
    }

    private void data(int flags, int sid, byte[] a, int p, int len) throws Http2Error {
        streamFrame("DATA", sid);
        int off = p;
        int n = len;
        if ((flags & FrameType.FLAG_PADDED) != 0) {
            if (len < 1) {
                throw Http2Error.connection(ErrorCode.FRAME_SIZE_ERROR, "padded DATA without pad length");
            }
            int padLength = a[p] & 0xff;
            if (padLength >= len) {
                throw Http2Error.connection(ErrorCode.PROTOCOL_ERROR, "DATA padding longer than the frame");
            }
            off = p + 1;
            n = len - padLength - 1;
        }
        listener.data(sid, a, off, n, len, (flags & FrameType.FLAG_END_STREAM) != 0);
    }

    private void headers(int flags, int sid, byte[] a, int p, int len) throws Http2Error {
        if (sid == 0 || (sid & 1) == 0) {
            throw Http2Error.connection(ErrorCode.PROTOCOL_ERROR, "HEADERS on stream " + sid);
        }
        int off = p;
        int end = p + len;
        int padLength = 0;
        if ((flags & FrameType.FLAG_PADDED) != 0) {
            if (len < 1) {
                throw Http2Error.connection(ErrorCode.FRAME_SIZE_ERROR, "padded HEADERS without pad length");
            }
            padLength = a[p] & 0xff;
            off++;
        }
        int dependency = -1;
        if ((flags & FrameType.FLAG_PRIORITY) != 0) {
            // A frame too short for its fixed fields is a size error; padding too long for what is
            // left is a PROTOCOL_ERROR (RFC 9113 §6.2), whatever order the two are checked in.
            if (end - off < 5) {
                throw Http2Error.connection(ErrorCode.FRAME_SIZE_ERROR, "HEADERS too short for its priority");
            }
            dependency = int31(a, off);
            off += 5;
        }
        if (padLength > end - off) {
            throw Http2Error.connection(ErrorCode.PROTOCOL_ERROR, "HEADERS padding longer than the frame");
        }
        end -= padLength;
        boolean endHeaders = (flags & FrameType.FLAG_END_HEADERS) != 0;
        blockStream = endHeaders ? 0 : sid;
        listener.headers(sid, a, off, end - off, dependency, (flags & FrameType.FLAG_END_STREAM) != 0, endHeaders);
    }

    private void settings(int flags, int sid, byte[] a, int p, int len) throws Http2Error {
        connectionFrame("SETTINGS", sid);
        if ((flags & FrameType.FLAG_ACK) != 0) {
            if (len != 0) {
                throw Http2Error.connection(ErrorCode.FRAME_SIZE_ERROR, "SETTINGS ack with a payload");
            }
            listener.settingsAck();
            return;
        }
        if (len % 6 != 0) {
            throw Http2Error.connection(ErrorCode.FRAME_SIZE_ERROR, "SETTINGS of " + len + " bytes");
        }
        boolean preface = !settingsSeen;
        settingsSeen = true;
        listener.settings(a, p, len, preface);
    }

    private static void streamFrame(String what, int sid) throws Http2Error {
        if (sid == 0) {
            throw wrongStream(what, sid);
        }
    }

    private static void connectionFrame(String what, int sid) throws Http2Error {
        if (sid != 0) {
            throw wrongStream(what, sid);
        }
    }

    private static Http2Error wrongStream(String what, int sid) {
        return Http2Error.connection(ErrorCode.PROTOCOL_ERROR, what + " on stream " + sid);
    }

    private static void fixedLength(String what, int len, int expected) throws Http2Error {
        if (len != expected) {
            throw Http2Error.connection(ErrorCode.FRAME_SIZE_ERROR, what + " of " + len + " bytes");
        }
    }

    /** A 31-bit stream identifier or window increment (the reserved top bit ignored). */
    private static int int31(byte[] a, int p) {
        return (a[p] & 0x7f) << 24 | (a[p + 1] & 0xff) << 16 | (a[p + 2] & 0xff) << 8 | (a[p + 3] & 0xff);
    }

    private static int int32(byte[] a, int p) {
        return (a[p] & 0xff) << 24 | (a[p + 1] & 0xff) << 16 | (a[p + 2] & 0xff) << 8 | (a[p + 3] & 0xff);
    }
}
