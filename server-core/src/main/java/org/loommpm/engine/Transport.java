package org.loommpm.engine;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * How a {@link Connection} moves bytes over its socket: {@link PlainTransport} (the channel
 * itself) or TLS ({@code org.loommpm.tls.TlsTransport}). Chosen per connection when it is
 * accepted, from its listener.
 *
 * <p><b>Contract.</b> Every method is non-blocking; parking (waiting for the poller to report
 * readiness) is the {@link Connection}'s job, driven by the results: a read that returns 0 with
 * {@link #flush()} false means "wait until writable, then read again" (a TLS handshake message is
 * still to be sent); a write that returns 0 means "wait until writable". Counts are application
 * bytes (before encryption).
 *
 * <p><b>Threads.</b> Owned by whoever owns the connection: a worker while it serves it, its
 * poller while the connection is idle or lingering (the poller only calls
 * {@link #hasBufferedInput()} and {@link #secure()}). Created on the accepting poller and
 * published to the others by the hand-off queue.
 */
public interface Transport {
    /** Application bytes read into {@code dst}: &gt;0, 0 when nothing is there yet, -1 at the end. */
    int read(ByteBuffer dst) throws IOException;

    /** Writes what it can of {@code src} now; the application bytes consumed (0 = socket full). */
    int write(ByteBuffer src) throws IOException;

    /** Gathering form of {@link #write(ByteBuffer)}. */
    long write(ByteBuffer[] srcs) throws IOException;

    /**
     * Sends what it can of {@code count} bytes of {@code file} from {@code position}; bytes sent,
     * 0 when the socket is full or the file has no byte at {@code position}.
     */
    long transferFrom(FileChannel file, long position, long count) throws IOException;

    /** Sends bytes this transport produced and still holds; whether none is left. */
    boolean flush() throws IOException;

    /**
     * Whether a read would return data without the socket becoming readable again (decrypted
     * bytes, or a whole TLS record already received): the poller never reports readiness for
     * those, so whoever goes idle must serve them first.
     */
    boolean hasBufferedInput();

    /** Whether the TLS handshake has not finished yet (always false in plaintext). */
    boolean handshaking();

    /**
     * Absolute {@link System#nanoTime()} by which the handshake must have finished (the first
     * request's header deadline); meaningful while {@link #handshaking()}.
     */
    long handshakeDeadline();

    /** The protocol ALPN chose ({@code h2}, {@code http/1.1}), or {@code null}. */
    String applicationProtocol();

    /**
     * The TLS session once the handshake finished, else {@code null} (always in plaintext).
     * Any thread: published before the first request is read.
     *
     * @return the session, or {@code null}
     */
    default javax.net.ssl.SSLSession tlsSession() {
        return null;
    }

    /** Whether the connection is encrypted. */
    boolean secure();

    /** Ends the sending side at the protocol level (TLS close_notify): best effort, never blocks. */
    void closeOutbound();

    /** The connection goes idle: give up buffers that are empty. */
    void idle();
}
