package org.loommpm.proxy;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.Arrays;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import org.loommpm.spi.CloseReason;
import org.loommpm.spi.OutboundQueue;
import org.loommpm.spi.ProtocolCounters;

/**
 * The backend's half of a proxied tunnel, whatever carries the client's half: an HTTP/1.1
 * connection the backend's {@code 101} switched ({@link Tunnel}), or an HTTP/2 stream opened by
 * an extended CONNECT ({@link StreamTunnel}). The client's half is an {@link OutboundQueue} toward
 * the client and calls to {@link #write} with the client's bytes.
 *
 * <p><b>Who owns what.</b>
 * <ul>
 *   <li>The backend socket's input belongs to the <i>reader</i>, a virtual thread
 *       ({@code loom-proxy-tunnel-ID}, {@link #start}) parked in a blocking read of the channel:
 *       the JDK's poller unparks it, so it holds no carrier and no worker slot (its stack and one
 *       16 KiB buffer, reused; a short read is queued as a copy of its size, see
 *       {@link #forQueue}). It offers what it reads to the client's queue and waits for room when
 *       the queue is full, so a slow client holds the backend back through TCP.</li>
 *   <li>The backend socket's output belongs to whichever worker serves the client's half (one at
 *       a time: the engine dispatches a connection, and an HTTP/2 stream delivers its bytes, to
 *       one worker at a time, ordering each after the previous); its writes ({@link #write}) are
 *       bounded by {@code ProxyTimeout} through the balancer's {@link TimeoutSweeper}.</li>
 *   <li>Closing the backend socket is any thread's (idempotent). The lease goes back to the
 *       member's pool, closed, once the client's half has ended, whoever ended it
 *       ({@link OutboundQueue#closed()}, {@link #attach}): closing the channel then ends the
 *       reader's read.</li>
 * </ul>
 *
 * <p><b>States</b> ({@link #state}, CAS): {@code OPEN -> CLIENT_DONE} when the client ended its
 * side (passed on: the backend's output is shut, {@link #clientDone}) {@code -> CLOSED}; any
 * state {@code -> CLOSED} when the backend ends its side (the client's queue is closed after what
 * it holds), either side fails, or the client's half ends the tunnel ({@link #close}).
 */
final class TunnelRelay {
    private static final System.Logger LOG = System.getLogger("org.loommpm.proxy");
    private static final int BUFFER = 16 * 1024;

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
    /** When a byte last went either way ({@link System#nanoTime()}); written by the client's worker and the reader. */
    private volatile long lastActivityNanos;

    /**
     * Takes over the backend connection its {@code 101} switched.
     *
     * @param idleNanos {@code ProxyTimeout}: the tunnel's idle timeout and the bound of each write
     * @param protocol the protocol switched to, for the log
     */
    TunnelRelay(BackendConnection backend, MemberPool pool, Member member, long idleNanos, String protocol) {
        this.backend = backend;
        this.pool = pool;
        this.member = member;
        this.idleNanos = idleNanos;
        this.protocol = protocol;
        this.early = backend.takeBuffered();
        this.lastActivityNanos = System.nanoTime();
        backend.ioTimeout(idleNanos);
    }

    /** {@return the state now} */
    State state() {
        return state.get();
    }

    Member member() {
        return member;
    }

    long idleNanos() {
        return idleNanos;
    }

    long lastActivityNanos() {
        return lastActivityNanos;
    }

    /**
     * The client's half is there: the tunnel counts as open (LM2311) until {@code q} closes,
     * whoever closes it, which closes the backend and gives its lease back (LM2312). Once, on
     * the worker that answered the client.
     *
     * @param registry the server's counts (the client connection's {@code ChildServices.counters()})
     * @param id the client connection's id, for the log
     */
    void attach(OutboundQueue q, ProtocolCounters registry, long id, InetSocketAddress from) {
        TunnelCounters counters = TunnelCounters.of(registry);
        counters.opened();
        q.closed().whenComplete((reason, failure) -> ended(counters, id, reason));
        LOG.log(Level.DEBUG, "LM2311 {0} tunnel {1} from {2} to {3} open", protocol, id, from, member);
    }

    /**
     * Starts the reader, which relays the backend's bytes (those behind its 101 first) into {@code q}.
     *
     * @param resetOnFailure whether a backend that fails ends the client's side at once (a stream
     *                       is reset, as RFC 8441 maps a TCP reset) rather than after what is queued
     */
    void start(OutboundQueue q, long id, boolean resetOnFailure) {
        Thread.ofVirtual().name("loom-proxy-tunnel-" + id).start(() -> readBackend(q, resetOnFailure));
    }

    // ---- the reader: backend -> client ----

    private void readBackend(OutboundQueue q, boolean resetOnFailure) {
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
                q.close(CloseReason.ERROR, !resetOnFailure);
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

    // ---- the client's half: client -> backend ----

    /** Writes the client's bytes from {@code in} (position to limit, all consumed) to the backend. The client's worker. */
    void write(ByteBuffer in) throws IOException {
        int n = in.remaining();
        backend.out().write(in.array(), in.arrayOffset() + in.position(), n);
        backend.flush();
        in.position(in.limit());
        toBackend.add(n);
        lastActivityNanos = System.nanoTime();
    }

    /**
     * The client ended its side: the backend's output is shut, and its answer still flows back.
     *
     * @return whether it was open until now (else nothing was done)
     * @throws IOException the shutdown failed: the relay is closed
     */
    boolean clientDone() throws IOException {
        if (!state.compareAndSet(State.OPEN, State.CLIENT_DONE)) {
            return false;
        }
        try {
            backend.channel().shutdownOutput();
        } catch (IOException e) {
            close();
            throw e;
        }
        return true;
    }

    /** Ends the tunnel from the client's half (idle, a failure): the backend closes at once. Any thread. */
    void close() {
        state.set(State.CLOSED);
        backend.close();
    }

    /** The client's half never came (its answer could not be written): the lease goes back, closed. */
    void abandon() {
        close();
        pool.release(backend, false);
    }

    /** The client's half ended (any path, any thread): the backend closes and its lease goes back. */
    private void ended(TunnelCounters counters, long id, CloseReason reason) {
        if (!ended.compareAndSet(false, true)) {
            return;
        }
        close();
        pool.release(backend, false);
        counters.closed();
        LOG.log(Level.DEBUG, "LM2312 {0} tunnel {1} to {2} ended ({3}): {4} bytes to the backend, {5} to the client",
                protocol, id, member, reason, toBackend.sum(), toClient.sum());
    }
}
