package org.loommpm.engine;

import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.loommpm.config.ClientChargeSettings;
import org.loommpm.spi.ClientCharges;
import org.loommpm.spi.CloseReason;
import org.loommpm.spi.ProtocolCounters;
import org.loommpm.spi.WorkerTask;

/**
 * One child's admission of TLS handshake steps, below established work (issue #50 item 9: 200
 * RSA-2048 handshakes a second took 172 of 589 requests from a client on an established
 * connection, because each handshake step queued for a worker slot beside its requests and took
 * a carrier for milliseconds).
 *
 * <p>A <em>handshake step</em> is a dispatch of a connection whose transport is still
 * handshaking: the JDK's {@code SSLEngine} runs the handshake, its delegated tasks included, on
 * the worker that owns the connection ({@code tls.TlsTransport}), and a step ends when the worker
 * hands the connection back (the client's next flight is awaited in the poller) or when the
 * request that follows the handshake was served. The poller gives such a dispatch to
 * {@link #offer} instead of the pool. A step starts at once only if fewer than
 * {@code TlsHandshakeConcurrency} steps run and no task waits for a worker slot (established
 * connections' work goes first); otherwise it waits in this child's handshake queue, FIFO, and is
 * started when a step ends or a slot frees and the rule holds again. A connection that waited
 * longer than {@code TlsHandshakeQueueTimeout} is closed without a TLS alert (counted, LM2921 at
 * most once per interval): a flood costs the newcomers, not the clients already served. A
 * connection's first step is charged to its client address ({@link ClientCharges}, a handshake's
 * units); an address over its share has its new connections closed before any TLS work (counted,
 * LM2920 once per episode), so one address flooding handshakes is refused before the others wait.
 *
 * <p><b>Threads.</b> {@link #offer} runs on the connection's poller, after its claim; the queue is
 * lock-free (pollers push, any thread that pumps polls), and a connection in it is owned by the
 * queue: whoever polls it dispatches it or closes it (a closing hand-back, as an owner's last act).
 * {@link #pump} runs on any thread: a step's worker as it ends, a worker freeing its slot, a poller
 * after an offer. {@link #running} counts the steps started and not ended.
 */
final class HandshakeAdmission {
    private static final System.Logger LOG = System.getLogger("org.loommpm.engine");

    private final Child child;
    private final int concurrency;
    private final long timeoutNanos;
    private final AtomicInteger running = new AtomicInteger();
    private final ConcurrentLinkedQueue<Waiting> queue = new ConcurrentLinkedQueue<>();
    /** The server's counts, looked up with the child's first TLS connection (registered then). */
    private volatile Counts counts;

    /** A connection waiting for its step, since when. */
    private record Waiting(Connection c, long since) {
    }

    HandshakeAdmission(Child child, ClientChargeSettings settings) {
        this.child = child;
        this.concurrency = settings.handshakeConcurrency();
        this.timeoutNanos = settings.handshakeQueueTimeout().toNanos();
    }

    /**
     * A claimed connection whose transport is handshaking wants a worker: started, queued, or
     * (its address over its share) closed. Its poller's thread.
     *
     * @param c the connection (claimed, context attached)
     * @param first whether it is the connection's first dispatch (its handshake is charged then)
     */
    void offer(Connection c, boolean first) {
        if (first && refused(c, counts())) {
            return;
        }
        if (queue.isEmpty() && acquire()) {
            child.pool().dispatch(new Step(c));
            return;
        }
        queue.offer(new Waiting(c, System.nanoTime()));
        pump();
    }

    private Counts counts() {
        Counts n = counts;
        if (n == null) {
            n = Counts.of(child.protocolCounters());
            counts = n;
        }
        return n;
    }

    private boolean refused(Connection c, Counts n) {
        InetSocketAddress remote = c.remoteAddress();
        InetAddress client = remote == null ? null : remote.getAddress();
        ClientCharges.Verdict v = child.charges().charge(client, ClientChargeSettings.HANDSHAKE_UNITS);
        if (!v.refused()) {
            return false;
        }
        n.charged.increment();
        if (v == ClientCharges.Verdict.FIRST_REFUSAL) {
            LOG.log(Level.WARNING, "LM2920 client {0} is over its CPU share (ClientChargeRate) with TLS handshakes:"
                    + " its new TLS connections are closed until it earned some back", client);
        }
        close(c);
        return true;
    }

    /**
     * Starts waiting steps while the rule allows, and closes those that waited too long. Any
     * thread; cheap when nothing waits.
     */
    void pump() {
        while (!queue.isEmpty()) {
            Waiting head = queue.peek();
            if (head != null && System.nanoTime() - head.since() > timeoutNanos) {
                if (queue.remove(head)) {
                    timedOut(head.c());
                }
                continue;
            }
            if (!acquire()) {
                return;
            }
            Waiting next = queue.poll();
            if (next == null) {
                running.decrementAndGet();
                continue; // another thread took it; the loop re-checks the queue
            }
            child.pool().dispatch(new Step(next.c()));
        }
    }

    /** Takes a turn: fewer steps than the limit run and no task waits for a slot. */
    private boolean acquire() {
        for (;;) {
            int n = running.get();
            if (n >= concurrency || child.pool().pending() > 0) {
                return false;
            }
            if (running.compareAndSet(n, n + 1)) {
                return true;
            }
        }
    }

    private void timedOut(Connection c) {
        counts().timedOut.increment();
        child.intervalLog().log(LOG, Level.WARNING, "LM2921 TLS handshake of {0} waited more than"
                + " TlsHandshakeQueueTimeout for a turn: closed", c.remoteAddress());
        close(c);
    }

    /** Closes a connection this admission owns, without TLS alert (nothing of the handshake was answered). */
    private static void close(Connection c) {
        c.cutOff();
        c.handBackClose(CloseReason.TIMEOUT);
    }

    /**
     * One handshake step: the connection's turn on a worker. The turn is given back as soon as
     * the handshake has finished ({@link Connection#handshakeOver}: the first application bytes
     * read, or the first wait after it), else when the run ends; a connection that goes on to its
     * request in the same run (its head arrived with the last handshake flight) does not hold up
     * the next handshake while its body or handler runs. Runs on the worker's {@link
     * WorkerPool.Hold}, so that a body read of that request may lend its slot as any other.
     */
    private final class Step implements WorkerTask, WorkerPool.MovesSlot {
        private final Connection c;
        /**
         * Whether the turn was given back: by the step's worker, or by a later owner of the
         * connection that found this release still set (after the hand-off, which publishes it).
         */
        private boolean released;

        Step(Connection c) {
            this.c = c;
        }

        @Override
        public void run(WorkerPool.Hold hold) {
            c.handshakeTurn = this::release;
            try {
                c.run(hold);
            } finally {
                // Not c.handshakeTurn = null: the connection may be another task's by now. A turn
                // left there is this release, which does nothing a second time.
                release();
            }
        }

        @Override
        public void run(int slot) {
            c.handshakeTurn = this::release;
            try {
                c.run(slot);
            } finally {
                // Not c.handshakeTurn = null: the connection may be another task's by now. A turn
                // left there is this release, which does nothing a second time.
                release();
            }
        }

        private void release() {
            if (!released) {
                released = true;
                running.decrementAndGet();
                pump();
            }
        }

        @Override
        public int slotAfterRun(int slot) {
            return c.slotAfterRun(slot);
        }
    }

    /** The server's counts of dropped handshakes, registered with the first TLS connection. */
    static final class Counts {
        final LongAdder timedOut;
        final LongAdder charged;

        private Counts(ProtocolCounters registry) {
            String name = "loom.tls.handshakes.dropped";
            String description = "New TLS connections closed before their handshake (queue-timeout:"
                    + " TlsHandshakeQueueTimeout; client-charge: the address over its ClientChargeRate)";
            timedOut = registry.counter(name, description, "reason", "queue-timeout");
            charged = registry.counter(name, description, "reason", "client-charge");
        }

        static Counts of(ProtocolCounters registry) {
            return registry.group(Counts.class, Counts::new);
        }
    }
}
