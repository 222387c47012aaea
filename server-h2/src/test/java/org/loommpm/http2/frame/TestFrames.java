package org.loommpm.http2.frame;

/** Frames as bytes on the wire, for tests that send or parse them (valid or not). */
public final class TestFrames {
    private TestFrames() {
    }

    /** A frame's 9-byte header followed by {@code payload}; {@code stream} is written whole (its top bit too). */
    public static byte[] frame(int type, int flags, int stream, byte[] payload) {
        byte[] f = new byte[9 + payload.length];
        f[0] = (byte) (payload.length >>> 16);
        f[1] = (byte) (payload.length >>> 8);
        f[2] = (byte) payload.length;
        f[3] = (byte) type;
        f[4] = (byte) flags;
        f[5] = (byte) (stream >>> 24);
        f[6] = (byte) (stream >>> 16);
        f[7] = (byte) (stream >>> 8);
        f[8] = (byte) stream;
        System.arraycopy(payload, 0, f, 9, payload.length);
        return f;
    }
}
