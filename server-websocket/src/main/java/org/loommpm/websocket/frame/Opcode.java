package org.loommpm.websocket.frame;

/** The frame opcodes of RFC 6455 §5.2; every other value is reserved and refused. */
public final class Opcode {
    /** A continuation fragment of a data message. */
    public static final int CONTINUATION = 0x0;
    /** The first frame of a text message. */
    public static final int TEXT = 0x1;
    /** The first frame of a binary message. */
    public static final int BINARY = 0x2;
    /** The close handshake. */
    public static final int CLOSE = 0x8;
    /** A ping, answered by a pong with the same payload. */
    public static final int PING = 0x9;
    /** A pong (an answer, or an unsolicited heartbeat). */
    public static final int PONG = 0xA;

    private Opcode() {
    }

    /** Whether {@code op} is a control opcode (close, ping, pong and the reserved 0xB-0xF). */
    public static boolean isControl(int op) {
        return (op & 0x8) != 0;
    }

    /** Whether {@code op} is one RFC 6455 defines. */
    public static boolean isKnown(int op) {
        return op <= BINARY || (op >= CLOSE && op <= PONG);
    }
}
