package org.loommpm.http2;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.loommpm.config.ServerConfig;
import org.loommpm.http.Tunnel;
import org.loommpm.http2.frame.ErrorCode;
import org.loommpm.spi.ChildServices;
import org.loommpm.spi.CloseReason;
import org.loommpm.spi.OutboundQueue;
import org.loommpm.spi.SlotBoard;

/**
 * A stream opened by an extended CONNECT (RFC 8441) that carries a tunnelled protocol (a
 * WebSocket, or the proxy's relay to a backend): made by the frame loop when the request names a
 * {@code :protocol}, so every DATA payload of the stream comes here instead of the request body;
 * it becomes live when the handler accepts the CONNECT ({@link Http2Response#tunnel}) and the
 * stream's task {@link #open}s it. A refused CONNECT's response ends the stream and what was
 * buffered is dropped with it. The endpoint's {@link Tunnel.Timeouts} (idle, keep-alive) are the
 * loop's to enforce ({@link #expire}) from the moment it learns the tunnel opened.
 *
 * <p><b>Threads.</b>
 * <ul>
 *   <li>The frame loop {@link #offer}s DATA payloads and the {@link #end} (SPSC queue
 *       {@link #inbound}: the loop pushes, the delivering worker pops), tells the endpoint of a
 *       stop ({@link #goingAway}), and reports the stream's end ({@link #ended}; also the
 *       connection's end when its poller closes it without the loop).</li>
 *   <li>Delivery: one worker at a time runs the endpoint on what arrived. {@link #work} counts
 *       the loop's pushes not yet seen by a deliverer; the push that moves it from 0 dispatches a
 *       worker, which drains and subtracts what it saw, and returns when it reaches 0 again.
 *       Until the endpoint is attached the count holds 1 for the opener, so nothing is dispatched
 *       and the opener delivers what came early. An idle tunnel therefore has no thread and no
 *       slot; its connection waits {@code DETACHED} when nothing else runs. The client gets
 *       flow-control window back (WINDOW_UPDATE) only as the endpoint consumes its bytes.</li>
 *   <li>Sending ({@link OutboundQueue}): any thread. Each item is a DATA item of the stream
 *       through the session's queue, bounded by {@code OutboundQueueLimit} like a suspended
 *       exchange's pieces ({@link Stream#offerData}); {@link #close} queues END_STREAM after the
 *       items (or a reset). The frame loop frames them within the client's windows.</li>
 * </ul>
 */
final class TunnelStream implements Tunnel, OutboundQueue {
    private static final System.Logger LOG = System.getLogger("org.loommpm.http2");
    private static final byte[] END = new byte[0];
    private static final byte[] EMPTY = new byte[0];

    private final Stream stream;
    private final Session session;
    private final long limit;
    /**
     * The announced receive window ({@code H2WindowSize}): credit is returned once half of it was
     * consumed. Not the stream's initial window, which is 65,535 for a stream opened before the
     * client had our SETTINGS, while the client counts the announced one for it once they arrive
     * (RFC 9113 §6.9.2) and may never reach a larger half.
     */
    private final long window;
    private final ConcurrentLinkedQueue<byte[]> inbound = new ConcurrentLinkedQueue<>();
    private final AtomicInteger work = new AtomicInteger(1);
    private final CompletableFuture<CloseReason> closed = new CompletableFuture<>();
    private final AtomicInteger closeRequested = new AtomicInteger();
    /** Set by the opener before its first delivery; read by the loop for {@link #goingAway}. */
    private volatile Endpoint endpoint;
    /** Delivering worker only: bytes consumed and not yet returned as window. */
    private long unacknowledged;
    /** Loop only: when the client last sent DATA, and when the endpoint was last asked to ping. */
    private long lastActivity;
    private long lastPing;
    /**
     * Loop only: whether the endpoint's timeouts apply, from when the loop took the opener's
     * {@link Out.Kind#TUNNEL_OPENED} ({@link #armed}); until then {@link #expire} has nothing to do.
     */
    private boolean armed;
    /**
     * The endpoint's {@link Tunnel.Timeouts}: the idle timeout, the keep-alive interval (0: none)
     * and whether bytes sent count as activity. Written by the opener before it queues
     * {@link Out.Kind#TUNNEL_OPENED}; read by the loop only once it took that item (the session's
     * queue orders the writes before the reads), and {@link #eitherWay} by senders, which the
     * endpoint starts in {@code opened} (one that read it too early only leaves {@link #lastSent}
     * as it was).
     */
    private long idleNanos;
    private long pingNanos;
    private boolean eitherWay;
    /** When bytes were last queued toward the client; any sender writes it (with {@link #eitherWay}), the loop reads. */
    private volatile long lastSent;

    /** Made by the loop with {@code stream}. */
    TunnelStream(Stream stream) {
        this.stream = stream;
        this.session = stream.session();
        this.window = session.limits.windowSize();
        this.limit = session.protocol.config().streaming().outboundQueueLimit();
    }

    // ---- the frame loop ----

    /** A DATA payload of the stream (a copy the loop no longer touches). */
    void offer(byte[] data) {
        lastActivity = System.nanoTime();
        inbound.add(data);
        signalWork();
    }

    /** The client's END_STREAM. */
    void end() {
        inbound.add(END);
        signalWork();
    }

    private void signalWork() {
        if (work.getAndIncrement() == 0) {
            session.c.services().dispatch(this::deliverTask);
        }
    }

    /** The server stops: the endpoint closes properly (1001), if it is open yet. */
    void goingAway() {
        Endpoint e = endpoint;
        if (e != null) {
            e.goingAway();
        }
    }

    /**
     * The opener's {@link Out.Kind#TUNNEL_OPENED} reached the loop: the endpoint's timeouts run
     * from {@code now}.
     *
     * @return the first deadline, for the loop's stream deadlines ({@code Session.waitUntil})
     */
    long armed(long now) {
        armed = true;
        lastActivity = now;
        lastPing = now;
        return deadline();
    }

    /**
     * The next time {@link #expire} has something to do: the idle timeout, or the next ping if
     * that comes first (the loop's stream deadlines, {@code Session.waitUntil}, include it).
     */
    private long deadline() {
        long idle = idleDeadline();
        if (pingNanos == 0) {
            return idle;
        }
        long ping = (lastPing - lastActivity > 0 ? lastPing : lastActivity) + pingNanos;
        return ping - idle < 0 ? ping : idle;
    }

    /** When the tunnel is idle: {@link #idleNanos} after the client's last DATA (or our last send, {@link #eitherWay}). */
    private long idleDeadline() {
        long active = lastActivity;
        if (eitherWay) {
            long sent = lastSent;
            active = sent - active > 0 ? sent : active;
        }
        return active + idleNanos;
    }

    /**
     * The loop looks at the stream's deadline: an idle tunnel is ended by its endpoint (a
     * WebSocket closes with 1001, LM1705), a quiet one is kept alive (a WebSocket ping).
     *
     * @return the next deadline, or 0 when there is none (not open yet, closing, or ended)
     */
    long expire(long now) {
        Endpoint e = endpoint;
        if (!armed || closed.isDone() || isClosed()) {
            return 0;
        }
        if (now - idleDeadline() >= 0) {
            e.idleTimeout();
            return 0;
        }
        if (pingNanos != 0 && now - deadline() >= 0) {
            lastPing = now;
            e.keepAlive();
        }
        return deadline();
    }

    /**
     * The stream ended (both sides done, reset, or the connection ended): the tunnel is over. The
     * loop, or whoever ends a connection its loop no longer runs for ({@code Session.tunnelStarted});
     * idempotent.
     */
    void ended(CloseReason reason) {
        inbound.clear();
        closed.complete(reason);
    }

    // ---- delivery ----

    /**
     * The handler accepted the CONNECT: the endpoint opens on the request's worker and takes what
     * came early; the loop starts its timeouts once it takes {@link Out.Kind#TUNNEL_OPENED}.
     */
    void open(Endpoint e, int slot) {
        Tunnel.Timeouts t = e.timeouts();
        idleNanos = t.idle().toNanos();
        pingNanos = t.keepAlive().toNanos();
        eitherWay = t.eitherWay();
        lastSent = System.nanoTime();
        endpoint = e;
        try {
            stream.enqueue(Out.tunnelOpened(stream));
        } catch (IOException gone) {
            // Reset meanwhile: its end reaches the endpoint through closed().
        }
        e.opened(slot);
        deliver(1);
    }

    private void deliverTask(int slot) {
        session.c.services().scoreboard().set(slot, SlotBoard.READING);
        try {
            deliver(work.get());
        } catch (RuntimeException e) {
            // The endpoint handles its protocol's and its handler's failures: this is a bug. The
            // stream is reset; no delivery follows (the count stays above 0).
            LOG.log(System.Logger.Level.ERROR, "LM1710 " + this + ": delivery failed", e);
            close(CloseReason.ERROR, false);
        }
    }

    private void deliver(int missed) {
        Endpoint e = endpoint;
        for (;;) {
            byte[] b;
            while ((b = inbound.poll()) != null) {
                if (closed.isDone()) {
                    continue; // the stream is gone: nothing more reaches the socket
                }
                if (b == END) {
                    e.inputEnded();
                } else {
                    e.received(ByteBuffer.wrap(b));
                    consumed(b.length);
                }
            }
            missed = work.addAndGet(-missed);
            if (missed == 0) {
                return;
            }
        }
    }

    /** The endpoint consumed {@code n} bytes: window goes back to the client in halves. */
    private void consumed(int n) {
        unacknowledged += n;
        if (unacknowledged >= window / 2) {
            try {
                stream.enqueue(Out.windowUpdate(stream, (int) unacknowledged));
            } catch (IOException gone) {
                return; // reset meanwhile: no window to give
            }
            unacknowledged = 0;
        }
    }

    // ---- Tunnel ----

    @Override
    public OutboundQueue outbound() {
        return this;
    }

    @Override
    public ChildServices services() {
        return session.c.services();
    }

    @Override
    public long id() {
        return session.c.id();
    }

    @Override
    public boolean isSecure() {
        return session.isSecure();
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return session.remoteAddress();
    }

    @Override
    public ServerConfig config() {
        return session.protocol.config();
    }

    // ---- OutboundQueue: any thread ----

    @Override
    public boolean offer(ByteBuffer bytes) throws IOException {
        checkOpen();
        if (!stream.offerData(item(bytes, false), limit)) {
            return false;
        }
        sent();
        return true;
    }

    @Override
    public void put(ByteBuffer bytes) throws IOException {
        checkOpen();
        try {
            stream.enqueue(item(bytes, false));
        } catch (StreamResetException e) {
            throw new ClosedChannelException();
        }
        sent();
    }

    private void sent() {
        if (eitherWay) {
            lastSent = System.nanoTime();
        }
    }

    private Out item(ByteBuffer b, boolean end) {
        int n = b.remaining();
        if (b.hasArray()) {
            return Out.data(stream, b.array(), b.arrayOffset() + b.position(), n, end);
        }
        byte[] copy = new byte[n];
        b.get(copy);
        return Out.data(stream, copy, 0, n, end);
    }

    private void checkOpen() throws ClosedChannelException {
        if (isClosed()) {
            throw new ClosedChannelException();
        }
    }

    @Override
    public long queuedBytes() {
        return stream.queuedBytes();
    }

    @Override
    public long limit() {
        return limit;
    }

    @Override
    public CompletableFuture<Void> whenWritable() {
        return stream.whenWritable(limit);
    }

    @Override
    public CompletableFuture<CloseReason> closed() {
        return closed;
    }

    @Override
    public boolean isClosed() {
        return closeRequested.get() != 0 || closed.isDone();
    }

    /** Ends our side: END_STREAM after what is queued ({@code flushFirst}), or RST_STREAM(CANCEL) at once. */
    @Override
    public void close(CloseReason reason, boolean flushFirst) {
        if (!closeRequested.compareAndSet(0, 1)) {
            return;
        }
        try {
            stream.enqueue(flushFirst ? Out.data(stream, EMPTY, 0, 0, true) : Out.rst(stream, ErrorCode.CANCEL.code()));
        } catch (IOException gone) {
            // Reset meanwhile: the stream has ended already.
        }
    }

    @Override
    public String toString() {
        return "WebSocket on " + session + " stream " + stream.id();
    }
}
