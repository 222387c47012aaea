package org.loommpm.proxy;

import java.nio.charset.StandardCharsets;

/**
 * The field names and values of a backend connection's previous response head, by position, so
 * that the next head's fields become those same strings when their bytes are the same: a backend
 * answers with the same fields in the same order (Server, Content-Type, Connection, most values),
 * and a proxied request would otherwise make two new strings per field.
 *
 * <p><b>Threads.</b> Owned with its {@link BackendConnection}: used by the lessee that reads the
 * head (the pool's hand-off orders one lessee's writes before the next one's reads).
 */
final class RecentFields {
    /** Fields remembered per head; later ones are always new strings. */
    private static final int SLOTS = 16;

    private final String[] names = new String[SLOTS];
    private final String[] values = new String[SLOTS];

    /** {@return the name of the head's field {@code index}, bytes {@code b[from, to)}} */
    String name(int index, byte[] b, int from, int to) {
        return remembered(names, index, b, from, to);
    }

    /** {@return the value of the head's field {@code index}, bytes {@code b[from, to)}} */
    String value(int index, byte[] b, int from, int to) {
        return remembered(values, index, b, from, to);
    }

    private static String remembered(String[] slots, int index, byte[] b, int from, int to) {
        if (index >= SLOTS) {
            return latin1(b, from, to);
        }
        String last = slots[index];
        if (last != null && last.length() == to - from && sameBytes(b, from, last)) {
            return last;
        }
        String s = latin1(b, from, to);
        slots[index] = s;
        return s;
    }

    /** Whether {@code b} at {@code from} holds {@code s}'s characters as ISO-8859-1 bytes (the caller checked the length). */
    private static boolean sameBytes(byte[] b, int from, String s) {
        for (int i = 0; i < s.length(); i++) {
            if ((b[from + i] & 0xff) != s.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    static String latin1(byte[] b, int from, int to) {
        return new String(b, from, to - from, StandardCharsets.ISO_8859_1);
    }
}
