package org.loommpm.websocket.frame;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.loommpm.spi.InputBudget;
import org.loommpm.websocket.deflate.MessageInflater;

/**
 * Reads a client's frames (RFC 6455 §5) and assembles its messages, from whatever bytes the
 * socket had: a frame's header may arrive in pieces (the few bytes are kept here), its payload
 * is unmasked and consumed as it comes, so the caller's read buffer never has to hold a whole
 * frame and is empty whenever this returns.
 *
 * <p>Checked on the way, each failing with the close status RFC 6455 gives it: a frame not
 * masked, reserved bits (RSV1 only as permessage-deflate allows it), reserved opcodes, a control
 * frame fragmented or longer than 125 bytes, a continuation without a message or a new message
 * inside one (1002); a frame or message over the limits, also after inflating (1009); text that
 * is not UTF-8, checked as each fragment arrives so a bad message fails at its first bad byte,
 * and a close reason that is not (1007); an invalid close code (1002). Control frames may come
 * between the fragments of a message.
 *
 * <p>State machine: {@link State#HEADER} (collecting a header) → {@link State#PAYLOAD}
 * (consuming its payload) → {@code HEADER} …, and {@link State#CLOSED} after the client's close
 * frame or a failure. The message being assembled lives here only while it arrives; between
 * messages a reader holds no buffer but its 14-byte header scratch.
 *
 * <p><b>The input budget.</b> The message's array is charged to the child's
 * {@link InputBudget} before it is allocated or grown (its whole length, fragments and inflated
 * bytes alike); a refusal fails the message with 1009, as a message over the limit does
 * ({@link #refusedByBudget()} tells them apart). The charge is released when the message has
 * been delivered (the listener returned) and on every other end: a failure, the client's close
 * frame, {@link #releaseMessage()} when the socket ends.
 *
 * <p>Owned by the socket's current owner (the worker serving it); kept in the socket's session
 * across idle periods.
 */
public final class MessageReader {
    /** Where the reader's results go; called on the reading thread, in order. */
    public interface Listener {
        /** A whole data message ({@code data[0..length)}; the array is the listener's to keep). */
        void onMessage(boolean text, byte[] data, int length);

        /** A ping: the listener answers it with a pong carrying {@code payload}. */
        void onPing(byte[] payload);

        /** A pong. */
        void onPong(byte[] payload);

        /** The client's close frame: {@link CloseCodes#NO_STATUS} when it carried no code. */
        void onClose(int code, String reason);
    }

    /** Where the reader is in the byte stream. */
    public enum State { HEADER, PAYLOAD, CLOSED }

    /** Messages up to this size get their array when their header arrives, sized exactly. */
    private static final int EXACT_ALLOCATION = 64 * 1024;

    private final int maxFrameSize;
    private final int maxMessageSize;
    /** The socket's decompressor when permessage-deflate was agreed, else {@code null}. */
    private final MessageInflater inflater;
    /** What the message being assembled holds of the child's input budget. */
    private final InputBudget.Hold budget;
    /** Whether the budget refused to let the message grow (the reader is then CLOSED). */
    private boolean refusedByBudget;

    private State state = State.HEADER;
    private final byte[] head = new byte[14];
    private int headLen;

    // The frame being consumed.
    private int opcode;
    private boolean fin;
    private long remaining;
    private final byte[] mask = new byte[4];
    private int maskPos;
    private byte[] control;
    private int controlLen;

    // The message being assembled (null between messages).
    private boolean inMessage;
    private boolean text;
    private boolean compressed;
    private byte[] message;
    private int messageLen;
    /** Compressed payload bytes of the current message (bounded like the inflated size). */
    private long wireLen;
    private final Utf8Validator utf8 = new Utf8Validator();
    private final MessageInflater.Output inflated = new InflatedOutput();

    /**
     * @param maxFrameSize the largest frame payload accepted
     * @param maxMessageSize the largest message accepted, after inflating
     * @param inflater the decompressor when permessage-deflate was agreed, else {@code null}
     * @param budget what the message being assembled holds of the child's input budget
     */
    public MessageReader(int maxFrameSize, int maxMessageSize, MessageInflater inflater, InputBudget.Hold budget) {
        this.maxFrameSize = maxFrameSize;
        this.maxMessageSize = maxMessageSize;
        this.inflater = inflater;
        this.budget = budget;
    }

    /** The state (for the owner deciding whether more input is expected). */
    public State state() {
        return state;
    }

    /** Whether a data message has started and not ended: its completion deadline runs. */
    public boolean inMessage() {
        return inMessage;
    }

    /** Whether the reader failed because the child's input budget refused its message room (1009). */
    public boolean refusedByBudget() {
        return refusedByBudget;
    }

    /** Whether a message (or a frame) is partly read: the socket is not idle between messages. */
    public boolean midMessage() {
        return inMessage || state == State.PAYLOAD || headLen > 0;
    }

    /**
     * Consumes all of {@code in} (read mode), calling {@code listener} for each complete message
     * and control frame, or up to and including the client's close frame.
     *
     * @throws WebSocketProtocolException the client broke the protocol or a limit; the reader is
     *         then {@link State#CLOSED}
     */
    public void read(ByteBuffer in, Listener listener) throws WebSocketProtocolException {
        try {
            // A frame with an empty payload completes as soon as its header is read.
            while (state != State.CLOSED && (in.hasRemaining() || (state == State.PAYLOAD && remaining == 0))) {
                if (state == State.HEADER) {
                    header(in);
                } else {
                    payload(in, listener);
                }
            }
        } catch (WebSocketProtocolException e) {
            state = State.CLOSED;
            releaseMessage();
            throw e;
        }
    }

    private void header(ByteBuffer in) throws WebSocketProtocolException {
        int need = headLen < 2 ? 2 : headerLength();
        while (headLen < need && in.hasRemaining()) {
            head[headLen++] = in.get();
            if (headLen == 2) {
                checkFirstTwo();
                need = headerLength();
            }
        }
        if (headLen < need) {
            return;
        }
        int len7 = head[1] & 0x7F;
        long len;
        if (len7 == 126) {
            len = ((head[2] & 0xFF) << 8) | (head[3] & 0xFF);
        } else if (len7 == 127) {
            len = 0;
            for (int i = 2; i < 10; i++) {
                len = (len << 8) | (head[i] & 0xFF);
            }
            if (len < 0) {
                throw new WebSocketProtocolException(CloseCodes.PROTOCOL_ERROR, "frame length has its top bit set");
            }
        } else {
            len = len7;
        }
        System.arraycopy(head, need - 4, mask, 0, 4);
        headLen = 0;
        startFrame(len);
    }

    /** 2 + extended length + 4 mask bytes. */
    private int headerLength() {
        int len7 = head[1] & 0x7F;
        return 2 + (len7 == 126 ? 2 : len7 == 127 ? 8 : 0) + 4;
    }

    private void checkFirstTwo() throws WebSocketProtocolException {
        int b0 = head[0] & 0xFF;
        fin = (b0 & 0x80) != 0;
        boolean rsv1 = (b0 & 0x40) != 0;
        opcode = b0 & 0x0F;
        if ((b0 & 0x30) != 0) {
            throw new WebSocketProtocolException(CloseCodes.PROTOCOL_ERROR, "reserved bit set");
        }
        if (!Opcode.isKnown(opcode)) {
            throw new WebSocketProtocolException(CloseCodes.PROTOCOL_ERROR, "reserved opcode " + opcode);
        }
        if ((head[1] & 0x80) == 0) {
            throw new WebSocketProtocolException(CloseCodes.PROTOCOL_ERROR, "client frame not masked");
        }
        if (Opcode.isControl(opcode)) {
            if (!fin) {
                throw new WebSocketProtocolException(CloseCodes.PROTOCOL_ERROR, "fragmented control frame");
            }
            if ((head[1] & 0x7F) > 125) {
                throw new WebSocketProtocolException(CloseCodes.PROTOCOL_ERROR, "control frame longer than 125 bytes");
            }
            if (rsv1) {
                throw new WebSocketProtocolException(CloseCodes.PROTOCOL_ERROR, "RSV1 on a control frame");
            }
        } else if (opcode == Opcode.CONTINUATION) {
            if (!inMessage) {
                throw new WebSocketProtocolException(CloseCodes.PROTOCOL_ERROR, "continuation without a message");
            }
            if (rsv1) {
                throw new WebSocketProtocolException(CloseCodes.PROTOCOL_ERROR, "RSV1 on a continuation frame");
            }
        } else {
            if (inMessage) {
                throw new WebSocketProtocolException(CloseCodes.PROTOCOL_ERROR, "new message before the last one ended");
            }
            if (rsv1 && inflater == null) {
                throw new WebSocketProtocolException(CloseCodes.PROTOCOL_ERROR, "RSV1 set without permessage-deflate");
            }
            inMessage = true;
            text = opcode == Opcode.TEXT;
            compressed = rsv1;
            messageLen = 0;
            wireLen = 0;
            utf8.reset();
        }
    }

    private void startFrame(long len) throws WebSocketProtocolException {
        if (len > maxFrameSize) {
            throw new WebSocketProtocolException(CloseCodes.TOO_BIG, "frame of " + len + " bytes exceeds " + maxFrameSize);
        }
        remaining = len;
        maskPos = 0;
        if (Opcode.isControl(opcode)) {
            if (control == null) {
                control = new byte[125];
            }
            controlLen = 0;
        } else {
            wireLen += len;
            if (wireLen > maxMessageSize) {
                throw new WebSocketProtocolException(CloseCodes.TOO_BIG, "message exceeds " + maxMessageSize + " bytes");
            }
            if (!compressed && message == null && wireLen <= EXACT_ALLOCATION) {
                // The frame says how much is coming: a small one-frame message gets an exact array
                // (delivered without a copy). Larger ones grow as their bytes arrive, so a header
                // announcing a big frame reserves nothing.
                message = grow(null, (int) wireLen);
            }
        }
        state = State.PAYLOAD;
    }

    private void payload(ByteBuffer in, Listener listener) throws WebSocketProtocolException {
        int n = (int) Math.min(remaining, in.remaining());
        byte[] a = in.array();
        int off = in.arrayOffset() + in.position();
        for (int i = 0; i < n; i++) {
            a[off + i] ^= mask[(maskPos + i) & 3];
        }
        maskPos = (maskPos + n) & 3;
        in.position(in.position() + n);
        remaining -= n;
        if (Opcode.isControl(opcode)) {
            System.arraycopy(a, off, control, controlLen, n);
            controlLen += n;
        } else {
            data(a, off, n);
        }
        if (remaining == 0) {
            state = State.HEADER;
            if (Opcode.isControl(opcode)) {
                control(listener);
            } else if (fin) {
                endMessage(listener);
            }
        }
    }

    private void data(byte[] a, int off, int n) throws WebSocketProtocolException {
        if (n == 0) {
            return;
        }
        if (compressed) {
            try {
                inflater.feed(a, off, n, inflated);
            } catch (MessageInflater.InflateException e) {
                throw inflateFailed(e);
            }
            return;
        }
        if (message == null || message.length - messageLen < n) {
            long want = Math.max(messageLen + (long) n, message == null ? 1024 : 2L * message.length);
            message = grow(message, (int) Math.min(want, maxMessageSize));
        }
        System.arraycopy(a, off, message, messageLen, n);
        if (text && !utf8.feed(message, messageLen, n)) {
            throw new WebSocketProtocolException(CloseCodes.INVALID_PAYLOAD, "text is not UTF-8");
        }
        messageLen += n;
    }

    private void endMessage(Listener listener) throws WebSocketProtocolException {
        if (compressed) {
            try {
                inflater.finish(inflated);
            } catch (MessageInflater.InflateException e) {
                throw inflateFailed(e);
            }
        }
        if (text && !utf8.complete()) {
            throw new WebSocketProtocolException(CloseCodes.INVALID_PAYLOAD, "text ends inside a UTF-8 sequence");
        }
        byte[] m = message == null ? new byte[0] : message;
        int len = messageLen;
        boolean t = text;
        message = null;
        messageLen = 0;
        inMessage = false;
        try {
            listener.onMessage(t, m, len);
        } finally {
            budget.releaseAll();
        }
    }

    /**
     * The message's array, charged to the input budget before it is allocated: a new one of
     * {@code length} bytes, or {@code old}'s bytes in a longer one.
     *
     * @throws WebSocketProtocolException 1009 when the budget refuses
     */
    private byte[] grow(byte[] old, int length) throws WebSocketProtocolException {
        if (!budget.grow(length - (old == null ? 0 : old.length))) {
            refusedByBudget = true;
            throw new WebSocketProtocolException(CloseCodes.TOO_BIG,
                    "input budget exhausted: no room for a message of " + length + " bytes");
        }
        return old == null ? new byte[length] : Arrays.copyOf(old, length);
    }

    /** The inflater's failure as the close it calls for; a refusal of the budget says so. */
    private WebSocketProtocolException inflateFailed(MessageInflater.InflateException e) {
        if (refusedByBudget) {
            return new WebSocketProtocolException(CloseCodes.TOO_BIG, "input budget exhausted while inflating");
        }
        return new WebSocketProtocolException(e.closeCode(), e.getMessage());
    }

    private void control(Listener listener) throws WebSocketProtocolException {
        byte[] p = Arrays.copyOf(control, controlLen);
        switch (opcode) {
            case Opcode.PING -> listener.onPing(p);
            case Opcode.PONG -> listener.onPong(p);
            default -> {
                int code = CloseCodes.NO_STATUS;
                String reason = "";
                if (p.length == 1) {
                    throw new WebSocketProtocolException(CloseCodes.PROTOCOL_ERROR, "close frame with a 1-byte payload");
                }
                if (p.length >= 2) {
                    code = ((p[0] & 0xFF) << 8) | (p[1] & 0xFF);
                    if (!CloseCodes.validFromPeer(code)) {
                        throw new WebSocketProtocolException(CloseCodes.PROTOCOL_ERROR, "invalid close code " + code);
                    }
                    if (!Utf8Validator.isValid(p, 2, p.length - 2)) {
                        throw new WebSocketProtocolException(CloseCodes.INVALID_PAYLOAD, "close reason is not UTF-8");
                    }
                    reason = new String(p, 2, p.length - 2, StandardCharsets.UTF_8);
                }
                state = State.CLOSED;
                releaseMessage();
                listener.onClose(code, reason);
            }
        }
    }

    /** Drops a half-assembled message, its share of the input budget, and gives back the decompressor (closing). */
    public void releaseMessage() {
        message = null;
        messageLen = 0;
        inMessage = false;
        budget.releaseAll();
        if (inflater != null) {
            inflater.end();
        }
    }

    /** The inflater's window onto the message buffer, growing it up to the message limit. */
    private final class InflatedOutput implements MessageInflater.Output {
        @Override
        public byte[] room() {
            int length;
            if (message == null) {
                length = Math.min(maxMessageSize, Math.max(256, (int) Math.min(4 * wireLen, 1 << 16)));
            } else if (messageLen == message.length) {
                if (message.length >= maxMessageSize) {
                    return null;
                }
                length = (int) Math.min(maxMessageSize, 2L * message.length);
            } else {
                return message;
            }
            if (!budget.grow(length - (message == null ? 0 : message.length))) {
                refusedByBudget = true;
                return null; // the inflater fails the message as too big; inflateFailed says why
            }
            refusedByBudget = false;
            message = message == null ? new byte[length] : Arrays.copyOf(message, length);
            return message;
        }

        @Override
        public int offset() {
            return messageLen;
        }

        @Override
        public void wrote(int n) throws MessageInflater.InflateException {
            if (text && !utf8.feed(message, messageLen, n)) {
                throw new MessageInflater.InflateException(CloseCodes.INVALID_PAYLOAD, "text is not UTF-8");
            }
            messageLen += n;
        }
    }
}
