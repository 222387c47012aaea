package org.loommpm.proxy;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.Arrays;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.loommpm.spi.CloseReason;
import org.loommpm.spi.OutboundQueue;
import org.loommpm.spi.ProtocolConnection;
import org.loommpm.spi.SlotBoard;

/**
 * One upgraded connection relayed byte for byte between a client and a backend once the backend
 * answered {@code 101 Switching Protocols} (httpd's {@code ProxyPass ... upgrade=}): the client
 * connection's session, kept while it waits in its poller.
 *
 * <p><b>Who owns what.</b>
 * <ul>
 *   <li>The client socket is the engine's. Between dispatches it is DETACHED in its poller with
 *       read interest and the idle deadline: no worker slot, no thread, no buffer. A worker
 *       dispatched when the client sends bytes (or at the deadline) owns it for one
 *       {@link #serve}: it reads what is there, writes it to the backend, and hands the
 *       connection back detached. Bytes toward the client go through its {@link OutboundQueue},
 *       which the poller writes while the connection is detached (the owning worker otherwise).</li>
 *   <li>The backend socket's input belongs to the tunnel's <i>reader</i>, a virtual thread
 *       ({@code loom-proxy-tunnel-ID}) parked in a blocking read of the channel: the JDK's poller
 *       unparks it, so it holds no carrier and no worker slot (its stack and one 16 KiB buffer, reused; a short read
 *       is queued as a copy of its size, see {@link #forQueue}).
 *       It offers what it reads to the client's queue and waits for room when the queue is full,
 *       so a slow client holds the backend back through TCP.</li>
 *   <li>The backend socket's output belongs to whichever worker serves the client side (the engine
 *       dispatches a connection to one worker at a time, ordering each serve after the previous
 *       hand-back); its writes are bounded by {@code ProxyTimeout} through the balancer's
 *       {@link TimeoutSweeper}.</li>
 *   <li>Closing the backend socket is any thread's (idempotent). The lease goes back to the
 *       member's pool, closed, once the client connection has ended, whoever ended it
 *       ({@link OutboundQueue#closed()}): closing the channel then ends the reader's read.</li>
 * </ul>
 *
 * <p><b>States</b> ({@link #state}, CAS): {@code OPEN -> CLIENT_DONE} when the client half-closes
 * (its end of stream is passed on: the backend's output is shut) {@code -> CLOSED}; any state
 * {@code -> CLOSED} when the backend ends its side (the client's queue is written, then the client
 * connection closes lingering), either side fails, the tunnel is idle for {@code ProxyTimeout}
 * in both directions (httpd's tunnel timeout), or the server stops (after
 * {@code GracefulShutdownTimeout}, as any connection still open then).
 */
final class Tunnel {
    private static final System.Logger LOG = System.getLogger("org.loommpm.proxy");
    private static final int BUFFER = 16 * 1024;
    /** Reads with data per dispatch before the socket waits in its poller again (fairness). */
    private static final int MAX_READS_PER_DISPATCH = 16;

    enum State { OPEN, CLIENT_DONE, CLOSED }

    private final AtomicReference<State> state = new AtomicReference<>(State.OPEN);
    private final AtomicBoolean ended = new AtomicBoolean();
    private final BackendConnection backend;
    private final MemberPool pool;
    private final Member member;
    private final long idleNanos;
    private final String protocol;
    /** The backend's bytes that arrived behind its 101, written to the client first. */
    private final ByteBuffer early;
    private final LongAdder toBackend = new LongAdder();
    private final LongAdder toClient = new LongAdder();
    /** When a byte last went either way ({@link System#nanoTime()}); written by the worker and the reader. */
    private volatile long lastActivityNanos;

    Tunnel(BackendConnection backend, MemberPool pool, Member member, long idleNanos, String protocol) {
        this.backend = backend;
        this.pool = pool;
        this.member = member;
        this.idleNanos = idleNanos;
        this.protocol = protocol;
        this.early = backend.takeBuffered();
        backend.ioTimeout(idleNanos);
    }

    /** {@return the state now (tests)} */
    State state() {
        return state.get();
    }

    /** The first serve, on the worker that wrote the 101: the reader starts, then the client's early bytes go. */
    void open(ProtocolConnection c, int slot) {
        c.services().counters().proxyTunnelOpened();
        lastActivityNanos = System.nanoTime();
        OutboundQueue q = c.outbound();
        q.closed().whenComplete((reason, failure) -> ended(c, reason));
        LOG.log(Level.DEBUG, "LM2311 {0} tunnel {1} from {2} to {3} open", protocol, c.id(), c.remoteAddress(), member);
        Thread.ofVirtual().name("loom-proxy-tunnel-" + c.id()).start(() -> readBackend(q));
        serve(c, slot);
    }

    // ---- the reader: backend -> client ----

    private void readBackend(OutboundQueue q) {
        SocketChannel ch = backend.channel();
        try {
            if (early.hasRemaining()) {
                toClient.add(early.remaining());
                offer(q, early);
            }
            ByteBuffer b = ByteBuffer.allocate(BUFFER);
            for (;;) {
                b.clear();
                int n = ch.read(b); // parks this virtual thread; closing the channel ends it
                if (n < 0) {
                    // The backend ended its side: the client gets what is queued, then its end.
                    state.set(State.CLOSED);
                    q.close(CloseReason.NORMAL, true);
                    return;
                }
                lastActivityNanos = System.nanoTime();
                toClient.add(n);
                b.flip();
                ByteBuffer queued = forQueue(b);
                offer(q, queued);
                if (queued == b) {
                    b = ByteBuffer.allocate(BUFFER); // the queue owns the full one now
                }
            }
        } catch (IOException e) {
            if (state.getAndSet(State.CLOSED) != State.CLOSED && !q.isClosed()) {
                LOG.log(Level.DEBUG, "LM2316 tunnel to {0} failed on the backend''s side: {1}", member, e.toString());
                q.close(CloseReason.ERROR, true);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            q.close(CloseReason.ERROR, false);
        }
    }

    /**
     * The bytes just read into {@code read} (flipped), as they go into the client's queue: the
     * buffer itself when they fill at least half of it, else a copy of their size. The queue's
     * budget ({@code OutboundQueueLimit}) counts the bytes, not the arrays holding them: a
     * backend trickling small segments to a slow client would otherwise park a 16 KiB array per
     * byte or two, a thousandfold over the budget.
     */
    static ByteBuffer forQueue(ByteBuffer read) {
        int n = read.remaining();
        if (n >= read.capacity() / 2) {
            return read;
        }
        return ByteBuffer.wrap(Arrays.copyOfRange(read.array(), read.arrayOffset() + read.position(),
                read.arrayOffset() + read.position() + n));
    }

    /** Queues {@code b} for the client, parking while the queue is over its budget. */
    private static void offer(OutboundQueue q, ByteBuffer b) throws IOException, InterruptedException {
        while (!q.offer(b)) {
            try {
                q.whenWritable().get();
            } catch (ExecutionException e) {
                throw new IOException("client connection ended", e.getCause());
            }
        }
    }

    // ---- the client side's owner: client -> backend ----

    /** A dispatch: the client sent bytes, the idle deadline passed, or a close was asked. Ends with one hand-back. */
    void serve(ProtocolConnection c, int slot) {
        c.services().scoreboard().set(slot, SlotBoard.READING);
        if (c.outbound().isClosed()) {
            c.handBackDetached(0, false); // a close asked through the queue takes effect once detached
            return;
        }
        if (c.closeRequested()) {
            long idle = System.nanoTime() - lastActivityNanos;
            if (idle >= idleNanos) {
                LOG.log(Level.DEBUG, "LM2313 tunnel {0} to {1} idle for {2} ms (ProxyTimeout): closing", c.id(), member,
                        idle / 1_000_000);
                state.set(State.CLOSED);
                backend.close();
                c.handBackLinger(CloseReason.TIMEOUT);
                return;
            }
            c.withdrawCloseRequest();
        }
        ByteBuffer in = c.context().in();
        try {
            boolean more = true;
            for (int reads = 0; ; ) {
                if (in.hasRemaining()) {
                    int n = in.remaining();
                    backend.out().write(in.array(), in.arrayOffset() + in.position(), n);
                    backend.flush();
                    in.position(in.limit());
                    toBackend.add(n);
                    lastActivityNanos = System.nanoTime();
                }
                if (!more || state.get() != State.OPEN) {
                    break;
                }
                in.clear();
                int n = c.readNow(in);
                in.flip();
                if (n < 0) {
                    clientDone(c);
                    return;
                }
                if (n > 0) {
                    reads++;
                }
                // What was just read is written at the top; then the loop ends when the socket
                // has nothing more, or after MAX_READS_PER_DISPATCH reads (a client that never
                // pauses must not keep this worker for good).
                more = (n > 0 || c.hasBufferedInput()) && reads < MAX_READS_PER_DISPATCH;
            }
        } catch (IOException e) {
            if (c.outbound().isClosed()) {
                // The backend had ended its side (the reader asked for the close): what it sent
                // before is still written to the client, then the connection closes.
                c.handBackDetached(0, false);
                return;
            }
            // The client's read or the backend's write failed: both ends close.
            LOG.log(Level.DEBUG, "LM2316 tunnel {0} to {1} failed: {2}", c.id(), member, e.toString());
            state.set(State.CLOSED);
            backend.close();
            c.handBackClose(CloseReason.ABORT);
            return;
        }
        if (state.get() == State.CLOSED) {
            c.handBackDetached(0, false);
            return;
        }
        c.handBackDetached(lastActivityNanos + idleNanos, state.get() == State.OPEN);
    }

    /** The client half-closed: the backend's output is shut, and the backend's answer still flows back. */
    private void clientDone(ProtocolConnection c) {
        if (state.compareAndSet(State.OPEN, State.CLIENT_DONE)) {
            try {
                backend.channel().shutdownOutput();
            } catch (IOException e) {
                state.set(State.CLOSED);
                backend.close();
                c.handBackClose(CloseReason.ABORT);
                return;
            }
            c.handBackDetached(lastActivityNanos + idleNanos, false);
            return;
        }
        c.handBackDetached(0, false);
    }

    /** The client connection ended (any path, any thread): the backend closes and its lease goes back. */
    private void ended(ProtocolConnection c, CloseReason reason) {
        if (!ended.compareAndSet(false, true)) {
            return;
        }
        state.set(State.CLOSED);
        backend.close();
        pool.release(backend, false);
        c.services().counters().proxyTunnelClosed();
        LOG.log(Level.DEBUG, "LM2312 {0} tunnel {1} to {2} ended ({3}): {4} bytes to the backend, {5} to the client",
                protocol, c.id(), member, reason, toBackend.sum(), toClient.sum());
    }
}
