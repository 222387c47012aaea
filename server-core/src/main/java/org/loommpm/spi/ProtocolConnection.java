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
    /** {@return unique across every child of this server} */
    long id();

    /** {@return the attached buffers. Owner only} */
    ConnectionBuffers context();

    /** {@return requests served so far. Owner only} */
    int requests();

    /** {@return counts one more request served. Owner only} */
    int countRequest();

    /** {@return application bytes written since the accept (before any encryption). Owner only} */
    long bytesWritten();

    /** {@return whether the connection is encrypted (TLS)} */
    boolean isSecure();

    /** {@return the protocol ALPN chose during the TLS handshake, or {@code null} (plaintext, no ALPN). Owner only} */
    String applicationProtocol();

    /**
     * The connection's TLS session once its handshake finished, or {@code null} (plaintext, or
     * the handshake not done yet). It does not change afterwards (renegotiation is refused), so
     * any thread may read it once the owner has seen the handshake finish (a request parsed
     * after it).
     *
     * @return the session, or {@code null}
     */
    default javax.net.ssl.SSLSession tlsSession() {
        return null;
    }

    /**
     * Whether input is buffered below the protocol (decrypted TLS bytes) that a read would return
     * at once: no readiness comes for it, so a protocol must read it before going idle. Owner only.
     *
     * @return whether buffered input is waiting
     */
    boolean hasBufferedInput();

    /**
     * Hands the connection to another protocol; later dispatches run {@code next}. Owner only.
     *
     * @param next the protocol that takes over
     */
    void switchProtocol(ConnectionProtocol next);

    /**
     * The protocol's connection-long state if it is a {@code type}, else {@code null}. Owner only.
     *
     * @param <S> the state's type
     * @param type the state's class
     * @return the state, or {@code null}
     */
    <S> S session(Class<S> type);

    /**
     * Stores the protocol's connection-long state (kept while idle, dropped at close). Owner only.
     *
     * @param state the state
     */
    void session(Object state);

    /**
     * Whether the poller asked for a graceful end when it dispatched this connection (stop, or a
     * keep-alive or watch deadline), for protocols that close gracefully. Owner only.
     *
     * @return whether a graceful end was asked for
     */
    boolean closeRequested();

    /** The close request came from a watch deadline that only asked to look: the connection goes on. Owner only. */
    void withdrawCloseRequest();

    /** Asks for the owner's attention (a multiplexed connection is dispatched soon). Any thread. */
    void signal();

    /** {@return consumes a pending {@link #signal}: whether there was one. Owner only} */
    boolean takeSignal();

    /** {@return whether a {@link #signal} is pending, without consuming it. Owner only} */
    boolean signalPending();

    /**
     * The connection's bounded outbound queue: any thread may queue bytes on it without blocking,
     * and close the connection through it (see {@link OutboundQueue}). Created on first use.
     * Any thread.
     *
     * @return the queue
     */
    OutboundQueue outbound();

    /**
     * Writes what other threads queued on {@link #outbound()}, parking while the socket is full.
     * The engine does this before every dispatch of the protocol; a protocol calls it before a
     * direct write while the queue may hold bytes. Owner only.
     *
     * @throws IOException if the socket fails
     */
    void flushOutbound() throws IOException;

    /** {@return what the protocol may use of the child serving this connection} */
    ChildServices services();

    /** {@return the client's address} */
    InetSocketAddress remoteAddress();

    /** {@return the local address the client connected to} */
    InetSocketAddress localAddress();

    /**
     * Reads what is available without waiting: bytes read, 0, or -1 at the end. Owner only.
     *
     * @param dst where the bytes go
     * @return the bytes read, 0, or -1
     * @throws IOException if the socket fails
     */
    int readNow(ByteBuffer dst) throws IOException;

    /**
     * Reads at least one byte, parking the worker while none is there: bytes read, or -1 at the end. Owner only.
     *
     * @param dst where the bytes go
     * @return the bytes read, or -1
     * @throws IOException if the socket fails
     */
    int read(ByteBuffer dst) throws IOException;

    /**
     * {@link #read(ByteBuffer)} bounded also by an absolute deadline ({@link System#nanoTime()}
     * scale; 0 = {@code Timeout} alone), when it comes first: a request body's read stage. A
     * deadline that passes ends the wait with a {@link java.net.SocketTimeoutException}. Owner only.
     *
     * @param dst where the bytes go
     * @param deadlineNanos the deadline on {@link System#nanoTime()}'s clock, or 0
     * @return the bytes read, or -1
     * @throws IOException if the socket fails; {@link java.net.SocketTimeoutException} when the deadline passes
     */
    int read(ByteBuffer dst, long deadlineNanos) throws IOException;

    /**
     * {@link #read(ByteBuffer, long)} for a wait on the client that may be long (a request body):
     * a wait that lasts more than 20 ms lends the task's worker slot for the rest of it, so a
     * client that is not sending holds no slot (as its idle connection or unfinished head does);
     * before the read returns or throws, the task takes a slot again, waiting for one if none is
     * free, and {@code moved} is told which. The child bounds how many waits go without a slot
     * at once ({@code MaxSlotlessWaits}); past that bound, and for a task that holds no slot, this
     * is {@link #read(ByteBuffer, long)}. Owner only, on a worker.
     *
     * @param dst where the bytes go
     * @param deadlineNanos the deadline on {@link System#nanoTime()}'s clock, or 0
     * @param moved told the slot the task holds after a wait that lent its own
     * @return the bytes read, or -1
     * @throws IOException if the socket fails; {@link java.net.SocketTimeoutException} when the deadline passes
     */
    int read(ByteBuffer dst, long deadlineNanos, SlotMove moved) throws IOException;

    /**
     * Writes all of {@code src}, parking the worker while the socket is full. Owner only.
     *
     * @param src the bytes to write
     * @throws IOException if the socket fails
     */
    void write(ByteBuffer src) throws IOException;

    /**
     * Writes all of {@code srcs} in gathering writes, parking while the socket is full. Owner only.
     *
     * @param srcs the buffers to write, in order
     * @throws IOException if the socket fails
     */
    void write(ByteBuffer[] srcs) throws IOException;

    /**
     * Writes {@code count} bytes of {@code file} from {@code position} (zero-copy where possible). Owner only.
     *
     * @param file the file
     * @param position the offset of the first byte
     * @param count how many bytes
     * @throws IOException if the file or the socket fails
     */
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

    /**
     * Marks the connection's end as a cut: the response being sent is left incomplete. The
     * closing hand-back that follows ({@link #handBackClose}, {@link #handBackLinger}, or the one
     * the engine makes for an {@link OutboundQueue#close} asked from any thread) then skips the
     * transport's orderly end: over TLS the socket closes without close_notify, an incomplete
     * close, the only way a body delimited by the connection's close (HTTP/1.0) can show it was
     * cut off (RFC 9112 §9.8: a client takes such a body as complete only after close_notify).
     * Cleartext has no orderly end to skip. The protocol decides, since only it knows whether a
     * response was left incomplete; a closing hand-back not marked sends close_notify. Any
     * thread, before the close it marks.
     */
    void cutOff();

    /** Idle until the next request: buffers released, KEEPALIVE under KeepAliveTimeout. The owner's last act. */
    void handBackKeepAlive();

    /**
     * Waits for the rest of a request head, buffers kept, until {@code deadlineNanos}. The owner's last act.
     *
     * @param deadlineNanos the deadline, on {@link System#nanoTime()}'s clock
     */
    void handBackReadWait(long deadlineNanos);

    /**
     * Closes gracefully (output shut, input drained, then closed), counted under {@code reason}. The owner's last act.
     *
     * @param reason why the connection closes
     */
    void handBackLinger(CloseReason reason);

    /**
     * Closes at once, counted under {@code reason}. The owner's last act.
     *
     * @param reason why the connection closes
     */
    void handBackClose(CloseReason reason);

    /**
     * A multiplexed connection waits in its poller (buffers kept) for readiness, a
     * {@link #signal}, or {@code deadlineNanos} (then with {@link #closeRequested()} set; 0 = none).
     * The owner's last act.
     *
     * @param deadlineNanos the deadline on {@link System#nanoTime()}'s clock, or 0
     */
    void handBackWatch(long deadlineNanos);

    /**
     * Detaches the connection from any worker until the peer sends bytes (only if
     * {@code readInterest}), a {@link #signal}, or {@code deadlineNanos} (then dispatched with
     * {@link #closeRequested()} set; 0 = none); a graceful stop dispatches it with
     * {@link #closeRequested()} set when the protocol {@link ConnectionProtocol#closesGracefully()
     * closes gracefully}. Meanwhile its poller writes what any thread queues on {@link #outbound()}
     * and carries out a close asked through it. It holds no worker slot, no thread, and no buffer
     * unless unread input is buffered (then the context stays attached). A signal dispatches it
     * only once the queue is written. The owner's last act.
     *
     * @param deadlineNanos the deadline on {@link System#nanoTime()}'s clock, or 0
     * @param readInterest whether bytes from the peer dispatch the connection
     */
    void handBackDetached(long deadlineNanos, boolean readInterest);
}
