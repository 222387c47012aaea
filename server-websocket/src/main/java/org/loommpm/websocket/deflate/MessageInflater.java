package org.loommpm.websocket.deflate;

import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Decompresses one socket's incoming messages (RFC 7692 §7.2.2) frame by frame as their
 * payload arrives, into the caller's message buffer, under a bound: a message that inflates
 * past it is refused as soon as the bound is crossed (a compression bomb costs at most the bound).
 * Without context takeover the decompressor is borrowed from the {@link ZlibPool} for one message;
 * with it, the socket keeps its own. Owned by the socket's reader (its current owner).
 *
 * <p><b>Ratio.</b> A message that inflates to {@code ratioMinBytes} or more and to more than
 * {@code maxRatio} times the compressed bytes fed so far is refused 1008 ({@link #ratioExceeded()}):
 * ~850 compressed bytes inflating to 1 MiB, echoed and so compressed again, took a server's CPU
 * (issue #50 item 8). Below the minimum size no ratio is checked: a small message may compress
 * far better against the context kept from the earlier ones. Deflate's own limit is about 1032:1.
 */
public final class MessageInflater {
    /** What RFC 7692 §7.2.2 appends to a message's payload before the last inflate. */
    private static final byte[] TAIL = {0, 0, (byte) 0xFF, (byte) 0xFF};

    /** Where inflated bytes go. */
    public interface Output {
        /**
         * Room for at least one more byte: the array to write into ({@link #offset()} onward,
         * up to its length), or {@code null} when the message reached its bound.
         */
        byte[] room();

        /** Where the next inflated byte goes in {@link #room()}'s array. */
        int offset();

        /** Records {@code n} bytes written at {@link #offset()}; the output may validate them. */
        void wrote(int n) throws InflateException;
    }

    /** The compressed data is invalid, or the output refused it; the code says which (a close status). */
    public static final class InflateException extends Exception {
        private static final long serialVersionUID = 1L;
        private final int closeCode;

        /** @param closeCode the close status this failure ends the socket with */
        public InflateException(int closeCode, String message) {
            super(message, null, false, false);
            this.closeCode = closeCode;
        }

        /** The close status. */
        public int closeCode() {
            return closeCode;
        }
    }

    private final boolean keepContext;
    private final ZlibPool pool;
    private final int maxRatio;
    private final int ratioMinBytes;
    private Inflater inflater;
    private final byte[] probe = new byte[1];
    /** The current message's compressed bytes fed, and its bytes inflated. */
    private long messageIn;
    private long messageOut;
    /** Every byte this socket inflated (its owner charges the growth to the client). */
    private long inflatedTotal;
    private boolean ratioExceeded;

    /**
     * An inflater without a ratio limit.
     *
     * @param params the negotiated configuration
     * @param pool where decompressors are borrowed when there is no context takeover
     */
    public MessageInflater(DeflateParams params, ZlibPool pool) {
        this(params, pool, 0, Integer.MAX_VALUE);
    }

    /**
     * @param params the negotiated configuration
     * @param pool where decompressors are borrowed when there is no context takeover
     * @param maxRatio the largest inflated-to-compressed ratio of a message (0 = none)
     * @param ratioMinBytes the inflated size of a message from which its ratio is checked
     */
    public MessageInflater(DeflateParams params, ZlibPool pool, int maxRatio, int ratioMinBytes) {
        this.keepContext = !params.clientNoContextTakeover();
        this.pool = pool;
        this.maxRatio = maxRatio;
        this.ratioMinBytes = ratioMinBytes;
    }

    /** Inflates one more piece of the current message's compressed payload. */
    public void feed(byte[] b, int off, int len, Output out) throws InflateException {
        if (inflater == null) {
            inflater = pool.inflater();
        }
        messageIn += len;
        inflater.setInput(b, off, len);
        drain(out);
    }

    /** {@return every byte inflated on this socket so far} */
    public long inflatedTotal() {
        return inflatedTotal;
    }

    /** {@return whether a message was refused for its ratio (the socket then closes 1008)} */
    public boolean ratioExceeded() {
        return ratioExceeded;
    }

    /** Ends the current message: inflates the tail and, without context takeover, returns the decompressor. */
    public void finish(Output out) throws InflateException {
        if (inflater == null) {
            inflater = pool.inflater();
        }
        if (!inflater.finished()) {
            inflater.setInput(TAIL);
            drain(out);
        }
        messageIn = 0;
        messageOut = 0;
        if (!keepContext) {
            pool.release(inflater);
            inflater = null;
        } else if (inflater.finished()) {
            inflater.reset(); // the client ended its stream with a final block: the next message starts anew
        }
    }

    private void drain(Output out) throws InflateException {
        try {
            while (!inflater.finished() && !inflater.needsInput()) {
                byte[] room = out.room();
                if (room == null) {
                    // At the bound: one more byte of output means the message is too big.
                    if (inflater.inflate(probe) > 0) {
                        throw new InflateException(1009, "message inflates beyond the limit");
                    }
                    if (inflater.needsDictionary()) {
                        throw new InflateException(1007, "compressed data asks for a dictionary");
                    }
                    continue;
                }
                int start = out.offset();
                int n = inflater.inflate(room, start, room.length - start);
                if (n > 0) {
                    counted(n);
                    out.wrote(n);
                } else if (inflater.needsDictionary()) {
                    throw new InflateException(1007, "compressed data asks for a dictionary");
                }
            }
        } catch (DataFormatException e) {
            throw new InflateException(1007, "invalid compressed data");
        }
    }

    private void counted(int n) throws InflateException {
        messageOut += n;
        inflatedTotal += n;
        if (maxRatio > 0 && messageOut >= ratioMinBytes && messageOut > maxRatio * Math.max(1, messageIn)) {
            ratioExceeded = true;
            throw new InflateException(1008, "message inflates more than " + maxRatio + ":1");
        }
    }

    /** Gives back or ends the decompressor (the socket closed). */
    public void end() {
        messageIn = 0;
        messageOut = 0;
        if (inflater != null) {
            if (keepContext) {
                inflater.end();
            } else {
                pool.release(inflater);
            }
            inflater = null;
        }
    }
}
