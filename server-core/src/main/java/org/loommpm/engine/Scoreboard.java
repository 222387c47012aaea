package org.loommpm.engine;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One child's worker slots and what each is doing, with Apache's scoreboard letters.
 *
 * <p>Written by the worker occupying a slot (one writer per slot at a time, because the slot is
 * the worker's permit) with opaque stores, read by anyone (status pages) with opaque loads: a
 * reader sees each slot's recent state without slowing the writer with a fence.
 */
public final class Scoreboard {
    /** {@code _}: slot free, waiting for work. */
    public static final byte WAITING = '_';
    /** {@code R}: reading a request (head or body). */
    public static final byte READING = 'R';
    /** {@code W}: running the handler / writing the response. */
    public static final byte WRITING = 'W';
    /** {@code K}: finishing a keep-alive exchange (checking for a pipelined request). */
    public static final byte KEEPALIVE = 'K';
    /** {@code C}: closing the connection. */
    public static final byte CLOSING = 'C';

    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(byte[].class);

    private final byte[] slots;

    Scoreboard(int size) {
        slots = new byte[size];
        java.util.Arrays.fill(slots, WAITING);
    }

    /** Number of worker slots. */
    public int size() {
        return slots.length;
    }

    /** Records what the worker in {@code slot} is doing. Worker owning the slot only. */
    public void set(int slot, byte state) {
        SLOT.setOpaque(slots, slot, state);
    }

    /** The state letter of {@code slot}. Any thread. */
    public char state(int slot) {
        return (char) (byte) SLOT.getOpaque(slots, slot);
    }

    /** Every slot's letter, in slot order (mod_status's scoreboard line). */
    public String render() {
        char[] out = new char[slots.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = state(i);
        }
        return new String(out);
    }
}
