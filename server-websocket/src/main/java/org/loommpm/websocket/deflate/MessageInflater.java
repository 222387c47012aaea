package org.loommpm.websocket.deflate;

import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Decompresses one socket's incoming messages (RFC 7692 §7.2.2) frame by frame as their
 * payload arrives, into the caller's message buffer, under a bound: a message that inflates
 * past it is refused as soon as the bound is crossed (a compression bomb costs at most the bound).
 * Without context takeover the decompressor is borrowed from the {@link ZlibPool} for one message;
 * with it, the socket keeps its own. Owned by the socket's reader (its current owner).
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
    private Inflater inflater;
    private final byte[] probe = new byte[1];

    /**
     * @param params the negotiated configuration
     * @param pool where decompressors are borrowed when there is no context takeover
     */
    public MessageInflater(DeflateParams params, ZlibPool pool) {
        this.keepContext = !params.clientNoContextTakeover();
        this.pool = pool;
    }

    /** Inflates one more piece of the current message's compressed payload. */
    public void feed(byte[] b, int off, int len, Output out) throws InflateException {
        if (inflater == null) {
            inflater = pool.inflater();
        }
        inflater.setInput(b, off, len);
        drain(out);
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
                    out.wrote(n);
                } else if (inflater.needsDictionary()) {
                    throw new InflateException(1007, "compressed data asks for a dictionary");
                }
            }
        } catch (DataFormatException e) {
            throw new InflateException(1007, "invalid compressed data");
        }
    }

    /** Gives back or ends the decompressor (the socket closed). */
    public void end() {
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
