package org.loommpm.bench;

import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * One client connection of {@link OpenLoopClient}: at most one request in flight (no pipelining,
 * like wrk2), and a minimal HTTP/1.1 response reader that is just enough for the benchmark
 * servers' answers (a head, then a Content-Length body).
 */
final class HttpConn {
    /** {@link #parse} result while the response is incomplete. */
    static final int INCOMPLETE = -1;
    /** {@link #parse} result for a response this reader cannot frame (no Content-Length, too big). */
    static final int UNFRAMEABLE = -2;

    final SocketChannel channel;
    SelectionKey key;
    /** Response bytes received so far, in write mode. Direct: NIO copies heap buffers on every read. */
    final ByteBuffer in = ByteBuffer.allocateDirect(4096);
    /** The unwritten rest of the request, or {@code null}. */
    ByteBuffer out;
    /** When connecting began or, with a request in flight, the request's scheduled send time. */
    long since;
    /** When the request in flight was written. */
    long sentAt;
    boolean connected;
    boolean busy;
    /** Set by {@link #parse}: the response announced {@code Connection: close}. */
    boolean closeAfter;

    HttpConn(SocketChannel channel) {
        this.channel = channel;
    }

    /**
     * Looks for one complete response at the start of {@link #in}; when there is one, removes it
     * and returns its status.
     *
     * @return the status, {@link #INCOMPLETE} or {@link #UNFRAMEABLE}
     */
    int parse() {
        int end = in.position();
        int headEnd = -1;
        for (int i = 3; i < end; i++) {
            if (in.get(i) == '\n' && in.get(i - 1) == '\r' && in.get(i - 2) == '\n' && in.get(i - 3) == '\r') {
                headEnd = i + 1;
                break;
            }
        }
        if (headEnd < 0) {
            return end == in.capacity() ? UNFRAMEABLE : INCOMPLETE;
        }
        int status = (in.get(9) - '0') * 100 + (in.get(10) - '0') * 10 + (in.get(11) - '0');
        long length = -1;
        closeAfter = false;
        for (int line = lineAfter(0, headEnd); line < headEnd - 2; line = lineAfter(line, headEnd)) {
            if (startsWithIgnoreCase(line, "content-length:")) {
                length = number(line + 15, headEnd);
            } else if (startsWithIgnoreCase(line, "connection:")) {
                closeAfter = containsIgnoreCase(line + 11, headEnd, "close");
            }
        }
        if (length < 0 || headEnd + length > in.capacity()) {
            return UNFRAMEABLE;
        }
        int total = (int) (headEnd + length);
        if (end < total) {
            return INCOMPLETE;
        }
        // Drop the response; keep anything after it (there should be nothing: no pipelining).
        in.flip().position(total);
        in.compact();
        return status;
    }

    /** Closes with a reset, so a closed benchmark connection leaves no TIME_WAIT behind. */
    void abort() {
        try {
            if (channel.isOpen()) {
                channel.setOption(StandardSocketOptions.SO_LINGER, 0);
            }
        } catch (IOException e) {
            // not connected yet: a plain close is all there is
        }
        try {
            channel.close();
        } catch (IOException e) {
            // nothing left to release
        }
    }

    private int lineAfter(int from, int limit) {
        for (int i = from; i < limit; i++) {
            if (in.get(i) == '\n') {
                return i + 1;
            }
        }
        return limit;
    }

    private boolean startsWithIgnoreCase(int at, String lower) {
        if (at + lower.length() > in.position()) {
            return false;
        }
        for (int i = 0; i < lower.length(); i++) {
            if (Character.toLowerCase((char) in.get(at + i)) != lower.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private boolean containsIgnoreCase(int from, int limit, String lower) {
        for (int i = from; i + lower.length() <= limit; i++) {
            if (startsWithIgnoreCase(i, lower)) {
                return true;
            }
            if (in.get(i) == '\n') {
                return false;
            }
        }
        return false;
    }

    private long number(int from, int limit) {
        long n = -1;
        for (int i = from; i < limit; i++) {
            int b = in.get(i);
            if (b >= '0' && b <= '9') {
                n = (n < 0 ? 0 : n * 10) + (b - '0');
            } else if (b != ' ' && b != '\t') {
                break;
            }
        }
        return n;
    }
}
