package org.loommpm.http2;

import java.io.EOFException;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.loommpm.api.TlsInfo;
import org.loommpm.config.Http2Settings;
import org.loommpm.http.TlsDetails;
import org.loommpm.http2.frame.ErrorCode;
import org.loommpm.http2.frame.FrameReader;
import org.loommpm.http2.frame.FrameType;
import org.loommpm.http2.frame.Http2Error;
import org.loommpm.http2.guard.ControlFrameGuard;
import org.loommpm.http2.guard.EmptyFrameGuard;
import org.loommpm.http2.guard.HeaderBlockGuard;
import org.loommpm.http2.guard.OversizedHeaderGuard;
import org.loommpm.http2.guard.RapidResetGuard;
import org.loommpm.http2.guard.StreamLimit;
import org.loommpm.http2.hpack.FieldBlock;
import org.loommpm.http2.hpack.HpackCodec;
import org.loommpm.spi.CloseReason;
import org.loommpm.spi.PeerIOException;
import org.loommpm.spi.ProtocolConnection;
import org.loommpm.spi.SlotBoard;
import org.loommpm.spi.WorkerTask;

/**
 * One HTTP/2 connection's state and its frame loop; stored in {@link ProtocolConnection#session(Object)}
 * for the connection's whole life.
 *
 * <p><b>Threads.</b> {@link #serve} runs on whichever worker owns the connection (one at a time,
 * handed over through the poller; {@link #serveOnPoller} on the poller itself while it owns the
 * connection), and only that owner touches the socket, the stream table,
 * the HPACK contexts, the windows and the {@link OutputBatch}; {@link InboundFrames},
 * {@link OutboundFrames} and {@link StreamStarts} are its parts and run on that worker too.
 * Stream tasks reach the session only through {@link #enqueue} (the {@link OutboundFrames} MPSC
 * queue plus {@link ProtocolConnection#signal}).
 *
 * <p><b>The loop</b>, per dispatch: consume the signal; read what the socket has and process
 * every whole frame ({@link InboundFrames}: new streams are dispatched as {@link StreamTask}s,
 * except that the last one of the read batch may run inline on this worker, see
 * {@link InlineRun}); move the queued output into the streams' pending lists and frame it within the windows
 * ({@link OutboundFrames}); write the batch in one gathering write; repeat while anything moved, with
 * a yield of the carrier as grace before giving up (a stream task often queues its response
 * meanwhile; after an inline handler with nothing else running or queued the loop does not read
 * again: the client waits for the response just written, and its next request comes through the
 * poller). Then hand the connection back: KEEPALIVE (context released) when nothing at all
 * is in flight, else MULTIPLEXED with a deadline only for a missing SETTINGS ack or a partial
 * frame. After {@link #MAX_ROUNDS} busy rounds the loop continues as a new task so that one
 * connection cannot hold a carrier.
 *
 * <p><b>Close ordering.</b> Once a GOAWAY was sent (server stop, idle timeout) or received, no
 * new stream starts; the connection closes (lingering) only when every started stream's
 * response has been written: no stream left, nothing queued, nothing batched. A connection
 * error instead ends it at once, cancelling the streams' tasks.
 */
final class Session {
    private static final System.Logger LOG = System.getLogger("org.loommpm.http2");
    /** The connection-level receive window kept open (credit is returned as DATA arrives). */
    static final int CONNECTION_WINDOW = 1 << 20;
    private static final int MAX_ROUNDS = 64;
    private static final int GRACE_YIELDS = 2;
    private static final int CLOSED_MEMORY = 512;

    final ProtocolConnection c;
    final Http2Connections protocol;
    final Http2Settings limits;
    final HpackCodec hpack;
    /** The outbound queue and the framing of its items within the windows (see {@link OutboundFrames}). */
    final OutboundFrames outbound = new OutboundFrames(this);
    final OutputBatch batch = new OutputBatch();
    final HashMap<Integer, Stream> streams = new HashMap<>();
    /** How a recently closed stream ended: late frames for it are answered by that (RFC 9113 §5.1). */
    enum Closed {
        /** We reset it: frames the client sent before it saw our RST_STREAM are ignored. */
        BY_OUR_RESET,
        /** The client reset it: any frame but PRIORITY is STREAM_CLOSED. */
        BY_CLIENT_RESET,
        /** Both sides ended it: WINDOW_UPDATE and RST_STREAM may still cross; DATA and HEADERS may not. */
        ENDED
    }

    /** Recently closed streams and how they ended. */
    final Map<Integer, Closed> closed = new LinkedHashMap<>(64, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Integer, Closed> eldest) {
            return size() > CLOSED_MEMORY;
        }
    };
    /**
     * Stream tasks started and not yet returned: the loop increments when it starts one, the task
     * decrements when its handler returned (suspended or not). At zero with streams open, every
     * open stream is suspended or waits on the client, and the connection can wait DETACHED.
     */
    final java.util.concurrent.atomic.AtomicInteger tasksRunning = new java.util.concurrent.atomic.AtomicInteger();
    final StreamLimit limit;
    /** The handler the loop runs on its own worker, if any (see {@link InlineRun}). */
    final InlineRun inline;
    /** loop: starts the streams a read batch opened, the last one perhaps inline. */
    private final StreamStarts starts = new StreamStarts(this);
    final RapidResetGuard resets;
    final ControlFrameGuard control;
    final EmptyFrameGuard empty;
    final HeaderBlockGuard block;
    final OversizedHeaderGuard oversized;
    private final InboundFrames inbound;
    private final InetSocketAddress remote;
    private final InetSocketAddress local;
    /** The protocol ALPN chose (read on the loop at creation: {@code applicationProtocol()} is owner only). */
    private final String alpn;
    /** {@link #tls()}, once asked. */
    private volatile Optional<TlsInfo> tls;
    private final boolean secure;
    /** Server-wide HTTP/2 counts (metrics, tests). */
    final Http2Counters counters;

    int lastClientStreamId;
    int peerInitialWindow = FrameType.DEFAULT_WINDOW;
    int peerMaxFrameSize = FrameType.DEFAULT_MAX_FRAME_SIZE;
    long connSendWindow = FrameType.DEFAULT_WINDOW;
    long connRecvWindow = CONNECTION_WINDOW;
    boolean settingsAcked;
    private final long settingsDeadline;
    boolean goAwaySent;
    /** The last-stream-id our first GOAWAY named: a later one may not name a higher (RFC 9113 §6.8). */
    private int goAwayLastStreamId;
    boolean goAwayReceived;
    /** Whether the tunnels were told the server stops ({@link #closeTunnels}). */
    private boolean tunnelsClosed;
    /**
     * The tunnel streams not yet closed, made with the first ({@link #tunnelStarted}), else
     * {@code null}: a connection its poller closes without the loop (a forced stop after
     * {@code GracefulShutdownTimeout}) still ends each of them. A concurrent set: the loop adds
     * and removes ({@link #closeStream}); the connection's end (any thread, once) ends what is
     * left, which may race the loop's own end of a stream (a tunnel's end is idempotent).
     */
    private Set<TunnelStream> tunnels;
    /** When the current partial frame began to wait for its rest (0 = none). */
    private long partialSince;
    /**
     * When the client's current "head" began: the rest of the connection preface, or a header
     * block awaiting CONTINUATION (0 = none). Bounded by {@code RequestReadTimeout header=}'s
     * first timeout, as HTTP/1.1 bounds a request head; frame loop only.
     */
    private long headSince;
    /** {@code H2StallTimeout}. */
    private final long stallTimeoutNanos;
    /** The earliest time a stream's wait on the client may expire (0 = none waits); may be early. */
    private long nextWaitDeadline;

    Session(ProtocolConnection c, Http2Connections protocol) {
        this.c = c;
        this.protocol = protocol;
        this.limits = protocol.config().http2();
        this.hpack = new HpackCodec(limits.maxHeaderListSize(), limits.headerTableSize());
        long now = System.nanoTime();
        this.limit = new StreamLimit(limits.maxConcurrentStreams());
        this.resets = new RapidResetGuard(limits.maxResetsPerSecond(), limits.maxConcurrentStreams(), now);
        this.control = new ControlFrameGuard(limits.maxControlFramesPerSecond(), now);
        this.empty = new EmptyFrameGuard(limits.maxEmptyFramesPerSecond(), now);
        this.block = new HeaderBlockGuard(2 * limits.maxHeaderListSize(), limits.maxContinuationFrames());
        this.oversized = new OversizedHeaderGuard(limits.maxOversizedHeadersPerMinute(), now);
        this.inbound = new InboundFrames(this);
        this.inline = new InlineRun(c, protocol.inlineWatch());
        this.remote = c.remoteAddress();
        this.local = c.localAddress();
        this.secure = c.isSecure();
        this.alpn = c.applicationProtocol();
        this.counters = Http2Counters.of(c.services().counters());
        this.settingsDeadline = now + limits.settingsTimeout().toNanos();
        this.stallTimeoutNanos = limits.stallTimeout().toNanos();
        // The server's connection preface: SETTINGS first, then the larger connection window.
        batch.settings(FrameType.SETTINGS_MAX_CONCURRENT_STREAMS, limits.maxConcurrentStreams(),
                FrameType.SETTINGS_INITIAL_WINDOW_SIZE, limits.windowSize(),
                FrameType.SETTINGS_MAX_FRAME_SIZE, limits.maxFrameSize(),
                FrameType.SETTINGS_MAX_HEADER_LIST_SIZE, limits.maxHeaderListSize(),
                FrameType.SETTINGS_HEADER_TABLE_SIZE, limits.headerTableSize(),
                FrameType.SETTINGS_ENABLE_PUSH, 0,
                FrameType.SETTINGS_ENABLE_CONNECT_PROTOCOL, limits.enableConnectProtocol() ? 1 : 0);
        batch.windowUpdate(0, CONNECTION_WINDOW - FrameType.DEFAULT_WINDOW);
        counters.connectionOpened();
    }

    ProtocolConnection connection() {
        return c;
    }

    InetSocketAddress remoteAddress() {
        return remote;
    }

    InetSocketAddress localAddress() {
        return local;
    }

    /** Whether the connection is TLS (h2 by ALPN) rather than cleartext h2c. */
    boolean isSecure() {
        return secure;
    }

    /**
     * The connection's TLS details for {@code Request.tls()}, made on the first ask (by any
     * stream's task: two racing make equal ones) and kept for the connection's other streams.
     */
    Optional<TlsInfo> tls() {
        Optional<TlsInfo> t = tls;
        if (t == null) {
            t = TlsDetails.of(c.tlsSession(), alpn);
            tls = t;
        }
        return t;
    }

    /** Task side: hands an item to the frame loop ({@link #signalLoop} after the offer). Any thread. */
    void enqueue(Out o) {
        outbound.offer(o);
        signalLoop();
    }

    /**
     * Task side: makes the frame loop look again. Any thread. No signal while a handler runs
     * inline: the loop looks when it returns (or, if it escapes, its new owner does at once);
     * what the caller did before the look is therefore found by either.
     */
    void signalLoop() {
        if (!inline.running()) {
            c.signal();
        }
    }

    /** The receive window a new stream starts with: the announced one once acknowledged. */
    long initialRecvWindow() {
        return settingsAcked ? limits.windowSize() : Math.max(limits.windowSize(), FrameType.DEFAULT_WINDOW);
    }

    /**
     * Starts an upgraded connection: the {@code HTTP2-Settings} apply as the client's first
     * SETTINGS (no acknowledgement, RFC 7540 §3.2.1), and the HTTP/1.1 request becomes stream 1,
     * half-closed from the client.
     */
    void upgrade(byte[] settings, FieldBlock request) throws Http2Error {
        inbound.apply(settings, 0, settings.length);
        lastClientStreamId = 1;
        limit.tryOpen();
        startStream(new Stream(this, 1, request, peerInitialWindow, initialRecvWindow(),
                protocol.config().limitRequestBody()), true);
    }

    // ---- the frame loop ----

    /** One dispatch of the connection: see the class comment. Ends with exactly one hand-back. */
    void serve(int slot) {
        SlotBoard board = c.services().scoreboard();
        mark(board, slot, SlotBoard.READING);
        try {
            if (c.closeRequested() && closeRequested()) {
                return;
            }
            if (!goAwaySent && c.services().isDraining()) {
                closeTunnels();
                startGoAway(ErrorCode.NO_ERROR);
            }
            int yields = 0;
            for (int round = 1; ; round++) {
                c.takeSignal();
                boolean progress = false;
                int n = fill();
                if (n < 0) {
                    peerClosed();
                    return;
                }
                if (n > 0 || c.context().in().hasRemaining()) {
                    progress |= inbound.process(c.context().in());
                }
                boolean ranInline = false;
                if (starts.holding()) {
                    StreamStarts.Start started = starts.startHeld(slot);
                    if (started == StreamStarts.Start.ESCAPED) {
                        return; // the connection has a new owner: this thread was only the stream's task
                    }
                    ranInline = started == StreamStarts.Start.INLINE;
                    progress = true;
                }
                progress |= outbound.drain();
                outbound.schedule();
                if (nextWaitDeadline != 0) {
                    expireWaits(System.nanoTime()); // no clock read per round while nothing waits
                }
                if (!batch.isEmpty()) {
                    mark(board, slot, SlotBoard.WRITING);
                    batch.flush(c);
                    mark(board, slot, SlotBoard.READING);
                    progress = true;
                }
                if (finished()) {
                    LOG.log(Level.DEBUG, "LM0704 {0} closed after GOAWAY, every stream answered", this);
                    c.handBackLinger(CloseReason.NORMAL);
                    return;
                }
                if (ranInline && tasksRunning.get() == 0 && outbound.queueEmpty() && outbound.readyEmpty()) {
                    // The response is written (the batch was flushed above) and nothing else runs:
                    // the client's next frames wake the poller; another read now would almost
                    // always find nothing.
                    break;
                }
                if (!progress) {
                    if (yields < GRACE_YIELDS && !streams.isEmpty()) {
                        yields++;
                        Thread.yield();
                        continue;
                    }
                    break;
                }
                if (round >= MAX_ROUNDS) {
                    // Busy: go on as a new task instead of holding the carrier (never queued
                    // behind our own stream tasks, which may hold every slot waiting for us).
                    c.redispatchOwner();
                    return;
                }
            }
            handBack(board, slot);
        } catch (Http2Error | IOException | RuntimeException e) {
            failed(e);
        }
    }

    /** The loop's last resort, either turn: the connection ends as the failure says (its hand-back). */
    private void failed(Exception e) {
        if (e instanceof Http2Error h) {
            connectionError(h);
        } else if (e instanceof SocketTimeoutException) {
            LOG.log(Level.DEBUG, "LM0705 {0} ended: {1}", this, e.toString());
            abort(CloseReason.TIMEOUT);
        } else if (e instanceof PeerIOException || e instanceof EOFException || e instanceof StreamResetException) {
            LOG.log(Level.DEBUG, "LM0705 {0} ended: {1}", this, e.toString());
            abort(CloseReason.ABORT);
        } else {
            LOG.log(Level.ERROR, "LM0706 " + this + " failed", e);
            abort(CloseReason.ERROR);
        }
    }

    /**
     * The frame loop's turn on the poller that claimed the connection (cleartext, KEEPALIVE:
     * nothing in flight; see {@link Http2Connections#serveInline}), for a client that sends one
     * request at a time: one read without waiting; if it holds whole frames with at most one
     * header block (no CONTINUATION), they are processed here; a lone complete request to a
     * non-blocking route runs here ({@link StreamStarts#runHeldOnPoller}); what was queued is
     * framed and written (bytes the socket does not take queue on the connection); and the
     * connection is handed back as {@link #serve} would. No second read: the client waits for
     * its response, and its next request comes through the poller.
     *
     * <p><b>Ownership.</b> From its claim until it applies the hand-back the poller owns the
     * connection as a worker would, and with it this session (stream table, HPACK contexts,
     * windows, batch: all owner-only, so whoever owns the connection at the moment uses them).
     * A decline (returning {@code false}, before any hand-back) passes the connection on
     * through the poller's dispatch, which publishes what was done here; the worker's
     * {@link #serve} then goes on from that state: bytes read and not processed (a partial
     * frame, a second header block, a CONTINUATION), or the processed frames with their
     * stream held for {@link StreamStarts#startHeld} (a blocking route, a body still coming)
     * and the batch not yet flushed. Nothing here parks, and no stream task is started here (a
     * second stream would start the first one's task: such reads are declined unprocessed).
     *
     * @param board the poller's board (an exchange run here is counted there)
     * @return whether the connection was handed back ({@code false}: declined)
     */
    boolean serveOnPoller(SlotBoard board) {
        if (!settingsAcked || !inbound.prefaceDone() || inbound.inHeaderBlock() || !streams.isEmpty()
                || tasksRunning.get() != 0 || !outbound.queueEmpty() || !inline.idle() || goAwaySent
                || goAwayReceived || c.services().isDraining()) {
            return false;
        }
        try {
            int n = fill();
            if (n < 0) {
                peerClosed();
                return true;
            }
            ByteBuffer in = c.context().in();
            if (in.hasRemaining()) {
                if (!FrameReader.wholeFramesOneHeaderBlock(in)) {
                    return false;
                }
                inbound.process(in);
            }
            if (starts.holding() && !starts.runHeldOnPoller(board)) {
                return false;
            }
            outbound.drain();
            outbound.schedule();
            batch.flush(c);
            if (!outbound.readyEmpty()) {
                // More output than one batch: the connection waits DETACHED (handBack) while its
                // poller writes what the socket did not take, then the signal brings a worker's
                // loop to frame the rest. One batch per turn bounds the poller's work and copies.
                c.signal();
            }
            if (finished()) {
                LOG.log(Level.DEBUG, "LM0704 {0} closed after GOAWAY, every stream answered", this);
                c.handBackLinger(CloseReason.NORMAL);
                return true;
            }
            handBack(c.services().scoreboard(), WorkerTask.NO_SLOT);
            return true;
        } catch (Http2Error | IOException | RuntimeException e) {
            failed(e);
            return true;
        }
    }

    /** Shows the frame loop's activity in its slot (none when it runs without one). */
    private static void mark(SlotBoard board, int slot, byte state) {
        if (slot != WorkerTask.NO_SLOT) {
            board.set(slot, state);
        }
    }

    /**
     * The poller dispatched us with a close request: the SETTINGS ack or a partial frame is
     * overdue, the connection was idle too long, or the server is stopping.
     *
     * @return whether the connection was handed back
     */
    private boolean closeRequested() throws Http2Error, IOException {
        long now = System.nanoTime();
        if (!settingsAcked && now - settingsDeadline >= 0) {
            throw Http2Error.connection(ErrorCode.SETTINGS_TIMEOUT, "SETTINGS not acknowledged in time");
        }
        long headDeadline = headDeadline();
        if (headDeadline != 0 && now - headDeadline >= 0) {
            headTimedOut();
            return true;
        }
        if (partialSince != 0 && now - (partialSince + protocol.timeoutNanos()) >= 0) {
            LOG.log(Level.DEBUG, "LM0705 {0} ended: a frame stayed incomplete for Timeout", this);
            abort(CloseReason.TIMEOUT);
            return true;
        }
        boolean stopping = c.services().isStopping() || c.services().isDraining();
        if (stopping) {
            closeTunnels();
        }
        if (stopping || streams.isEmpty()) {
            startGoAway(ErrorCode.NO_ERROR);
            if (streams.isEmpty() && outbound.queueEmpty()) {
                try {
                    batch.flush(c);
                } catch (IOException e) {
                    abort(CloseReason.ABORT);
                    return true;
                }
                c.handBackLinger(stopping ? CloseReason.NORMAL : CloseReason.TIMEOUT);
                return true;
            }
        }
        if (!stopping) {
            c.withdrawCloseRequest(); // a stream's wait expired (see expireWaits): the connection goes on
        }
        return false;
    }

    /**
     * The server stops: every open tunnel (a WebSocket, RFC 8441) closes properly, its close
     * frame (1001) and END_STREAM framed ahead of the GOAWAY that follows. Once.
     */
    private void closeTunnels() throws IOException {
        if (tunnelsClosed) {
            return;
        }
        tunnelsClosed = true;
        boolean any = false;
        for (Stream s : new ArrayList<>(streams.values())) {
            if (s.tunnel != null) {
                s.tunnel.goingAway();
                any = true;
            }
        }
        if (any) {
            outbound.drain();
            outbound.schedule();
        }
    }

    /** Loop: a stream carries a tunnel; its end is the connection's too, however the connection ends. */
    void tunnelStarted(TunnelStream t) {
        if (tunnels == null) {
            Set<TunnelStream> set = ConcurrentHashMap.newKeySet();
            tunnels = set;
            c.outbound().closed().whenComplete((reason, failure) -> {
                for (TunnelStream left : set) {
                    left.ended(CloseReason.ABORT);
                }
            });
        }
        tunnels.add(t);
    }

    /** Sends GOAWAY (once) naming the last stream we will serve; no new stream starts after it. */
    void startGoAway(ErrorCode code) {
        if (!goAwaySent) {
            goAwaySent = true;
            goAwayLastStreamId = lastClientStreamId;
            batch.goAway(lastClientStreamId, code.code());
            counters.goawaySent();
            LOG.log(Level.DEBUG, "LM0704 {0} GOAWAY {1} last stream {2}, {3} streams to finish", this, code,
                    lastClientStreamId, streams.size());
        }
    }

    /**
     * Resets the streams that have waited on the client for {@code H2StallTimeout} without
     * progress: for window to send their pending output (CANCEL: the client stalled them), or,
     * their response sent, for the rest of a request nobody reads (NO_ERROR, RFC 9113 §8.1).
     * Scans only when the earliest such deadline has passed.
     */
    private void expireWaits(long now) {
        if (now - nextWaitDeadline < 0) {
            return;
        }
        nextWaitDeadline = 0;
        for (Stream st : new ArrayList<>(streams.values())) {
            if (st.tunnel != null) {
                long d = st.tunnel.expire(now); // a WebSocket's idle timeout and pings
                if (d != 0) {
                    waitUntil(d);
                }
            }
            if (st.waitingSince == 0) {
                continue;
            }
            long deadline = st.waitingSince + stallTimeoutNanos;
            if (now - deadline < 0) {
                waitUntil(deadline);
            } else if (st.responseEnded) {
                LOG.log(Level.DEBUG, "LM0707 {0} stream {1} reset: the request was not finished after the response",
                        this, st.id());
                resetStream(st.id(), ErrorCode.NO_ERROR);
            } else {
                LOG.log(Level.DEBUG, "LM0711 {0} stream {1} reset: no flow-control window for H2StallTimeout, {2} "
                        + "response items waiting", this, st.id(), st.pending.size());
                counters.streamStalled();
                resetStream(st.id(), ErrorCode.CANCEL);
            }
        }
    }

    /** Makes sure the loop looks again by {@code deadline} (the hand-back's watch includes it). */
    void waitUntil(long deadline) {
        if (nextWaitDeadline == 0 || deadline - nextWaitDeadline < 0) {
            nextWaitDeadline = deadline;
        }
    }

    /** A stream starts waiting on the client (if it was not already). */
    void waiting(Stream st, long now) {
        if (st.waitingSince == 0) {
            st.waitingSince = now;
            waitUntil(now + stallTimeoutNanos);
        }
    }

    private boolean finished() {
        return (goAwaySent || goAwayReceived) && streams.isEmpty() && outbound.queueEmpty() && batch.isEmpty();
    }

    /** Appends what the socket has to the read buffer: bytes read, 0, or -1 at EOF. */
    private int fill() throws Http2Error {
        ByteBuffer in = c.context().in();
        if (in.limit() == in.capacity() && in.position() == 0) {
            return 0; // full of unprocessed bytes: the frame parser grows it when a frame needs more
        }
        in.compact();
        int n;
        try {
            n = c.readNow(in);
        } catch (IOException e) {
            n = -1;
        }
        in.flip();
        return n;
    }

    /** The client closed its side (or reset it): streams still running have nobody to answer. */
    private void peerClosed() {
        boolean clean = streams.isEmpty();
        LOG.log(Level.DEBUG, "LM0705 {0} ended: the client closed the connection with {1} streams open",
                this, streams.size());
        cancelAll();
        batch.discard();
        c.handBackClose(clean ? CloseReason.NORMAL : CloseReason.ABORT);
    }

    private void handBack(SlotBoard board, int slot) {
        long headDeadline = headDeadline();
        if (headDeadline != 0 && System.nanoTime() - headDeadline >= 0) {
            headTimedOut();
            return;
        }
        ByteBuffer in = c.context().in();
        boolean idle = streams.isEmpty() && outbound.queueEmpty() && !in.hasRemaining() && settingsAcked
                && inbound.prefaceDone() && !inbound.inHeaderBlock();
        mark(board, slot, SlotBoard.KEEPALIVE);
        if (idle) {
            partialSince = 0;
            c.handBackKeepAlive();
            return;
        }
        if (tasksRunning.get() == 0 && outbound.queueEmpty() && !in.hasRemaining() && settingsAcked
                && inbound.prefaceDone() && !inbound.inHeaderBlock()) {
            // Every open stream is suspended (or waits on the client): no task will need this
            // loop, so the connection waits like an idle one, its context released; a suspended
            // stream's answer signals it back (a plain dispatch: no task holds a slot waiting for
            // it), the client's frames bring it back, a stall deadline looks.
            partialSince = 0;
            c.handBackDetached(nextWaitDeadline, true);
            return;
        }
        long now = System.nanoTime();
        long deadline = settingsAcked ? 0 : settingsDeadline;
        if (in.hasRemaining() || inbound.inHeaderBlock()) {
            if (partialSince == 0) {
                partialSince = now;
            }
            long d = partialSince + protocol.timeoutNanos();
            deadline = deadline == 0 || d - deadline < 0 ? d : deadline;
        } else {
            partialSince = 0;
        }
        if (nextWaitDeadline != 0 && (deadline == 0 || nextWaitDeadline - deadline < 0)) {
            deadline = nextWaitDeadline;
        }
        if (headDeadline != 0 && (deadline == 0 || headDeadline - deadline < 0)) {
            deadline = headDeadline;
        }
        c.handBackWatch(deadline);
    }

    /**
     * The deadline of the client's current head (the preface's rest, or a header block's
     * CONTINUATIONs), starting its clock if it just began; 0 when none is pending or the header
     * stage is off. No MinRate extension here: a header block is bounded in size by
     * {@code H2MaxHeaderListSize} and in frames by the CONTINUATION guard, so the first timeout
     * is the whole allowance.
     */
    private long headDeadline() {
        var header = protocol.config().requestReadTimeout().header();
        if (!header.enabled() || (inbound.prefaceDone() && !inbound.inHeaderBlock())) {
            headSince = 0;
            return 0;
        }
        if (headSince == 0) {
            headSince = System.nanoTime();
        }
        return header.deadline(headSince, 0);
    }

    /** The preface or a header block missed RequestReadTimeout header=: closed, as HTTP/1.1 would (no stream to answer). */
    private void headTimedOut() {
        c.services().intervalLog().log(LOG, Level.INFO,
                "LM2004 {0}: {1} not received within RequestReadTimeout header=, closed", this,
                inbound.prefaceDone() ? "a header block's CONTINUATION frames" : "the connection preface");
        abort(CloseReason.TIMEOUT);
    }

    /** A whole frame was processed: whatever was partial has arrived. */
    void frameCompleted() {
        partialSince = 0;
    }

    /** Ends the connection on a connection error: GOAWAY with the code, streams cancelled. */
    private void connectionError(Http2Error e) {
        Level level = e.code() == ErrorCode.ENHANCE_YOUR_CALM ? Level.WARNING : Level.DEBUG;
        LOG.log(level, "{0} {1} connection error {2}: {3}",
                e.code() == ErrorCode.ENHANCE_YOUR_CALM ? "LM0703" : "LM0702", this, e.code(), e.getMessage());
        if (e.code() == ErrorCode.ENHANCE_YOUR_CALM) {
            counters.guardTripped();
        }
        cancelAll();
        // A second GOAWAY (after a graceful one) carries the error code, and the same last stream:
        // streams the client opened after the first were never started.
        batch.goAway(goAwaySent ? goAwayLastStreamId : lastClientStreamId, e.code().code());
        goAwaySent = true;
        counters.goawaySent();
        try {
            batch.flush(c);
        } catch (IOException io) {
            c.handBackClose(CloseReason.ABORT);
            return;
        }
        c.handBackLinger(CloseReason.ERROR);
    }

    private void abort(CloseReason reason) {
        cancelAll();
        batch.discard();
        c.handBackClose(reason);
    }

    /** Cancels every stream's task (their reads and writes fail; nothing more is sent). */
    private void cancelAll() {
        starts.forget(); // closed below with the other streams; its task never starts
        for (Stream s : new ArrayList<>(streams.values())) {
            closeStream(s, Closed.BY_OUR_RESET);
        }
        outbound.dropQueued();
    }

    // ---- streams ----

    /**
     * Opens a stream for a validated request; it starts once the read batch is processed
     * ({@link StreamStarts}), the stream before it in the batch gets its task now.
     */
    void startStream(Stream s, boolean endStream) {
        s.on(StreamState.Event.RECV_HEADERS);
        if (endStream) {
            s.requestEnded();
        }
        s.counted = true;
        streams.put(s.id(), s);
        counters.streamStarted();
        starts.opened(s);
    }

    /** Sends RST_STREAM with {@code code} and forgets the stream (its task is cancelled). */
    void resetStream(int id, ErrorCode code) {
        batch.rstStream(id, code.code());
        Stream s = streams.get(id);
        if (s != null) {
            closeStream(s, Closed.BY_OUR_RESET);
        } else if (closed.get(id) != Closed.BY_CLIENT_RESET) {
            closed.put(id, Closed.BY_OUR_RESET);
        }
    }

    /**
     * Removes a stream: the loop lets go of its place in the limit (the task keeps it until its
     * handler returns), output not yet framed is dropped (releasing its task), and a task still
     * producing is cancelled.
     *
     * @param how how it ended (decides what late frames from the client get)
     */
    void closeStream(Stream s, Closed how) {
        if (streams.remove(s.id()) == null) {
            return;
        }
        closed.put(s.id(), how);
        control.streamClosed();
        if (s.state != StreamState.CLOSED) {
            s.on(StreamState.Event.RESET);
        }
        if (s.counted) {
            s.counted = false;
            s.letGo();
        }
        if (s.tunnel != null) {
            tunnels.remove(s.tunnel);
            s.tunnel.ended(how == Closed.ENDED ? CloseReason.NORMAL : CloseReason.ABORT);
        }
        for (Out o : s.pending) {
            if (o.kind == Out.Kind.DATA) {
                s.written(o.len);
            }
        }
        s.pending.clear();
        if (s.responseEnded) {
            // The task may still wait for its lent body to be written: the batch acknowledges it.
            s.body.cancel();
        } else {
            s.cancel();
        }
    }

    /** The client's new SETTINGS_INITIAL_WINDOW_SIZE changes every stream's send window by the difference. */
    void peerInitialWindow(int value) throws Http2Error {
        long delta = (long) value - peerInitialWindow;
        peerInitialWindow = value;
        for (Stream s : streams.values()) {
            s.sendWindow += delta;
            if (s.sendWindow > FrameType.MAX_WINDOW) {
                throw Http2Error.connection(ErrorCode.FLOW_CONTROL_ERROR, "window of stream " + s.id()
                        + " above 2^31-1 after SETTINGS_INITIAL_WINDOW_SIZE");
            }
            if (delta > 0) {
                outbound.wake(s);
            }
        }
    }

    @Override
    public String toString() {
        return "h2 connection " + c.id();
    }
}
