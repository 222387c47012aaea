package org.loommpm.bench.attack;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A growable byte buffer that HTTP/2 frames are written into by hand (RFC 9113 §4.1), so an
 * attack can send a whole batch of frames with one socket write. HPACK is the minimum a GET
 * needs: static-table indexes and literals without indexing, no Huffman (RFC 7541).
 */
final class Frames {
    static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    static final int DATA = 0x0, HEADERS = 0x1, RST_STREAM = 0x3, SETTINGS = 0x4, PING = 0x6,
            GOAWAY = 0x7, WINDOW_UPDATE = 0x8, CONTINUATION = 0x9;
    static final int END_STREAM = 0x1, ACK = 0x1, END_HEADERS = 0x4;
    static final int SETTINGS_INITIAL_WINDOW_SIZE = 0x4;
    static final int CANCEL = 0x8;
    static final int MAX_WINDOW = 0x7fff_ffff;

    private byte[] buf = new byte[16 * 1024];
    private int len;

    byte[] array() {
        return buf;
    }

    int length() {
        return len;
    }

    void clear() {
        len = 0;
    }

    private void ensure(int n) {
        if (len + n > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + n));
        }
    }

    void u8(int b) {
        ensure(1);
        buf[len++] = (byte) b;
    }

    void u32(int v) {
        ensure(4);
        buf[len++] = (byte) (v >>> 24);
        buf[len++] = (byte) (v >>> 16);
        buf[len++] = (byte) (v >>> 8);
        buf[len++] = (byte) v;
    }

    void bytes(byte[] b) {
        ensure(b.length);
        System.arraycopy(b, 0, buf, len, b.length);
        len += b.length;
    }

    void header(int length, int type, int flags, int streamId) {
        ensure(9);
        buf[len++] = (byte) (length >>> 16);
        buf[len++] = (byte) (length >>> 8);
        buf[len++] = (byte) length;
        buf[len++] = (byte) type;
        buf[len++] = (byte) flags;
        u32(streamId & MAX_WINDOW);
    }

    /** SETTINGS with (id, value) pairs; none is a valid empty SETTINGS. */
    void settings(int... idValue) {
        header(idValue.length / 2 * 6, SETTINGS, 0, 0);
        for (int i = 0; i < idValue.length; i += 2) {
            u8(idValue[i] >>> 8);
            u8(idValue[i]);
            u32(idValue[i + 1]);
        }
    }

    void settingsAck() {
        header(0, SETTINGS, ACK, 0);
    }

    void windowUpdate(int streamId, int increment) {
        header(4, WINDOW_UPDATE, 0, streamId);
        u32(increment);
    }

    void rstStream(int streamId, int code) {
        header(4, RST_STREAM, 0, streamId);
        u32(code);
    }

    void pingAck(byte[] opaque) {
        header(8, PING, ACK, 0);
        bytes(opaque);
    }

    void ping(byte[] opaque) {
        header(8, PING, 0, 0);
        bytes(opaque);
    }

    /** A DATA frame of {@code length} zero bytes (0: the empty DATA of an empty-frame flood). */
    void data(int streamId, int length, boolean endStream) {
        header(length, DATA, endStream ? END_STREAM : 0, streamId);
        ensure(length);
        java.util.Arrays.fill(buf, len, len + length, (byte) 0);
        len += length;
    }

    /** HEADERS without END_HEADERS, its block continued by {@link #continuation}s. */
    void headersOpen(int streamId, byte[] block) {
        header(block.length, HEADERS, 0, streamId);
        bytes(block);
    }

    /** A CONTINUATION carrying {@code block}, ending the header block when asked. */
    void continuation(int streamId, byte[] block, boolean endHeaders) {
        header(block.length, CONTINUATION, endHeaders ? END_HEADERS : 0, streamId);
        bytes(block);
    }

    /** One HEADERS frame (END_HEADERS) carrying {@code block}, with END_STREAM when asked. */
    void headers(int streamId, byte[] block, boolean endStream) {
        header(block.length, HEADERS, END_HEADERS | (endStream ? END_STREAM : 0), streamId);
        bytes(block);
    }

    /** The HPACK block of {@code GET path} on http://authority: what every attack requests. */
    static byte[] getBlock(String authority, String path) {
        Frames b = new Frames();
        b.u8(0x82); // :method GET   (static index 2)
        b.u8(0x86); // :scheme http  (static index 6)
        b.literal(4, path);      // :path, literal without indexing, name = static index 4
        b.literal(1, authority); // :authority, static index 1
        return Arrays.copyOf(b.buf, b.len);
    }

    /** The HPACK block of {@code POST path} on http://authority (the upload and empty-DATA attacks). */
    static byte[] postBlock(String authority, String path) {
        byte[] get = getBlock(authority, path);
        get[0] = (byte) 0x83; // :method POST (static index 3)
        return get;
    }

    /**
     * {@code count} dynamic table size updates (RFC 7541 §6.3, 001 + 5-bit prefix integer),
     * alternating 0 and {@code max} so each one really changes the table, then {@code block}.
     */
    static byte[] tableSizeUpdates(int count, int max, byte[] block) {
        Frames b = new Frames();
        for (int i = 0; i < count; i++) {
            b.integer(0x20, 5, (i & 1) == 0 ? 0 : max);
        }
        b.bytes(block);
        return Arrays.copyOf(b.buf, b.len);
    }

    private void literal(int nameIndex, String value) {
        integer(0x00, 4, nameIndex); // 0000 + 4-bit index: literal header field without indexing
        byte[] v = value.getBytes(StandardCharsets.US_ASCII);
        integer(0x00, 7, v.length);  // H = 0: no Huffman
        bytes(v);
    }

    /** An HPACK integer with an N-bit prefix (RFC 7541 §5.1), {@code pattern} in the high bits. */
    void integer(int pattern, int prefixBits, int value) {
        int max = (1 << prefixBits) - 1;
        if (value < max) {
            u8(pattern | value);
            return;
        }
        u8(pattern | max);
        value -= max;
        while (value >= 128) {
            u8((value & 0x7f) | 0x80);
            value >>>= 7;
        }
        u8(value);
    }
}
