package org.loommpm.spi;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * A client connection as a protocol sees it: its I/O, its hand-backs to the engine, signals, a
 * typed per-connection session, and its child's services. The engine's connection implements
 * it; its states, its poller and its transport stay the engine's.
 *
 * <p><b>Ownership.</b> One party owns a connection at a time: its poller, or the worker running
 * {@link ConnectionProtocol#serve}. Methods marked "owner only" may be called by that worker
 * alone; every serve ends with exactly one {@code handBack*} call, its last act on the
 * connection. Reads and writes never block a carrier: a read or write that cannot progress parks
 * the worker's virtual thread until the poller reports the socket ready, or {@code Timeout}
 * passes ({@link java.net.SocketTimeoutException}); a client that went away is a
 * {@link PeerIOException}.
 */
public interface ProtocolConnection {
    /** Unique across every child of this server. */
    long id();

    /** The attached buffers. Owner only. */
    ConnectionBuffers context();

    /** Requests served so far. Owner only. */
    int requests();

    /** Counts one more request served. Owner only. */
    int countRequest();

    /** Application bytes written since the accept (before any encryption). Owner only. */
    long bytesWritten();

    /** Whether the connection is encrypted (TLS). */
    boolean isSecure();

    /** The protocol ALPN chose during the TLS handshake, or {@code null} (plaintext, no ALPN). Owner only. */
    String applicationProtocol();

    /**
     * Whether input is buffered below the protocol (decrypted TLS bytes) that a read would return
     * at once: no readiness comes for it, so a protocol must read it before going idle. Owner only.
     */
    boolean hasBufferedInput();

    /** Hands the connection to another protocol; later dispatches run {@code next}. Owner only. */
    void switchProtocol(ConnectionProtocol next);

    /** The protocol's connection-long state if it is a {@code type}, else {@code null}. Owner only. */
    <S> S session(Class<S> type);

    /** Stores the protocol's connection-long state (kept while idle, dropped at close). Owner only. */
    void session(Object state);

    /**
     * Whether the poller asked for a graceful end when it dispatched this connection (stop, or a
     * keep-alive or watch deadline), for protocols that close gracefully. Owner only.
     */
    boolean closeRequested();

    /** The close request came from a watch deadline that only asked to look: the connection goes on. Owner only. */
    void withdrawCloseRequest();

    /** Asks for the owner's attention (a multiplexed connection is dispatched soon). Any thread. */
    void signal();

    /** Consumes a pending {@link #signal}: whether there was one. Owner only. */
    boolean takeSignal();

    /** What the protocol may use of the child serving this connection. */
    ChildServices services();

    /** The client's address. */
    InetSocketAddress remoteAddress();

    /** The local address the client connected to. */
    InetSocketAddress localAddress();

    /** Reads what is available without waiting: bytes read, 0, or -1 at the end. Owner only. */
    int readNow(ByteBuffer dst) throws IOException;

    /** Reads at least one byte, parking the worker while none is there: bytes read, or -1 at the end. Owner only. */
    int read(ByteBuffer dst) throws IOException;

    /**
     * {@link #read(ByteBuffer)} bounded also by an absolute deadline ({@link System#nanoTime()}
     * scale; 0 = {@code Timeout} alone), when it comes first: a request body's read stage. A
     * deadline that passes ends the wait with a {@link java.net.SocketTimeoutException}. Owner only.
     */
    int read(ByteBuffer dst, long deadlineNanos) throws IOException;

    /** Writes all of {@code src}, parking the worker while the socket is full. Owner only. */
    void write(ByteBuffer src) throws IOException;

    /** Writes all of {@code srcs} in gathering writes, parking while the socket is full. Owner only. */
    void write(ByteBuffer[] srcs) throws IOException;

    /** Writes {@code count} bytes of {@code file} from {@code position} (zero-copy where possible). Owner only. */
    void transferFrom(FileChannel file, long position, long count) throws IOException;

    /**
     * Goes on serving this connection as a new worker task (queued for a slot like any
     * dispatch): bytes already buffered get no readiness, and a long run yields its carrier this
     * way. Ownership passes to that task: the caller's last act.
     */
    void redispatch();

    /**
     * As {@link #redispatch}, for a multiplexed connection's owner task: on a free slot or at once
     * without one, never queued behind the connection's own tasks ({@link ChildServices#dispatchOwner}).
     */
    void redispatchOwner();

    /** Idle until the next request: buffers released, KEEPALIVE under KeepAliveTimeout. The owner's last act. */
    void handBackKeepAlive();

    /** Waits for the rest of a request head, buffers kept, until {@code deadlineNanos}. The owner's last act. */
    void handBackReadWait(long deadlineNanos);

    /** Closes gracefully (output shut, input drained, then closed), counted under {@code reason}. The owner's last act. */
    void handBackLinger(CloseReason reason);

    /** Closes at once, counted under {@code reason}. The owner's last act. */
    void handBackClose(CloseReason reason);

    /**
     * A multiplexed connection waits in its poller (buffers kept) for readiness, a
     * {@link #signal}, or {@code deadlineNanos} (then with {@link #closeRequested()} set; 0 = none).
     * The owner's last act.
     */
    void handBackWatch(long deadlineNanos);
}
