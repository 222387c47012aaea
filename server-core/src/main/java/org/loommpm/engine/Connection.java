package org.loommpm.engine;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.AsynchronousCloseException;
import java.nio.channels.FileChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.concurrent.locks.LockSupport;
import org.loommpm.spi.ChildServices;
import org.loommpm.spi.ProtocolConnection;
import org.loommpm.spi.CloseReason;
import org.loommpm.spi.ConnectionProtocol;
import org.loommpm.spi.SlotMove;
import org.loommpm.spi.WorkerTask;

/**
 * One client connection, bound to one {@link Poller} for life.
 *
 * <h2>State model and ownership</h2>
 * A connection is owned by exactly one party at a time, its poller or one worker, and only the
 * owner may touch its key, its timer, its context or its state.
 * <pre>
 *   state             owner   selector interest / deadline
 *   NEW               poller  (in the poller's inbox)
 *   PROXY_HEADER      poller  OP_READ / RemoteIPProxyProtocolTimeout (PROXY protocol listeners only)
 *   KEEPALIVE         poller  OP_READ / KeepAliveTimeout (a new connection: FirstByteTimeout)
 *   ASYNC_WAITIO      poller  OP_READ / the head's absolute deadline
 *   MULTIPLEXED       poller  OP_READ / optional   (HTTP/2: streams run on their own workers)
 *   DETACHED          poller  OP_READ or 0, + OP_WRITE while queued bytes wait / optional
 *                             (a suspended exchange, an event stream, an idle WebSocket)
 *   PROCESSING        worker  OP_READ or 0 / none (read interest is dropped lazily)
 *   SUSPENDED         worker  OP_READ / Timeout, or a body stage deadline if sooner (worker parked)
 *   WRITE_COMPLETION  worker  OP_WRITE / Timeout     (worker parked; the poller may only wake it)
 *   LINGER            poller  OP_READ / LingerTimeout
 *   CLOSED            nobody
 *
 *   NEW -> KEEPALIVE                        poller registers it
 *   NEW -> PROXY_HEADER -> KEEPALIVE        on a PROXY protocol listener: the poller reads the
 *                                           header itself, then makes the transport (below)
 *   PROXY_HEADER -> CLOSED                  invalid header, EOF, or its deadline
 *   KEEPALIVE -> PROCESSING(inline) -> KEEPALIVE | DETACHED | LINGER | CLOSED | PROCESSING(worker)
 *                                           HTTP/1.1 cleartext, non-blocking handlers: the poller
 *                                           that claimed it serves whole requests itself (see
 *                                           "Inline" below), then applies the hand-back at once
 *   KEEPALIVE | ASYNC_WAITIO -> PROCESSING  poller claims it on readiness: timer cancelled,
 *                                           context attached, dispatched to a worker; should the
 *                                           socket be reported ready again while a worker owns
 *                                           it, the poller drops the interest (the state, not
 *                                           the interest set, rules out a second dispatch)
 *   PROCESSING -> SUSPENDED | WRITE_COMPLETION -> PROCESSING
 *                                           worker asks its poller to report readiness and parks;
 *                                           poller wakes it on readiness, deadline or shutdown
 *   PROCESSING -> KEEPALIVE | ASYNC_WAITIO | MULTIPLEXED | LINGER | CLOSED
 *                                           worker hands it back ({@code handBack*}): its last act
 *   MULTIPLEXED -> PROCESSING               poller claims it on readiness, on a signal from a
 *                                           stream ({@link #signal}), or when its deadline passes
 *                                           (then with {@link #closeRequested()} set)
 *   DETACHED -> PROCESSING                  the same (readiness only with read interest); a
 *                                           signal is served after the queued bytes are written
 *   DETACHED -> PROCESSING -> DETACHED      poller, TLS only: a short engine task writes the
 *                                           outbound queue through the TLS engine ({@link Outbound#flushDetached})
 *   DETACHED -> LINGER | CLOSED             a close asked from any thread ({@link Outbound#close})
 *   KEEPALIVE -> CLOSED                     deadline, graceful stop, or EOF seen by a worker
 *   ASYNC_WAITIO -> LINGER                  head deadline: the protocol's timeout answer (408)
 *   LINGER -> CLOSED                        EOF, error, or LingerTimeout
 * </pre>
 * <b>Hand-offs.</b> A worker hands a connection back by setting {@link #op} and pushing it onto
 * its poller's {@link HandoffQueue}; the queue's CAS publishes everything the worker wrote, and
 * the poller applies interest and deadline together when it takes the queue. Because the poller
 * is the only thread that sees readiness and expiry, a deadline and readiness firing together
 * are decided by one thread: the first one processed claims or wakes, the second finds a state
 * that no longer matches and does nothing. {@link #end} is guarded by a CAS so the connection is
 * counted closed exactly once on every path, under the {@link CloseReason} of whoever decided the
 * end (a worker sets it before its last hand-off; the poller when it ends an owned connection).
 *
 * <p><b>Protocol and session.</b> The {@link ConnectionProtocol} serving a connection starts as
 * its child's (HTTP/1.1) and may be switched by the owner ({@link #switchProtocol}: ALPN {@code h2},
 * the HTTP/2 preface, {@code Upgrade: h2c}). A protocol that keeps state for the connection's
 * whole life (HTTP/2's HPACK tables and streams) stores it with {@link #session(Object)}; unlike
 * the context it survives idle periods.
 *
 * <p><b>Signals.</b> Tasks that do not own the connection (an HTTP/2 stream's handler with a
 * frame to send) call {@link #signal}: a flag plus, at most once until the poller has looked, a
 * poke through the poller's queue. A MULTIPLEXED connection is dispatched on a poke; and because
 * the poller also checks the flag when it applies {@link #handBackWatch}, a signal racing with
 * that hand-back is never lost. The owner consumes the flag with {@link #takeSignal}.
 *
 * <p><b>Inline.</b> While its poller serves it inline ({@link #inline} set, poller thread only)
 * the poller is its owner as a worker would be, and nothing parks: a write the socket does not
 * take whole queues the rest on {@link #outbound()} (copied; later writes queue behind it), a
 * hand-back only records its {@link #op} (the poller applies it when the protocol returns; a
 * lingering one with bytes still queued becomes DETACHED, closing after the poller has written
 * the queue), and a wait for readiness is a bug of the protocol
 * and throws {@link IllegalStateException}. A keep-alive hand-back with bytes still queued
 * records no operation: the poller dispatches the connection to a worker, which writes the queue
 * first ({@link #run}) as any worker write would, then reads the next request.
 *
 * <p><b>Outbound queue.</b> Any thread may queue bytes on {@link #outbound()}; who writes them
 * follows ownership (see {@link Outbound}, "Who writes").
 *
 * <p><b>Transport.</b> All socket I/O of the worker side ({@link WorkerIo}) goes through the
 * connection's {@link Transport} (plaintext or TLS, fixed at accept, or on a PROXY protocol
 * listener made by the poller once it has read the header, with the bytes that followed it; the
 * header's client address then replaces the socket's in {@link #remoteAddress()}, and the
 * transport exists before the first dispatch, published by it); the transport never blocks, and
 * this class parks the worker on what it reports (see {@link Transport}). While a TLS handshake is
 * unfinished, a KEEPALIVE hand-back waits under the first request's header deadline instead
 * (ASYNC_WAITIO), so a stalled handshake ends like a stalled head. Closing hand-backs send the
 * transport's close_notify first, unless the protocol marked the end a cut ({@link #cutOff()});
 * the poller itself writes nothing into a TLS stream.
 */
public final class Connection extends TimerRing.Timer implements WorkerTask, WorkerPool.MovesSlot, ProtocolConnection {
    private final long id;
    private final SocketChannel channel;
    private final Poller poller;
    /** Set at accept, or by the poller after a PROXY protocol header (then before the first dispatch). */
    private Transport transport;
    /** Makes {@link #transport} once the PROXY protocol header is read; null for plaintext. */
    private final TransportFactory transportFactory;
    /** The PROXY protocol header being read, until it is complete; poller-confined. */
    ProxyHeaderReader proxyHeader;
    private static final VarHandle ENDED;
    private static final VarHandle SIGNALLED;
    private static final VarHandle POKE_QUEUED;
    private static final VarHandle WORKER;

    static {
        try {
            var lookup = MethodHandles.lookup();
            ENDED = lookup.findVarHandle(Connection.class, "ended", int.class);
            SIGNALLED = lookup.findVarHandle(Connection.class, "signalled", int.class);
            POKE_QUEUED = lookup.findVarHandle(Connection.class, "pokeQueued", int.class);
            WORKER = lookup.findVarHandle(Connection.class, "worker", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** 0 until {@link #end} wins its CAS (a field, not an AtomicBoolean: idle connections are many). */
    @SuppressWarnings("unused") // accessed through ENDED
    private volatile int ended;
    /** 1 while a {@link #signal} has not been taken by the owner. */
    @SuppressWarnings("unused") // accessed through SIGNALLED
    private volatile int signalled;
    /** 1 while this connection sits in its poller's poke queue (so it is queued at most once). */
    @SuppressWarnings("unused") // accessed through POKE_QUEUED
    private volatile int pokeQueued;
    /**
     * The worker thread that owns this connection while its task runs ({@link #run}), null from
     * its hand-back on, so that a task ending abnormally knows whether the connection is still
     * its own to end. Written plainly by the owner (set at the start of its task, cleared before
     * the push that hands the connection on); the two writes that may race are CASes: the failing
     * owner's claim in {@link #run} and another thread's {@link #redispatchOwner}.
     */
    private Thread worker;
    /** The protocol serving it; owner only. */
    private ConnectionProtocol protocol;
    /** The protocol's connection-long state; owner only. */
    private Object session;
    /** Set by the poller before it dispatches a connection it wants ended gracefully; owner reads. */
    boolean closeRequested;
    /** Absolute deadline for {@link HandOff#WATCH} ({@code 0} = none), in {@link System#nanoTime()} units. */
    long watchDeadline;
    /** Absolute deadline for {@link HandOff#DETACH} ({@code 0} = none); owner writes, the poller applies. */
    long detachDeadline;
    /** Whether a DETACHED connection keeps read interest (the protocol wants the peer's bytes). */
    boolean detachRead;
    /** Set by the poller before it dispatches a DETACHED connection only to write its queue (TLS). */
    boolean flushOnly;
    /** Created on first use by any thread (a CAS in {@link Outbound#of}); null if never used. */
    volatile Outbound outbound;

    /** Poller-confined once registered. */
    SelectionKey key;
    /** Written by the owner; volatile so status readers see a recent value. */
    volatile ConnState state = ConnState.NEW;
    /** Owner only. */
    ConnectionContext context;
    /** The {@link HandoffQueue} link. */
    Connection handoffNext;
    /** The requested hand-off; written before the queue push, read by the poller after it. */
    HandOff op = HandOff.NONE;
    /** Absolute deadline for {@link HandOff#READ_WAIT}, in {@link System#nanoTime()} units. */
    long headDeadline;
    /**
     * Absolute deadline of an {@link HandOff#AWAIT_READ} ({@code 0} = {@code Timeout} alone): a
     * request body's {@code RequestReadTimeout body=} stage. Written by the parking worker
     * before its hand-off, read by the poller after it.
     */
    long awaitDeadline;
    /**
     * Set by the poller while it serves this connection on its own thread (see "Inline" in the
     * class comment); poller-confined, read by the owner's I/O and hand-back methods, which then
     * run on that poller.
     */
    boolean inline;
    /** Whether the poller ever dispatched it (it has sent something); poller-confined. */
    boolean dispatchedOnce;
    /**
     * Whether the key's interest set is {@code OP_READ}: written by the poller whenever it sets
     * the interest, read by a worker just after it pushed a KEEPALIVE hand-back (see
     * {@link Poller#handoffIdle}). Volatile for that Dekker pair with the inbox's CAS.
     */
    volatile boolean readArmed;
    /** The slot its worker holds ({@link SlotLoan}); null for a task without one. Owner only, set by each run. */
    private WorkerPool.Hold hold;
    /**
     * The turn {@link HandshakeAdmission} gave this run while the TLS handshake goes on, or null;
     * given back by {@link #handshakeOver} as soon as the handshake has finished, so the request
     * that follows (a slow body, a long handler) never holds up other handshakes. Owner only.
     */
    Runnable handshakeTurn;
    /** Set while a worker is parked in {@link #await}. */
    private volatile Thread waiter;
    /** How the poller ended the current {@link #await} ({@link Wake#NONE} while it has not); read by {@link SlotLoan}. */
    volatile Wake wake = Wake.NONE;
    /** Why the connection will end, decided by its owner (see {@link CloseReason}). */
    CloseReason closeReason = CloseReason.NORMAL;
    /** Set by {@link #cutOff()} (any thread, before the close it marks); read by the closing hand-back. */
    private volatile boolean cutOff;
    /** Requests served on this connection; owner only. */
    private int requests;
    /** Bytes written to the socket so far; owner only (a plain add per write, for metrics). */
    private long bytesWritten;
    private InetSocketAddress remote;
    private InetSocketAddress local;

    /**
     * @param tls the listener's TLS transports, or null for plaintext
     * @param proxyProtocol whether the connection starts with a PROXY protocol header: then the
     *                      transport is made only once its poller has read it
     */
    Connection(long id, SocketChannel channel, Poller poller, TransportFactory tls, boolean proxyProtocol) {
        super(id);
        this.id = id;
        this.channel = channel;
        this.poller = poller;
        this.transportFactory = tls;
        if (proxyProtocol) {
            this.proxyHeader = new ProxyHeaderReader();
        } else {
            this.transport = openTransport(null);
        }
        this.protocol = poller.child().protocol();
    }

    private Transport openTransport(ByteBuffer received) {
        return transportFactory == null ? new PlainTransport(channel, received) : transportFactory.open(channel, received);
    }

    /**
     * The PROXY protocol header is complete: its client address (if it names one) becomes this
     * connection's remote address, and the transport starts with the bytes read past it. Poller
     * side, before the first dispatch.
     */
    void proxied(org.loommpm.proxyprotocol.ProxyHeader header) {
        if (header.hasSource()) {
            remote = header.source();
        }
        transport = openTransport(proxyHeader.rest());
        proxyHeader = null;
    }

    /** Unique across every child of this server. */
    public long id() {
        return id;
    }

    /** The state now (a hint for observers; exact for the owner). */
    public ConnState state() {
        return state;
    }

    /** The attached context. Owner only. */
    public ConnectionContext context() {
        return context;
    }

    /** Requests served so far. Owner only. */
    public int requests() {
        return requests;
    }

    /** Counts one more request served. Owner only. */
    public int countRequest() {
        return ++requests;
    }

    /** Application bytes written since the accept (before any encryption). Owner only. */
    public long bytesWritten() {
        return bytesWritten;
    }

    /** {@code n} more bytes went to the socket (a worker's write, or the poller's of a DETACHED queue). Owner only. */
    void addBytesWritten(long n) {
        bytesWritten += n;
    }

    /** Whether the connection is encrypted (TLS). */
    public boolean isSecure() {
        return transport.secure();
    }

    /** The protocol ALPN chose during the TLS handshake, or {@code null} (plaintext, no ALPN). Owner only. */
    public String applicationProtocol() {
        return transport.applicationProtocol();
    }

    @Override
    public javax.net.ssl.SSLSession tlsSession() {
        return transport.tlsSession();
    }

    /**
     * Whether input is buffered below the protocol (decrypted TLS bytes, a whole record) that a
     * read would return at once: the poller reports no readiness for it, so a protocol must read
     * it before going idle. Owner only.
     */
    public boolean hasBufferedInput() {
        return transport.hasBufferedInput();
    }

    Transport transport() {
        return transport;
    }


    /** The protocol serving this connection now. Owner only. */
    public ConnectionProtocol protocol() {
        return protocol;
    }

    /**
     * Hands the connection to another protocol (ALPN {@code h2}, the HTTP/2 preface, an
     * accepted {@code Upgrade}); later dispatches run {@code next}. Owner only.
     */
    public void switchProtocol(ConnectionProtocol next) {
        this.protocol = next;
    }

    /**
     * The protocol's connection-long state if it is a {@code type} (the protocol serving the
     * connection stored it), else {@code null}. Owner only.
     */
    public <S> S session(Class<S> type) {
        return type.isInstance(session) ? type.cast(session) : null;
    }

    /** Stores the protocol's connection-long state (kept while idle, dropped at close). Owner only. */
    public void session(Object state) {
        this.session = state;
    }

    /**
     * Whether the poller asked for a graceful end when it dispatched this connection: the
     * server is stopping, or the connection's keep-alive or watch deadline passed. Only for
     * protocols whose {@link ConnectionProtocol#closesGracefully()} is true. Owner only.
     */
    public boolean closeRequested() {
        return closeRequested;
    }

    /**
     * The owner found nothing to end: the dispatch with {@link #closeRequested()} set came from
     * a {@link #handBackWatch} deadline that only asked it to look (HTTP/2: a stream waiting on
     * the client too long), not from an idle timeout or a stop. Owner only.
     */
    public void withdrawCloseRequest() {
        closeRequested = false;
    }

    /**
     * Asks for the owner's attention: a MULTIPLEXED connection is dispatched soon; a connection
     * being served keeps the flag for its owner's next {@link #takeSignal}. Any thread; cheap
     * when repeated (one poke per poller look).
     */
    public void signal() {
        SIGNALLED.setVolatile(this, 1);
        if ((int) POKE_QUEUED.getVolatile(this) == 0 && POKE_QUEUED.compareAndSet(this, 0, 1)) {
            poller.poke(this);
        }
    }

    /** Consumes a pending {@link #signal}: whether there was one. Owner only. */
    public boolean takeSignal() {
        return (int) SIGNALLED.getVolatile(this) != 0 && (int) SIGNALLED.getAndSet(this, 0) != 0;
    }

    /** Whether a {@link #signal} is pending, without consuming it. Owner only (and the poller). */
    public boolean signalPending() {
        return (int) SIGNALLED.getVolatile(this) != 0;
    }

    /** Poller side: the poke is being handled; a later signal queues a new one. */
    void pokeTaken() {
        POKE_QUEUED.setVolatile(this, 0);
    }

    /** The connection's outbound queue, created on the first call ({@link Outbound#of}). Any thread. */
    @Override
    public Outbound outbound() {
        return Outbound.of(this);
    }

    /** The queue if it was ever used, else {@code null}. Any thread. */
    Outbound outboundIfAny() {
        return outbound;
    }

    /** A producer queued bytes or asked for a close: the poller looks (once per look). Any thread. */
    void outboundPoke() {
        if ((int) POKE_QUEUED.getVolatile(this) == 0 && POKE_QUEUED.compareAndSet(this, 0, 1)) {
            poller.poke(this);
        }
    }

    /** The child serving it (engine only: protocols use {@link #services()}). */
    Child child() {
        return poller.child();
    }

    @Override
    public void redispatch() {
        worker = null;
        poller.services().dispatch(this);
    }

    /**
     * {@inheritDoc} The call may come from a thread other than the owner's (HTTP/2's watcher ends
     * an inline run that takes too long) while the owner's task is failing: the CAS on
     * {@link #worker} decides once whether a new owner runs or the failing one ends the connection.
     */
    @Override
    public void redispatchOwner() {
        Thread owner = (Thread) WORKER.getVolatile(this);
        if (owner != null && WORKER.compareAndSet(this, owner, null)) {
            poller.services().dispatchOwner(this);
        }
    }

    /** What the protocol serving this connection may use of its child. */
    public ChildServices services() {
        return poller.services();
    }

    /**
     * The client's address (cached after the first call): the socket's peer, or on a PROXY
     * protocol listener the client the header names.
     */
    public InetSocketAddress remoteAddress() {
        if (remote == null) {
            try {
                remote = (InetSocketAddress) channel.getRemoteAddress();
            } catch (IOException e) {
                remote = new InetSocketAddress(0);
            }
        }
        return remote;
    }

    /** The local address (cached after the first call). */
    public InetSocketAddress localAddress() {
        if (local == null) {
            try {
                local = (InetSocketAddress) channel.getLocalAddress();
            } catch (IOException e) {
                local = new InetSocketAddress(0);
            }
        }
        return local;
    }

    // ---- worker side: I/O that parks the virtual thread instead of blocking a poller (WorkerIo) ----

    @Override
    public int readNow(ByteBuffer dst) throws IOException {
        return WorkerIo.readNow(this, dst);
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        return WorkerIo.read(this, dst, 0, null);
    }

    @Override
    public int read(ByteBuffer dst, long deadlineNanos) throws IOException {
        return WorkerIo.read(this, dst, deadlineNanos, null);
    }

    @Override
    public int read(ByteBuffer dst, long deadlineNanos, SlotMove moved) throws IOException {
        return WorkerIo.read(this, dst, deadlineNanos, moved);
    }

    @Override
    public void write(ByteBuffer src) throws IOException {
        WorkerIo.write(this, src);
    }

    @Override
    public void write(ByteBuffer[] srcs) throws IOException {
        WorkerIo.write(this, srcs);
    }

    @Override
    public void transferFrom(FileChannel file, long position, long count) throws IOException {
        WorkerIo.transferFrom(this, file, position, count);
    }

    @Override
    public void flushOutbound() throws IOException {
        WorkerIo.flushOutbound(this);
    }

    /** Parks the calling worker until the poller reports readiness for {@code awaitOp}. Owner only. */
    void await(HandOff awaitOp) throws IOException {
        await(awaitOp, null);
    }

    /** Gives back the handshake turn once the handshake has finished ({@link #handshakeTurn}). Owner only. */
    void handshakeOver() {
        Runnable turn = handshakeTurn;
        if (turn != null && !transport.handshaking()) {
            handshakeTurn = null;
            turn.run();
        }
    }

    /** {@link #await(HandOff)}, lending the worker's slot for a long wait when {@code moved} is given ({@link SlotLoan}). */
    void await(HandOff awaitOp, SlotMove moved) throws IOException {
        handshakeOver();
        if (inline) {
            // A protocol serves inline only what needs no wait (a whole request, a plaintext socket).
            throw new IllegalStateException(awaitOp + " on a connection served inline by its poller");
        }
        if (!channel.isOpen()) {
            throw new AsynchronousCloseException();
        }
        wake = Wake.NONE;
        waiter = Thread.currentThread();
        // The poller, not this worker, moves the state to SUSPENDED / WRITE_COMPLETION when it
        // arms the wait: a readiness it saw before that belongs to PROCESSING and cannot wake us.
        op = awaitOp;
        poller.handoff(this);
        if (poller.hasExited()) {
            // The poller ended after our push may have missed its final drain: do not park.
            wake = Wake.CLOSED;
        }
        Wake w;
        if (moved != null && hold != null) {
            w = SlotLoan.park(this, poller.child().pool(), hold, moved);
        } else {
            while ((w = wake) == Wake.NONE) {
                LockSupport.park(this);
            }
        }
        waiter = null;
        state = ConnState.PROCESSING;
        if (w == Wake.TIMEOUT) {
            throw new SocketTimeoutException("no progress within Timeout");
        }
        if (w == Wake.CLOSED) {
            throw new AsynchronousCloseException();
        }
    }

    /** Poller side of {@link #await}: report the outcome and unpark the worker. */
    void wakeWorker(Wake outcome) {
        wake = outcome;
        Thread t = waiter;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    // ---- worker side: hand-backs, each the worker's last act on this connection ----

    /**
     * The protocol left a response incomplete: the closing hand-back that follows skips
     * close_notify. A flag rather than a hand-back of its own because the close may be asked from
     * another thread ({@link Outbound#close}, carried out later by {@link Outbound#flushDetached});
     * the closing hand-back stays the one place that ends the transport, on the thread that owns it.
     */
    @Override
    public void cutOff() {
        cutOff = true;
    }

    /** A closing hand-back's first step: the transport's orderly end (TLS close_notify), unless {@link #cutOff}. */
    private void closeOutbound() {
        if (!cutOff) {
            transport.closeOutbound();
        }
    }

    /** Detaches the context and returns it to the poller's recycle list. Owner only. */
    public void releaseContext() {
        ConnectionContext ctx = context;
        if (ctx != null) {
            context = null;
            poller.recycle(ctx);
        }
    }

    /**
     * Idle until the next request: releases the context and re-arms for KEEPALIVE. While a TLS
     * handshake is unfinished it waits under the handshake's deadline instead.
     */
    public void handBackKeepAlive() {
        Outbound q = outbound;
        if (inline && q != null && q.hasItems()) {
            // The socket did not take the whole response: a worker writes the rest (parking as
            // any write does) and then reads the next request. The context stays attached.
            op = HandOff.NONE;
            return;
        }
        releaseContext();
        transport.idle();
        if (transport.handshaking()) {
            headDeadline = transport.handshakeDeadline();
            handBack(HandOff.READ_WAIT);
            return;
        }
        op = HandOff.KEEPALIVE;
        worker = null;
        if (!inline) { // inline: the poller applies op when the protocol returns
            poller.handoffIdle(this, transport.hasBufferedInput());
        }
    }

    /**
     * Waits for the rest of a request head: the context (holding the partial head) stays
     * attached; the poller re-arms with the head's absolute {@code deadlineNanos}.
     */
    public void handBackReadWait(long deadlineNanos) {
        headDeadline = deadlineNanos;
        handBack(HandOff.READ_WAIT);
    }

    /**
     * Closes gracefully: output shut down, input drained by the poller, then closed.
     *
     * @param reason why the connection ends (counted when it does)
     */
    public void handBackLinger(CloseReason reason) {
        releaseContext();
        Outbound q = outbound;
        if (inline && q != null && q.hasItems()) {
            // Output is shut down only after the poller has written the rest of the response.
            closeReason = reason;
            q.close(reason, true);
            handBackDetached(System.nanoTime() + poller.timeoutNanos(), false);
            return;
        }
        closeOutbound();
        closeReason = reason;
        handBack(HandOff.LINGER);
    }

    /**
     * Closes at once (an abort, or a peer that already went away).
     *
     * @param reason why the connection ends (counted when it does)
     */
    public void handBackClose(CloseReason reason) {
        releaseContext();
        closeOutbound();
        closeReason = reason;
        handBack(HandOff.CLOSE);
    }

    /**
     * A multiplexed connection with nothing for its own task to do while streams run elsewhere:
     * the context stays attached (it may hold part of a frame); the poller re-dispatches on
     * readiness, on a {@link #signal}, or at {@code deadlineNanos} with
     * {@link #closeRequested()} set ({@code 0}: no deadline).
     */
    public void handBackWatch(long deadlineNanos) {
        transport.idle();
        watchDeadline = deadlineNanos;
        handBack(HandOff.WATCH);
    }

    /**
     * Nothing for a worker until the peer sends bytes ({@code readInterest}), a {@link #signal},
     * or {@code deadlineNanos} (then dispatched with {@link #closeRequested()} set; 0 = none):
     * the connection waits DETACHED in its poller, which writes its {@link #outbound()} queue
     * meanwhile. The context is released unless unread input is buffered in it.
     */
    @Override
    public void handBackDetached(long deadlineNanos, boolean readInterest) {
        ConnectionContext ctx = context;
        if (ctx != null && !ctx.in().hasRemaining()) {
            releaseContext();
        }
        transport.idle();
        detachDeadline = deadlineNanos;
        detachRead = readInterest;
        handBack(HandOff.DETACH);
    }

    private void handBack(HandOff handOp) {
        op = handOp;
        worker = null;
        if (!inline) {
            poller.handoff(this); // inline: the poller applies op when the protocol returns
        }
    }

    // ---- worker entry ----

    /**
     * Runs the protocol on the worker that was dispatched this connection, after writing what
     * other threads queued (so the protocol's own writes follow them); or, when the poller
     * dispatched it only for that ({@link #flushOnly}), {@link Outbound#flushDetached}.
     *
     * <p>The worker owns the connection until it hands it back. If its task ends on something no
     * layer handled (an {@link Error} from deep in a handler, a protocol's bug) while it still
     * owns it, nobody ever would end it: the client would wait forever and the connection would
     * stay counted. So it is ended here, then the failure goes on to the pool (which logs it, and
     * treats an out-of-memory error as fatal).
     */
    @Override
    public void run(int slot) {
        hold = null;
        runOwned(slot);
    }

    /** {@link #run(int)} on a pool worker, which reads its slot from {@code hold} afterwards ({@link SlotLoan}). */
    @Override
    public void run(WorkerPool.Hold hold) {
        this.hold = hold;
        runOwned(hold.slot);
    }

    private void runOwned(int slot) {
        Thread me = Thread.currentThread();
        worker = me;
        try {
            serve(slot);
        } catch (Throwable t) {
            if (WORKER.compareAndSet(this, me, null)) {
                abandon();
            }
            throw t;
        }
    }

    /**
     * {@inheritDoc} A connection is a newcomer until it has served a request: its first request
     * (and the TLS handshake or PROXY header before it) waits in the newcomer lane. Read by the
     * dispatching thread, which owns the connection then.
     */
    @Override
    public boolean newcomer() {
        return requests == 0;
    }

    private void serve(int slot) {
        if (flushOnly) {
            flushOnly = false;
            outbound.flushDetached();
            return;
        }
        Outbound q = outbound;
        if (q != null && q.hasItems()) {
            try {
                flushOutbound();
            } catch (IOException e) {
                handBackClose(CloseReason.ABORT);
                return;
            }
        }
        protocol.serve(this, slot);
    }

    /**
     * Ends the connection its failed worker still owned: closed first (the client sees it at
     * once, whatever follows), counted under {@code error}, its context given back, then handed to
     * its poller to finish its side (key, timer) as any closing hand-back is. Unless a hand-off is
     * still pending (the worker failed after pushing one, before it was woken): applying that one,
     * the poller finds the connection ended and finishes it all the same.
     */
    private void abandon() {
        closeReason = CloseReason.ERROR;
        end(CloseReason.ERROR);
        releaseContext();
        if (op == HandOff.NONE) {
            op = HandOff.CLOSE;
            poller.handoff(this);
        }
    }

    /** Back to DETACHED with its deadline and interest, after {@link Outbound#flushDetached}. Owner only. */
    void handBackDetachedAgain() {
        transport.idle();
        handBack(HandOff.DETACH);
    }

    // ---- poller side ----

    SocketChannel channel() {
        return channel;
    }

    Poller poller() {
        return poller;
    }

    /**
     * Ends the connection: closes the channel and counts it under {@code reason} with its child,
     * exactly once whatever the path (the CAS decides which caller counts).
     *
     * @return {@code false} if it had already ended
     */
    boolean end(CloseReason reason) {
        if (!ENDED.compareAndSet(this, 0, 1)) {
            return false;
        }
        state = ConnState.CLOSED;
        try {
            channel.close();
        } catch (IOException ignored) {
            // Closing a socket that failed already: nothing more to release.
        }
        poller.child().connectionEnded(reason);
        Outbound q = outbound;
        if (q != null) {
            q.ended(reason);
        }
        return true;
    }

    boolean hasEnded() {
        return ended != 0;
    }

    @Override
    public String toString() {
        return "conn#" + id + '[' + state + ']';
    }
}
