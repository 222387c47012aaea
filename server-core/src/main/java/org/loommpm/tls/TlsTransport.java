package org.loommpm.tls;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLEngineResult.Status;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import org.loommpm.engine.Transport;

/**
 * TLS over one non-blocking connection: an {@link SSLEngine} between the protocol and the socket.
 *
 * <h2>State model</h2>
 * <pre>
 *   state        what reads do
 *   NEW          nothing received yet; the engine does not exist (accepted connections are cheap)
 *   HANDSHAKING  drive the handshake: unwrap, wrap, run delegated tasks
 *   OPEN         unwrap application data
 *   CLOSED       the peer sent close_notify or closed the socket: reads return -1
 *   FAILED       the handshake failed (logged at INFO once) or a renegotiation was refused:
 *                reads return -1, writes fail
 *
 *   NEW -> HANDSHAKING          first read: engine created on the worker
 *   NEW -> CLOSED               EOF before a single byte (a port probe: not logged)
 *   HANDSHAKING -> OPEN         handshake finished; ALPN's choice is known
 *   HANDSHAKING -> FAILED       SSLException, EOF or a reset inside the handshake, a plaintext HTTP
 *                               request ({@link PlaintextRequestException}: writes then go out
 *                               in cleartext, so the protocol can answer it, like httpd's 400)
 *   OPEN -> HANDSHAKING         a post-handshake message wants an answer (TLS 1.3 KeyUpdate);
 *                               back to OPEN when it is done
 *   OPEN -> FAILED              a TLS 1.2 client starts a renegotiation ({@link RenegotiationGuard}):
 *                               refused before the engine reads it, logged at DEBUG
 *   OPEN | HANDSHAKING -> CLOSED close_notify or EOF from the peer
 * </pre>
 * {@link #closeOutbound()} is orthogonal: it sends close_notify (or the engine's pending alert)
 * once, best effort, and is skipped after the cleartext 400.
 *
 * <p><b>Threads.</b> Owned by the connection's owner (see {@link Transport}): the handshake, the
 * delegated tasks and every wrap and unwrap run on the worker that owns the connection, never on
 * a poller; the poller only calls {@link #hasBufferedInput()} and {@link #secure()} on idle
 * connections. Nothing here blocks: when the socket cannot take or give bytes the methods say so
 * and the connection parks the worker.
 *
 * <p><b>Buffers</b> (heap, sized from the session: about 16.7 KB each), all kept in read mode
 * (position = first byte not consumed, limit = end of data): {@code netIn} received records not
 * yet unwrapped, {@code netOut} records wrapped but not yet sent, {@code appIn} decrypted bytes
 * the protocol has not read, {@code fileBuf} a file chunk on its way to {@code wrap}. Each is
 * allocated on first use and dropped by {@link #idle()} when empty, so an idle keep-alive
 * connection holds only the engine's own session state.
 */
public final class TlsTransport implements Transport {
    private static final System.Logger LOG = System.getLogger("org.loommpm.tls");
    private static final ByteBuffer[] NOTHING = {ByteBuffer.allocate(0)};
    /** The TLS record header: type (22 = handshake), version (2), length (2). */
    private static final int RECORD_HEADER = 5;
    /** Most plaintext one TLS record carries (2^14). */
    private static final int MAX_FRAGMENT = 16384;

    enum State { NEW, HANDSHAKING, OPEN, CLOSED, FAILED }

    private final TlsContext context;
    private final SocketChannel channel;
    private final long handshakeDeadline;
    private final ByteBuffer[] one = new ByteBuffer[1];
    private SSLEngine engine;
    private State state = State.NEW;
    /** Whether the initial handshake finished (a later HANDSHAKING is post-handshake). */
    private boolean established;
    /** Whether the negotiated version has renegotiation (TLS 1.2 and below), which is refused. */
    private boolean renegotiable;
    /** Whether any byte came from the peer (tells a port probe from a cut handshake). */
    private boolean received;
    private boolean outboundClosed;
    /** A plaintext request came instead of a ClientHello: writes pass through unencrypted. */
    private boolean cleartext;
    private String alpn;
    /** The session once the initial handshake finished; volatile: HTTP/2 stream tasks read it. */
    private volatile javax.net.ssl.SSLSession session;
    private ByteBuffer netIn;
    private ByteBuffer netOut;
    private ByteBuffer appIn;
    private ByteBuffer fileBuf;

    /**
     * @param received bytes of the TLS stream already read from the socket (those after a PROXY
     *                 protocol header), or null: they start {@code netIn}
     */
    TlsTransport(TlsContext context, SocketChannel channel, long handshakeDeadline, ByteBuffer received) {
        this.context = context;
        this.channel = channel;
        this.handshakeDeadline = handshakeDeadline;
        if (received != null && received.hasRemaining()) {
            netIn = ByteBuffer.allocate(received.remaining()).put(received).flip();
        }
    }

    // ---- reads ----

    @Override
    public int read(ByteBuffer dst) throws IOException {
        for (;;) {
            if (appIn != null && appIn.hasRemaining()) {
                return copy(appIn, dst);
            }
            switch (state) {
                case NEW -> {
                    engine = context.newEngine();
                    // Without this the engine reports NOT_HANDSHAKING until its first unwrap.
                    engine.beginHandshake();
                    state = State.HANDSHAKING;
                    if (netIn != null && netIn.hasRemaining()) {
                        firstBytes(); // they came with a PROXY protocol header
                    }
                }
                case HANDSHAKING -> {
                    if (!handshake()) {
                        return state == State.CLOSED ? -1 : 0;
                    }
                }
                case OPEN -> {
                    int r = unwrapData();
                    if (r <= 0) {
                        return r;
                    }
                }
                case CLOSED, FAILED -> {
                    return -1;
                }
            }
        }
    }

    /**
     * Unwraps application data into {@code appIn}.
     *
     * @return 1 on progress (data, or a state change), 0 when more input is needed, -1 at the end
     */
    private int unwrapData() throws IOException {
        for (;;) {
            if (netIn != null && netIn.hasRemaining()) {
                if (renegotiable && RenegotiationGuard.handshakeRecord(netIn)) {
                    throw refuseRenegotiation();
                }
                SSLEngineResult r = unwrap();
                switch (r.getStatus()) {
                    case OK -> {
                        if (handshakeWanted(r.getHandshakeStatus())) {
                            state = State.HANDSHAKING;
                            return 1;
                        }
                        if (r.bytesProduced() > 0) {
                            return 1;
                        }
                        if (r.bytesConsumed() > 0) {
                            continue;
                        }
                    }
                    case BUFFER_OVERFLOW -> {
                        appIn = grow(appIn, appIn.remaining() + engine.getSession().getApplicationBufferSize());
                        continue;
                    }
                    case BUFFER_UNDERFLOW -> {
                        // A partial record: read more below.
                    }
                    case CLOSED -> {
                        state = State.CLOSED;
                        return 1;
                    }
                }
            }
            int n = readNet();
            if (n < 0) {
                endOfInput();
                return 1;
            }
            if (n == 0) {
                return 0;
            }
        }
    }

    /**
     * A client's ClientHello on an established TLS 1.2 connection: close_notify is sent (the
     * engine has not read the hello, so it has no alert of its own to send) and the protocol's
     * read fails, which closes the connection.
     */
    private SSLException refuseRenegotiation() {
        state = State.FAILED;
        LOG.log(Level.DEBUG, "LM0606 {0}: client-initiated TLS renegotiation refused, closing", remote());
        closeOutbound();
        return new SSLException("client-initiated renegotiation refused");
    }

    private static boolean handshakeWanted(HandshakeStatus hs) {
        return hs == HandshakeStatus.NEED_TASK || hs == HandshakeStatus.NEED_WRAP
                || hs == HandshakeStatus.NEED_UNWRAP || hs == HandshakeStatus.NEED_UNWRAP_AGAIN;
    }

    /** The peer closed its side without close_notify (a truncation the protocol's framing judges). */
    private void endOfInput() {
        state = State.CLOSED;
        try {
            engine.closeInbound();
        } catch (SSLException e) {
            LOG.log(Level.DEBUG, "LM0605 {0} closed without close_notify", remote());
        }
    }

    // ---- the handshake ----

    /**
     * Drives the handshake as far as the socket allows.
     *
     * @return {@code true} when it finished (state OPEN), {@code false} when it waits for input,
     *         for {@code netOut} to drain, or ended (state CLOSED)
     * @throws SSLException when it failed (state FAILED, logged)
     */
    private boolean handshake() throws IOException {
        try {
            for (;;) {
                HandshakeStatus hs = engine.getHandshakeStatus();
                switch (hs) {
                    case NEED_TASK -> {
                        // Delegated tasks (key exchange, certificate signing) run on this worker.
                        Runnable task;
                        while ((task = engine.getDelegatedTask()) != null) {
                            task.run();
                        }
                    }
                    case NEED_WRAP -> {
                        if (!flush()) {
                            return false;
                        }
                        SSLEngineResult r = wrap(NOTHING);
                        if (r.getStatus() == Status.CLOSED) {
                            flush();
                            throw new SSLHandshakeException("the engine closed during the handshake");
                        }
                        flush();
                    }
                    case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> {
                        if (hs == HandshakeStatus.NEED_UNWRAP && (netIn == null || !netIn.hasRemaining())) {
                            if (!fillForHandshake()) {
                                return false;
                            }
                            continue;
                        }
                        SSLEngineResult r = unwrap();
                        switch (r.getStatus()) {
                            case BUFFER_UNDERFLOW -> {
                                if (!fillForHandshake()) {
                                    return false;
                                }
                            }
                            case BUFFER_OVERFLOW -> appIn = grow(appIn,
                                    appIn.remaining() + engine.getSession().getApplicationBufferSize());
                            case CLOSED -> {
                                state = State.CLOSED;
                                if (!established) {
                                    throw new SSLHandshakeException("the client ended the handshake (close_notify)");
                                }
                                return false;
                            }
                            case OK -> {
                                // Progress; the loop reads the next status.
                            }
                        }
                    }
                    case FINISHED, NOT_HANDSHAKING -> {
                        finished();
                        return true;
                    }
                }
            }
        } catch (SSLException e) {
            if (state != State.FAILED) {
                state = State.FAILED;
                context.counters().handshakeFailed();
                LOG.log(Level.INFO, "LM0601 TLS handshake with {0} failed: {1}", remote(), e.getMessage());
            }
            throw e;
        }
    }

    /**
     * Reads more handshake bytes.
     *
     * @return whether some arrived
     */
    private boolean fillForHandshake() throws IOException {
        int n;
        try {
            n = readNet();
        } catch (IOException e) {
            if (!received) {
                throw e; // a port probe's reset: not a handshake that failed
            }
            // A reset mid-handshake is a failed handshake (logged, counted), not a client's orderly end.
            throw (SSLHandshakeException) new SSLHandshakeException(
                    "the client reset the connection during the handshake").initCause(e);
        }
        if (n < 0) {
            if (!received) {
                state = State.CLOSED; // connected and left: a probe, not a failure
                return false;
            }
            throw new SSLHandshakeException("the client closed the connection during the handshake");
        }
        if (n == 0) {
            return false;
        }
        if (!received) {
            firstBytes();
        }
        return true;
    }

    /** The connection's first bytes are in {@code netIn}: an HTTP request there is answered in cleartext. */
    private void firstBytes() throws SSLException {
        received = true;
        byte first = netIn.get(netIn.position());
        if (first >= 'A' && first <= 'Z') {
            plaintextRequest();
        }
    }

    /**
     * An HTTP request where a ClientHello belongs: fail, and let the protocol answer in cleartext
     * (TLS knows nothing of HTTP; {@link #write(ByteBuffer[])} passes its answer through).
     */
    private void plaintextRequest() throws SSLException {
        state = State.FAILED;
        outboundClosed = true; // no TLS alert after a cleartext answer
        cleartext = true;
        context.counters().plaintextRejected();
        LOG.log(Level.INFO, "LM0602 plain HTTP request from {0} on a TLS port: answered 400, closing", remote());
        throw new PlaintextRequestException();
    }

    private void finished() {
        if (!established) {
            established = true;
            renegotiable = RenegotiationGuard.renegotiable(engine.getSession().getProtocol());
            context.counters().handshakeCompleted();
            String p = engine.getApplicationProtocol();
            alpn = p == null || p.isEmpty() ? null : p;
            session = engine.getSession();
            LOG.log(Level.DEBUG, "LM0604 TLS with {0}: {1} {2}, ALPN {3}", remote(),
                    engine.getSession().getProtocol(), engine.getSession().getCipherSuite(), alpn);
        }
        state = State.OPEN;
    }

    // ---- writes ----

    @Override
    public int write(ByteBuffer src) throws IOException {
        one[0] = src;
        try {
            return (int) write(one);
        } finally {
            one[0] = null;
        }
    }

    @Override
    public long write(ByteBuffer[] srcs) throws IOException {
        if (cleartext) {
            return channel.write(srcs);
        }
        requireOpen();
        if (!flush()) {
            return 0;
        }
        long consumed = 0;
        while (hasRemaining(srcs)) {
            consumed += wrapApplication(srcs);
            if (!flush()) {
                break;
            }
        }
        return consumed;
    }

    /** Reads a file chunk and wraps it: files cannot be sent zero-copy through TLS. */
    @Override
    public long transferFrom(FileChannel file, long position, long count) throws IOException {
        requireOpen();
        if (!flush()) {
            return 0;
        }
        if (fileBuf == null) {
            fileBuf = ByteBuffer.allocate(MAX_FRAGMENT);
        }
        fileBuf.clear().limit((int) Math.min(MAX_FRAGMENT, count));
        int n = file.read(fileBuf, position);
        if (n <= 0) {
            return 0;
        }
        fileBuf.flip();
        one[0] = fileBuf;
        try {
            while (fileBuf.hasRemaining()) {
                wrapApplication(one);
            }
        } finally {
            one[0] = null;
        }
        flush();
        return n;
    }

    /** One wrap of application bytes; the bytes consumed. */
    private long wrapApplication(ByteBuffer[] srcs) throws IOException {
        SSLEngineResult r = wrap(srcs);
        if (r.getStatus() == Status.CLOSED) {
            throw new SSLException("the TLS connection is closed");
        }
        if (r.bytesConsumed() == 0 && r.bytesProduced() == 0) {
            if (r.getHandshakeStatus() == HandshakeStatus.NEED_TASK) {
                Runnable task;
                while ((task = engine.getDelegatedTask()) != null) {
                    task.run();
                }
                return 0;
            }
            // Only a handshake waiting for the peer stalls a wrap (a renegotiation, which is refused
            // before it starts); we do not wait for it here.
            throw new SSLException("cannot send during a TLS handshake");
        }
        return r.bytesConsumed();
    }

    private void requireOpen() throws IOException {
        if (state != State.OPEN && !(state == State.HANDSHAKING && established)) {
            throw new SSLException(state == State.NEW || state == State.HANDSHAKING
                    ? "write before the TLS handshake finished" : "the TLS connection is closed");
        }
    }

    @Override
    public boolean flush() throws IOException {
        if (netOut == null || !netOut.hasRemaining()) {
            return true;
        }
        channel.write(netOut);
        return !netOut.hasRemaining();
    }

    // ---- the rest of the Transport contract ----

    @Override
    public boolean hasBufferedInput() {
        if (appIn != null && appIn.hasRemaining()) {
            return true;
        }
        if (netIn == null || netIn.remaining() < RECORD_HEADER || state == State.CLOSED || state == State.FAILED) {
            return false;
        }
        int p = netIn.position();
        int length = ((netIn.get(p + 3) & 0xFF) << 8) | (netIn.get(p + 4) & 0xFF);
        return netIn.remaining() >= RECORD_HEADER + length;
    }

    @Override
    public boolean handshaking() {
        return !established && (state == State.NEW || state == State.HANDSHAKING);
    }

    @Override
    public long handshakeDeadline() {
        return handshakeDeadline;
    }

    @Override
    public String applicationProtocol() {
        return alpn;
    }

    @Override
    public javax.net.ssl.SSLSession tlsSession() {
        return session;
    }

    @Override
    public boolean secure() {
        return true;
    }

    /** Sends close_notify (or the alert a failed handshake left) with one non-blocking write. */
    @Override
    public void closeOutbound() {
        if (engine == null || outboundClosed) {
            return;
        }
        outboundClosed = true;
        try {
            engine.closeOutbound();
            for (int i = 0; i < 4 && !engine.isOutboundDone(); i++) {
                if (wrap(NOTHING).bytesProduced() == 0) {
                    break;
                }
            }
            flush();
        } catch (IOException e) {
            LOG.log(Level.DEBUG, "LM0605 {0}: close_notify not sent: {1}", remote(), e.toString());
        }
    }

    @Override
    public void idle() {
        if (netIn != null && !netIn.hasRemaining()) {
            netIn = null;
        }
        if (appIn != null && !appIn.hasRemaining()) {
            appIn = null;
        }
        if (netOut != null && !netOut.hasRemaining()) {
            netOut = null;
        }
        fileBuf = null;
    }

    // ---- buffers (all kept in read mode) ----

    /** Reads from the socket after what {@code netIn} holds; grows it when a record does not fit. */
    private int readNet() throws IOException {
        if (netIn == null) {
            netIn = ByteBuffer.allocate(engine.getSession().getPacketBufferSize()).limit(0);
        } else if (netIn.position() == 0 && netIn.limit() == netIn.capacity()) {
            netIn = grow(netIn, netIn.capacity() + engine.getSession().getPacketBufferSize());
        }
        netIn.compact();
        try {
            return channel.read(netIn);
        } finally {
            netIn.flip();
        }
    }

    private SSLEngineResult unwrap() throws SSLException {
        if (appIn == null) {
            appIn = ByteBuffer.allocate(engine.getSession().getApplicationBufferSize()).limit(0);
        }
        appIn.compact();
        try {
            return engine.unwrap(netIn, appIn);
        } finally {
            appIn.flip();
        }
    }

    private SSLEngineResult wrap(ByteBuffer[] srcs) throws SSLException {
        for (;;) {
            if (netOut == null) {
                netOut = ByteBuffer.allocate(engine.getSession().getPacketBufferSize()).limit(0);
            }
            SSLEngineResult r;
            netOut.compact();
            try {
                r = engine.wrap(srcs, netOut);
            } finally {
                netOut.flip();
            }
            if (r.getStatus() != Status.BUFFER_OVERFLOW) {
                return r;
            }
            netOut = grow(netOut, netOut.remaining() + engine.getSession().getPacketBufferSize());
        }
    }

    /** A buffer of {@code capacity} holding {@code b}'s unread bytes, in read mode. */
    private static ByteBuffer grow(ByteBuffer b, int capacity) {
        ByteBuffer bigger = ByteBuffer.allocate(Math.max(capacity, b.remaining()));
        bigger.put(b).flip();
        return bigger;
    }

    private static int copy(ByteBuffer from, ByteBuffer to) {
        int n = Math.min(from.remaining(), to.remaining());
        if (n == 0) {
            return 0;
        }
        int limit = from.limit();
        from.limit(from.position() + n);
        to.put(from);
        from.limit(limit);
        return n;
    }

    private static boolean hasRemaining(ByteBuffer[] srcs) {
        for (ByteBuffer b : srcs) {
            if (b.hasRemaining()) {
                return true;
            }
        }
        return false;
    }

    private SocketAddress remote() {
        try {
            return channel.getRemoteAddress();
        } catch (IOException e) {
            return null;
        }
    }

    @Override
    public String toString() {
        return "tls[" + state + (alpn != null ? ", " + alpn : "") + ']';
    }
}
