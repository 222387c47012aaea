package org.loommpm.websocket.frame;

/**
 * Incremental UTF-8 validation (RFC 3629) for text messages that arrive in pieces: fragments of
 * one message, or the output of an inflater. It fails at the first byte that cannot start or
 * continue a well-formed sequence (overlong forms, surrogates and code points above U+10FFFF
 * included), so a bad message is refused before the rest of it is read (RFC 6455 §8.1).
 * Owned by the connection's current owner, like the reader that holds it.
 */
public final class Utf8Validator {
    /** Continuation bytes still expected for the current code point. */
    private int need;
    /** Bounds of the next continuation byte (narrower than 0x80..0xBF after some lead bytes). */
    private int lo = 0x80;
    private int hi = 0xBF;

    /**
     * Checks {@code len} more bytes of the message.
     *
     * @return whether they are still a valid prefix of UTF-8
     */
    public boolean feed(byte[] b, int off, int len) {
        int end = off + len;
        for (int i = off; i < end; i++) {
            int c = b[i] & 0xFF;
            if (need == 0) {
                if (c < 0x80) {
                    continue;
                }
                if (!lead(c)) {
                    return false;
                }
            } else {
                if (c < lo || c > hi) {
                    return false;
                }
                need--;
                lo = 0x80;
                hi = 0xBF;
            }
        }
        return true;
    }

    private boolean lead(int c) {
        if (c >= 0xC2 && c <= 0xDF) {
            need = 1;
        } else if (c == 0xE0) {
            need = 2;
            lo = 0xA0; // no overlong three-byte forms
        } else if (c == 0xED) {
            need = 2;
            hi = 0x9F; // no UTF-16 surrogates
        } else if (c >= 0xE1 && c <= 0xEF) {
            need = 2;
        } else if (c == 0xF0) {
            need = 3;
            lo = 0x90; // no overlong four-byte forms
        } else if (c >= 0xF1 && c <= 0xF3) {
            need = 3;
        } else if (c == 0xF4) {
            need = 3;
            hi = 0x8F; // nothing above U+10FFFF
        } else {
            return false;
        }
        return true;
    }

    /** Whether the bytes fed so far end on a code point boundary (a message may end here). */
    public boolean complete() {
        return need == 0;
    }

    /** Starts over for the next message. */
    public void reset() {
        need = 0;
        lo = 0x80;
        hi = 0xBF;
    }

    /** Whether {@code b[off..off+len)} is, on its own, complete and valid UTF-8. */
    public static boolean isValid(byte[] b, int off, int len) {
        Utf8Validator v = new Utf8Validator();
        return v.feed(b, off, len) && v.complete();
    }
}
