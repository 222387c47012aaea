package org.loommpm.engine;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The listener-owning poller's accept duty: its listener keys, the admission rule that arms and
 * disarms them, the back-off after a failed accept, and the release of the listeners before a
 * drain closes them. Failed accepts are logged once per episode ({@link AcceptFailures}).
 *
 * <p><b>Thread confinement:</b> poller-confined (its poller's thread only), except
 * {@link #requestRelease}, which any thread may call: it publishes a future through an
 * {@link AtomicReference} that the poller takes at its next loop iteration.
 */
final class Acceptor {
    private static final System.Logger LOG = System.getLogger("org.loommpm.engine");
    private static final long ACCEPT_BACKOFF_NANOS = 100_000_000L;

    private final Child child;
    private final List<SelectionKey> keys = new ArrayList<>(2);
    /** Set by {@link #requestRelease}; the poller deregisters the keys, completes and clears it. */
    private final AtomicReference<CompletableFuture<Void>> release = new AtomicReference<>();
    private boolean armed;
    private long pausedUntil;
    private final AcceptFailures failures = new AcceptFailures();

    Acceptor(Child child) {
        this.child = child;
    }

    /** Registers the shared listeners with the poller's selector. Before the poller starts. */
    void own(List<Listener> listeners, Selector selector) throws IOException {
        for (Listener l : listeners) {
            keys.add(l.channel().register(selector, SelectionKey.OP_ACCEPT, l));
        }
        armed = true;
    }

    /** Accepts what {@code listener} has queued while admission allows it. */
    void acceptReady(Listener listener) {
        while (armed && !child.isDraining()) {
            SocketChannel ch;
            try {
                ch = listener.channel().accept();
            } catch (IOException e) {
                // Typically EMFILE: back off instead of spinning on a listener that stays ready.
                long now = System.nanoTime();
                if (failures.failed(now)) {
                    LOG.log(Level.WARNING, "LM0105 accept failed ({0} in a row), pausing accepts 100 ms at a time "
                            + "until one succeeds (LM2104): {1}", failures.failures(), e.toString());
                }
                pausedUntil = now + ACCEPT_BACKOFF_NANOS;
                arm(false);
                return;
            }
            if (ch == null) {
                return;
            }
            String recovered = failures.accepted(System.nanoTime());
            if (recovered != null) {
                LOG.log(Level.WARNING, recovered);
            }
            child.accepted(ch, listener);
            if (!child.admission().evaluate(child.openConnections(), System.nanoTime()) || child.isDraining()) {
                arm(false);
            }
        }
    }

    /** Applies the admission rule (and the back-off) to the listener keys. Once per loop. */
    void updateAdmission() {
        long now = System.nanoTime();
        boolean want = child.admission().evaluate(child.openConnections(), now)
                && !child.isDraining()
                && now - pausedUntil >= 0;
        if (want != armed) {
            arm(want);
        }
    }

    private void arm(boolean on) {
        for (Iterator<SelectionKey> it = keys.iterator(); it.hasNext(); ) {
            SelectionKey k = it.next();
            try {
                k.interestOps(on ? SelectionKey.OP_ACCEPT : 0);
            } catch (CancelledKeyException e) {
                // Its listener was closed by another thread (a restart that dropped its address),
                // possibly after a validity check here: it has nothing left to arm.
                it.remove();
            }
        }
        armed = on;
    }

    /**
     * Asks for the listeners to be deregistered from the poller's selector, leaving them open;
     * completes once that is done (the caller wakes the poller). Any thread.
     */
    CompletableFuture<Void> requestRelease() {
        CompletableFuture<Void> done = new CompletableFuture<>();
        release.set(done);
        return done;
    }

    /**
     * Before the poller's select: cancels the keys if a release was asked for.
     *
     * @return the release to complete after that select (which deregisters the keys), or null
     */
    CompletableFuture<Void> cancelIfReleasing() {
        CompletableFuture<Void> r = release.get();
        if (r != null) {
            for (SelectionKey k : keys) {
                k.cancel();
            }
            keys.clear();
            armed = false;
        }
        return r;
    }

    /** After the select that deregistered the keys. */
    void released(CompletableFuture<Void> r) {
        r.complete(null);
        release.compareAndSet(r, null);
    }
}
