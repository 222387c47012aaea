package org.loommpm.websocket.frame;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;
import java.util.zip.Deflater;

/** Builds frames as a client sends them (masked), for the codec and raw-socket tests. */
public final class ClientFrames {
    private ClientFrames() {
    }

    /** A masked frame; {@code b0} is the whole first byte (FIN, RSV, opcode). */
    public static byte[] frame(int b0, byte[] payload) {
        return frame(b0, payload, true);
    }

    /** A frame, masked or not. */
    public static byte[] frame(int b0, byte[] payload, boolean masked) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(b0);
        int m = masked ? 0x80 : 0;
        int len = payload.length;
        if (len < 126) {
            out.write(m | len);
        } else if (len <= 0xFFFF) {
            out.write(m | 126);
            out.write(len >>> 8);
            out.write(len);
        } else {
            out.write(m | 127);
            for (int i = 7; i >= 0; i--) {
                out.write((int) ((long) len >>> (8 * i)));
            }
        }
        byte[] key = new byte[4];
        ThreadLocalRandom.current().nextBytes(key);
        if (masked) {
            out.writeBytes(key);
        }
        byte[] p = payload.clone();
        if (masked) {
            for (int i = 0; i < p.length; i++) {
                p[i] ^= key[i & 3];
            }
        }
        out.writeBytes(p);
        return out.toByteArray();
    }

    /** A whole masked text message in one frame. */
    public static byte[] text(String s) {
        return frame(0x81, s.getBytes(StandardCharsets.UTF_8));
    }

    /** A masked close frame with a code and reason. */
    public static byte[] close(int code, String reason) {
        byte[] r = reason.getBytes(StandardCharsets.UTF_8);
        byte[] p = new byte[2 + r.length];
        p[0] = (byte) (code >>> 8);
        p[1] = (byte) code;
        System.arraycopy(r, 0, p, 2, r.length);
        return frame(0x88, p);
    }

    /** Concatenation. */
    public static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    /** permessage-deflate's payload for {@code data}: raw deflate, sync-flushed, tail removed. */
    public static byte[] deflate(byte[] data) {
        Deflater d = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
        d.setInput(data);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        int n;
        do {
            n = d.deflate(buf, 0, buf.length, Deflater.SYNC_FLUSH);
            out.write(buf, 0, n);
        } while (n == buf.length || !d.needsInput());
        d.end();
        byte[] b = out.toByteArray();
        return Arrays.copyOf(b, b.length - 4);
    }
}
