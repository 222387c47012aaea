package org.loommpm.websocket.frame;

import java.nio.charset.StandardCharsets;

/**
 * Encodes the frames a server sends (RFC 6455 §5.2): never masked, each message in one frame
 * with FIN set (a server need not fragment; the limits bound what it is asked to send). Stateless.
 */
public final class FrameWriter {
    private FrameWriter() {
    }

    /**
     * One whole frame, header and payload in one array (one write, no copy at write time).
     *
     * @param opcode the {@link Opcode}
     * @param rsv1 the per-message compression bit (RFC 7692), only on a data frame
     */
    public static byte[] frame(int opcode, boolean rsv1, byte[] payload, int off, int len) {
        int head = len < 126 ? 2 : len <= 0xFFFF ? 4 : 10;
        byte[] f = new byte[head + len];
        f[0] = (byte) (0x80 | (rsv1 ? 0x40 : 0) | opcode);
        if (len < 126) {
            f[1] = (byte) len;
        } else if (len <= 0xFFFF) {
            f[1] = 126;
            f[2] = (byte) (len >>> 8);
            f[3] = (byte) len;
        } else {
            f[1] = 127;
            long l = len;
            for (int i = 0; i < 8; i++) {
                f[2 + i] = (byte) (l >>> (56 - 8 * i));
            }
        }
        System.arraycopy(payload, off, f, head, len);
        return f;
    }

    /**
     * A close frame with {@code code} and a reason cut to fit the 125-byte control payload
     * (at a character boundary, so it stays UTF-8). {@link CloseCodes#NO_STATUS} gives an empty
     * close frame.
     */
    public static byte[] close(int code, String reason) {
        if (code == CloseCodes.NO_STATUS) {
            return frame(Opcode.CLOSE, false, new byte[0], 0, 0);
        }
        byte[] r = fit(reason == null ? "" : reason, 123);
        byte[] p = new byte[2 + r.length];
        p[0] = (byte) (code >>> 8);
        p[1] = (byte) code;
        System.arraycopy(r, 0, p, 2, r.length);
        return frame(Opcode.CLOSE, false, p, 0, p.length);
    }

    /** {@code s} in UTF-8, cut at the last whole character within {@code max} bytes. */
    static byte[] fit(String s, int max) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        if (b.length <= max) {
            return b;
        }
        int end = max;
        while (end > 0 && (b[end] & 0xC0) == 0x80) {
            end--; // b[end] continues a character that started before it
        }
        return java.util.Arrays.copyOf(b, end);
    }
}
