package org.loommpm.http2.hpack;

import java.nio.charset.StandardCharsets;

/**
 * Validated strings for the byte arrays the HPACK decoder hands out, remembered by identity: a
 * field taken from the static or the dynamic table arrives as the same array every time, so a
 * client repeating its fields (as clients do, request after request) costs neither decoding nor
 * validation again. Direct-mapped, 64 entries, a miss just recomputes. Owned by one
 * connection's frame loop.
 */
final class FieldStrings {
    private static final int SIZE = 64;
    private final byte[][] keys = new byte[SIZE][];
    private final String[] strings = new String[SIZE];

    /** The string remembered for exactly this array, or {@code null}. */
    String get(byte[] b) {
        int i = System.identityHashCode(b) & (SIZE - 1);
        return keys[i] == b ? strings[i] : null;
    }

    /** Decodes {@code b} (ISO-8859-1) and remembers the result for this array. */
    String put(byte[] b) {
        String s = new String(b, StandardCharsets.ISO_8859_1);
        int i = System.identityHashCode(b) & (SIZE - 1);
        keys[i] = b;
        strings[i] = s;
        return s;
    }
}
