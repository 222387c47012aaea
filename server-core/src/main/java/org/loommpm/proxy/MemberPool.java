package org.loommpm.proxy;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

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
 */
final class MemberPool {
    private final InetSocketAddress address;
    private final ConcurrentLinkedDeque<BackendConnection> idle = new ConcurrentLinkedDeque<>();
    private final Semaphore permits;
    private final long ttlNanos;
    private final long acquireMillis;
    private final int connectMillis;
    private final boolean reuse;
    private volatile boolean closed;

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
     * Leases a connection: a pooled one that is still open, else a new one.
     *
     * @throws PoolExhaustedException no permit within {@code acquire}
     * @throws IOException the connect failed or timed out
     */
    Lease lease() throws IOException, InterruptedException {
        if (!permits.tryAcquire(acquireMillis, TimeUnit.MILLISECONDS)) {
            throw new PoolExhaustedException("no free connection to " + address + " within " + acquireMillis + " ms");
        }
        try {
            long now = System.nanoTime();
            expireOldest(now);
            BackendConnection c;
            while ((c = idle.pollFirst()) != null) {
                if (now - c.idleSince < ttlNanos && c.usable()) {
                    return new Lease(c, true);
                }
                c.close();
            }
            if (closed) {
                throw new IOException("balancer closed");
            }
            return new Lease(BackendConnection.open(address, connectMillis), false);
        } catch (IOException | RuntimeException e) {
            permits.release();
            throw e;
        }
    }

    /** Opens a connection outside the pool's accounting (health checks). */
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
            c.close();
        }
        permits.release();
    }

    private void expireOldest(long now) {
        BackendConnection c;
        while ((c = idle.peekLast()) != null && now - c.idleSince >= ttlNanos) {
            if (idle.removeLastOccurrence(c)) {
                c.close();
            }
        }
    }

    /** Connections in the idle deque now (for tests and the status of a member). */
    int idleCount() {
        return idle.size();
    }

    /** Connections leased now. */
    int leased(int max) {
        return max - permits.availablePermits();
    }

    /** Closes the idle connections and refuses further pooling; leased ones close on release. */
    void close() {
        closed = true;
        drainIdle();
    }

    private void drainIdle() {
        BackendConnection c;
        while ((c = idle.pollFirst()) != null) {
            c.close();
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
