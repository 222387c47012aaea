package org.loommpm.websocket.server;

import java.time.Duration;

/**
 * The deadline of a WebSocket message being received ({@code WebSocketMessageTimeout}): it starts
 * when the message's first fragment is read and is not moved by the fragments that follow, so a
 * client cannot keep an unfinished message (and its share of the input budget) alive by sending a
 * byte now and then, as it keeps the idle timeout alive. Past it the socket is closed with 1008.
 *
 * <p>Owned by the socket's reader (the worker holding the connection, or the HTTP/2 stream's
 * worker): plain fields, one thread at a time, handed on with the connection.
 */
final class MessageDeadline {
    private final long timeoutNanos;
    /** Whether a message is being received, and since when (read time of its first fragment). */
    private boolean running;
    private long startNanos;

    /** @param timeout how long a message may take from its first fragment to its last */
    MessageDeadline(Duration timeout) {
        this.timeoutNanos = timeout.toNanos();
    }

    /**
     * Notes where the reader is after a read.
     *
     * @param inMessage whether a message has started and not ended
     * @param now the time of the read
     */
    void observe(boolean inMessage, long now) {
        if (!inMessage) {
            running = false;
        } else if (!running) {
            running = true;
            startNanos = now;
        }
    }

    /** {@return whether the message being received is past its deadline at {@code now}} */
    boolean passed(long now) {
        return running && now - startNanos >= timeoutNanos;
    }

    /**
     * {@return the earlier of {@code other} and the running message's deadline (System.nanoTime
     * clock): the time the socket must be looked at again}
     *
     * @param other another deadline
     */
    long earlier(long other) {
        if (!running) {
            return other;
        }
        long due = startNanos + timeoutNanos;
        return due - other < 0 ? due : other;
    }

    /** {@return the timeout, for the log} */
    Duration timeout() {
        return Duration.ofNanos(timeoutNanos);
    }
}
