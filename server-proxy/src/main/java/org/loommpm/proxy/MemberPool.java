package org.loommpm.proxy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.loommpm.spi.EventLoop;

/**
 * A member's pool of keep-alive connections. At most {@code max} connections are leased at once
 * (a {@link Semaphore}; a lessee waits for a permit at most {@code acquire}); a released
 * reusable connection goes on top of the idle deque and the next lease takes the most recently
 * used one (so a quiet period lets the oldest ones expire), after checking that the backend has
 * not closed it. Idle connections older than {@code ttl} are closed by whoever finds them.
 *
 * <p><b>Threads.</b> Lessees (workers, the health check) push and pop the idle deque; both ends
 * are used (push/pop on top for reuse, peekLast/pollLast at the bottom for expiry), which
 * {@link ConcurrentLinkedDeque} allows from any thread. A connection is in the deque or owned by
 * exactly one lessee, never both: the deque's pop hands it over.
 *
 * <p><b>Event loops.</b> Exchanges served on a poller ({@link LoopExchange}) use connections
 * owned by that poller instead: each poller's idle ones are in its {@link LoopPool}, created here
 * on first use and dropped once the poller has ended. Both kinds take a permit of the same
 * semaphore while in an exchange, so {@code max} bounds them together.
 */
final class MemberPool {
    private final InetSocketAddress address;
    private final ConcurrentLinkedDeque<BackendConnection> idle = new ConcurrentLinkedDeque<>();
    private final Semaphore permits;
    /**
     * Every open pooled connection, idle or leased, for the {@link TimeoutSweeper}: added when
     * connected, removed when closed (by whoever closes it).
     */
    private final Set<BackendConnection> open = ConcurrentHashMap.newKeySet();
    private final long ttlNanos;
    private final long acquireMillis;
    private final int connectMillis;
    private final boolean reuse;
    private volatile boolean closed;
    /** Each event loop's idle connections: added by the loop on first use, removed once it ended. */
    private final ConcurrentHashMap<EventLoop, LoopPool> loops = new ConcurrentHashMap<>();
    /**
     * Every open connection owned by an event loop, idle or in an exchange, for the sweeper and
     * {@link #close}: added by its loop when it connects, removed by whoever closes it.
     */
    private final Set<LoopConnection> loopOpen = ConcurrentHashMap.newKeySet();

    MemberPool(InetSocketAddress address, int max, long ttlNanos, long acquireMillis, int connectMillis, boolean reuse) {
        this.address = address;
        this.permits = new Semaphore(max);
        this.ttlNanos = ttlNanos;
        this.acquireMillis = acquireMillis;
        this.connectMillis = connectMillis;
        this.reuse = reuse;
    }

    /** A leased connection and whether it is fresh (a stale reused one may fail without fault of the member). */
    record Lease(BackendConnection connection, boolean reused) {
    }

    /**
     * Idle time under which a pooled connection is reused without first probing it, when the
     * request can be sent again should it turn out closed: backends close idle connections at
     * their keep-alive timeout (a second or more everywhere) or when they stop, and the probe
     * costs three system calls per request.
     */
    private static final long PROBE_AFTER_NANOS = 1_000_000_000L;

    /**
     * Leases a connection: a pooled one that is still open, else a new one.
     *
     * @param repeatable whether the request could be sent again if the connection turns out
     *     closed; if not, every pooled connection is probed before it is used
     * @throws PoolExhaustedException no permit within {@code acquire}
     * @throws IOException the connect failed or timed out
     */
    Lease lease(boolean repeatable) throws IOException, InterruptedException {
        // The untimed try first: the timed one checks for an interrupt even when a permit is free.
        if (!permits.tryAcquire() && !permits.tryAcquire(acquireMillis, TimeUnit.MILLISECONDS)) {
            throw new PoolExhaustedException("no free connection to " + address + " within " + acquireMillis + " ms");
        }
        try {
            long now = System.nanoTime();
            expireOldest(now);
            BackendConnection c;
            while ((c = idle.pollFirst()) != null) {
                long idleFor = now - c.idleSince;
                if (idleFor < ttlNanos && (repeatable && idleFor < PROBE_AFTER_NANOS || c.usable())) {
                    return new Lease(c, true);
                }
                discard(c);
            }
            if (closed) {
                throw new IOException("balancer closed");
            }
            BackendConnection fresh = BackendConnection.open(address, connectMillis);
            open.add(fresh);
            return new Lease(fresh, false);
        } catch (IOException | RuntimeException e) {
            permits.release();
            throw e;
        }
    }

    /** {@return the idle connections of {@code loop}, made on first use} The loop's thread. */
    LoopPool loopPool(EventLoop loop) {
        LoopPool p = loops.get(loop);
        return p != null ? p : loops.computeIfAbsent(loop, l -> new LoopPool(this, l));
    }

    /** Takes a permit if one is free at once: an event loop does not wait. */
    boolean tryPermit() {
        return permits.tryAcquire();
    }

    /** Waits up to {@code acquire} for a permit (a virtual thread, for an event loop's exchange). */
    boolean awaitPermit() throws InterruptedException {
        return permits.tryAcquire(acquireMillis, TimeUnit.MILLISECONDS);
    }

    void releasePermit() {
        permits.release();
    }

    InetSocketAddress address() {
        return address;
    }

    int connectMillis() {
        return connectMillis;
    }

    long ttlNanos() {
        return ttlNanos;
    }

    long acquireMillis() {
        return acquireMillis;
    }

    /** Whether a connection that ended an exchange cleanly may be kept: reuse on and not closed. */
    boolean keeps() {
        return reuse && !closed;
    }

    void loopOpened(LoopConnection c) {
        loopOpen.add(c);
    }

    void loopClosed(LoopConnection c) {
        loopOpen.remove(c);
    }

    /** {@return opens a connection outside the pool's accounting (health checks)} */
    BackendConnection openUnpooled() throws IOException {
        return BackendConnection.open(address, connectMillis);
    }

    /**
     * Gives a leased connection back: kept for reuse when the exchange left it at a message
     * boundary ({@code reusable}), closed otherwise.
     */
    void release(BackendConnection c, boolean reusable) {
        if (reusable && reuse && !closed && c.isOpen()) {
            c.exchanges++;
            c.idleSince = System.nanoTime();
            idle.offerFirst(c);
            if (closed) {
                drainIdle();
            }
        } else {
            discard(c);
        }
        permits.release();
    }

    private void expireOldest(long now) {
        BackendConnection c;
        while ((c = idle.peekLast()) != null && now - c.idleSince >= ttlNanos) {
            if (idle.removeLastOccurrence(c)) {
                discard(c);
            }
        }
    }

    /** {@return connections in the idle deque now (for tests and the status of a member)} */
    int idleCount() {
        int n = idle.size();
        for (LoopPool p : loops.values()) {
            n += p.idleCount();
        }
        return n;
    }

    /** Connections leased now. */
    int leased(int max) {
        return max - permits.availablePermits();
    }

    /** Closes the idle connections and refuses further pooling; leased ones close on release. */
    void close() {
        closed = true;
        drainIdle();
        for (LoopPool p : loops.values()) {
            p.loop().execute(p::drain);
        }
    }

    private void drainIdle() {
        BackendConnection c;
        while ((c = idle.pollFirst()) != null) {
            discard(c);
        }
    }

    private void discard(BackendConnection c) {
        c.close();
        open.remove(c);
    }

    /**
     * The sweeper's pass: closes every connection whose blocking call is past its deadline, has
     * each event loop time out its own connections past theirs (and close idle ones past the
     * idle lifetime), and forgets the pools of loops that ended.
     */
    void expire(long now) {
        for (BackendConnection c : open) {
            c.expire(now);
        }
        for (LoopConnection c : loopOpen) {
            c.expire(now, ttlNanos);
        }
        if (!loops.isEmpty()) {
            loops.values().removeIf(p -> p.loop().hasEnded());
        }
    }

    /** No connection could be leased in time: answered 503. */
    static final class PoolExhaustedException extends IOException {
        private static final long serialVersionUID = 1L;

        PoolExhaustedException(String message) {
            super(message);
        }
    }
}
