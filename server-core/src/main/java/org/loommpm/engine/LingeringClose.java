package org.loommpm.engine;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectionKey;

/**
 * A poller's lingering closes (httpd's {@code lingering_close}): output shut down, then what the
 * peer still sends read and discarded until EOF or LingerTimeout, so our close does not become a
 * reset that destroys the response the peer has not read yet. Also counts the LINGER
 * population.
 *
 * <p><b>Threads.</b> Poller-confined: one per {@link Poller}, every method called on that
 * poller's thread only, for connections it owns (LINGER, or entering it). {@link #count()} is
 * written by the poller only and read by any thread.
 */
final class LingeringClose {
    private final Poller poller;
    private final long lingerNanos;
    private final ByteBuffer scratch = ByteBuffer.allocate(4096);
    /** LINGER connections now: one writer (the poller), so plain increments of a volatile. */
    private volatile int lingering;

    LingeringClose(Poller poller, long lingerNanos) {
        this.poller = poller;
        this.lingerNanos = lingerNanos;
    }

    /** LINGER connections of this poller now. Any thread. */
    int count() {
        return lingering;
    }

    /**
     * Starts a lingering close; the connection ends later under the reason already decided. A
     * peer whose FIN is already here (a client that closed once it had its answer, as most do
     * after {@code Connection: close}) can send nothing more, so the close cannot become a reset:
     * the connection is closed at once, without the shutdown and the LINGER wait.
     */
    void start(Connection c) throws IOException {
        poller.releaseOwnedContext(c);
        try {
            if (drainToEof(c)) {
                poller.close(c);
                return;
            }
            c.channel().shutdownOutput();
        } catch (ClosedChannelException e) {
            poller.close(c);
            return;
        }
        poller.arm(c, ConnState.LINGER, SelectionKey.OP_READ, lingerNanos);
    }

    /** A connection's state was just set to LINGER ({@link Poller#arm}). */
    void entered() {
        lingering++;
    }

    /** A connection is being finished: uncounted if it was lingering. */
    void finishing(Connection c) {
        if (c.state == ConnState.LINGER) {
            lingering--;
        }
    }

    /** Readable: reads and discards what the peer still sends; closes at EOF or on an error. */
    void drain(Connection c) {
        try {
            if (drainToEof(c)) {
                poller.close(c);
            }
        } catch (IOException e) {
            poller.close(c);
        }
    }

    /**
     * Reads and discards what is there (at most 16 reads a turn, so one flooding peer cannot
     * hold the poller).
     *
     * @return {@code true} at EOF: the peer has finished sending
     */
    private boolean drainToEof(Connection c) throws IOException {
        for (int i = 0; i < 16; i++) {
            scratch.clear();
            int n = c.channel().read(scratch);
            if (n < 0) {
                return true;
            }
            if (n == 0) {
                return false;
            }
        }
        return false;
    }
}
