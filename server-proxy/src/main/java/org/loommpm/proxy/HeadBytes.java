package org.loommpm.proxy;

import java.util.Arrays;

/**
 * A growable byte array a request head is composed in ({@link HeadSink}): the output buffer of
 * a blocking {@link BackendConnection}, and for an exchange on an event loop the fields (once
 * per request) and the request line and {@code Host} (once per attempt), then written with the
 * body in one write. Confined to one thread.
 */
final class HeadBytes implements HeadSink {
    private byte[] b;
    private int len;

    HeadBytes(int capacity) {
        b = new byte[capacity];
    }

    @Override
    public HeadBytes ascii(String s, int from, int to) {
        int n = to - from;
        room(n);
        for (int i = 0; i < n; i++) {
            char ch = s.charAt(from + i);
            b[len + i] = ch <= 0xff ? (byte) ch : (byte) '?';
        }
        len += n;
        return this;
    }

    @Override
    public HeadBytes decimal(long v) {
        room(20);
        int digits = 1;
        for (long t = v; t >= 10; t /= 10) {
            digits++;
        }
        long t = v;
        for (int i = len + digits - 1; i >= len; i--) {
            b[i] = (byte) ('0' + t % 10);
            t /= 10;
        }
        len += digits;
        return this;
    }

    /** {@return appends {@code src[off, off + n)}} */
    HeadBytes bytes(byte[] src, int off, int n) {
        room(n);
        System.arraycopy(src, off, b, len, n);
        len += n;
        return this;
    }

    void clear() {
        len = 0;
    }

    byte[] array() {
        return b;
    }

    int length() {
        return len;
    }

    int capacity() {
        return b.length;
    }

    private void room(int n) {
        if (n > b.length - len) {
            b = Arrays.copyOf(b, Math.max(b.length * 2, len + n));
        }
    }
}
