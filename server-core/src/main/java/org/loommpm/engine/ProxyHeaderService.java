package org.loommpm.engine;

import java.io.EOFException;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.channels.SelectionKey;
import org.loommpm.proxyprotocol.ProxyHeader;
import org.loommpm.proxyprotocol.ProxyHeaderException;
import org.loommpm.spi.CloseReason;

/**
 * A poller's handling of the PROXY_HEADER state (PROXY protocol listeners): arming the header's
 * deadline, reading the header on readiness through the connection's {@link ProxyHeaderReader},
 * and closing a connection whose header is invalid, cut short or late.
 *
 * <p><b>Threads.</b> Poller-confined: one per {@link Poller}, every method called on that
 * poller's thread only, for connections it owns in state PROXY_HEADER. Nothing is ever written
 * back to the peer: the header comes before TLS, so the peer could not read an answer anyway.
 */
final class ProxyHeaderService {
    private static final System.Logger LOG = System.getLogger("org.loommpm.engine");

    private final Poller poller;
    private final Child child;
    private final TimerRing timers;
    private final long headerNanos;
    private final long firstByteNanos;

    ProxyHeaderService(Poller poller, Child child, TimerRing timers) {
        this.poller = poller;
        this.child = child;
        this.timers = timers;
        var cfg = child.config();
        this.headerNanos = cfg.proxyProtocol().headerTimeout().toNanos();
        this.firstByteNanos = cfg.firstByteWait().toNanos();
    }

    /** A newly registered connection waits for its header, under the header's deadline. */
    void start(Connection c) {
        poller.arm(c, ConnState.PROXY_HEADER, SelectionKey.OP_READ, headerNanos);
    }

    /**
     * The connection turned readable before its header was complete: one non-blocking read of
     * at most the header's cap, here on the poller (no worker for a few bytes). Complete: the
     * connection gets its transport and waits for its first request like any other (dispatched
     * at once if the transport already holds a whole request or record). Invalid, cut short or
     * failing: closed.
     */
    void readReady(Connection c) {
        ProxyHeader h;
        try {
            h = c.proxyHeader.read(c.channel());
        } catch (ProxyHeaderException e) {
            LOG.log(Level.INFO, "LM2201 refused a connection from {0} without a valid PROXY protocol header: {1}",
                    c.remoteAddress(), e.getMessage());
            poller.close(c, CloseReason.ERROR);
            return;
        } catch (IOException e) {
            LOG.log(Level.DEBUG, "LM2202 {0} went away before its PROXY protocol header was complete: {1}",
                    c.remoteAddress(), e.getMessage());
            poller.close(c, e instanceof EOFException ? CloseReason.NORMAL : CloseReason.ABORT);
            return;
        }
        if (h == null) {
            return; // the rest of the header is on its way; the deadline stands
        }
        timers.cancel(c);
        c.proxied(h);
        if (child.isStopping()) {
            poller.close(c, CloseReason.NORMAL);
            return;
        }
        poller.arm(c, ConnState.KEEPALIVE, SelectionKey.OP_READ, firstByteNanos);
        if (c.transport().hasBufferedInput()) {
            poller.claimAndDispatch(c); // the first request (or ClientHello) came with the header
        }
    }

    /** The header's deadline passed. */
    void timedOut(Connection c) {
        child.intervalLog().log(LOG, Level.INFO, "LM2203 no complete PROXY protocol header from {0} within {1} ms "
                + "({2} bytes received): closing", c.remoteAddress(), headerNanos / 1_000_000,
                c.proxyHeader.received());
        poller.close(c, CloseReason.TIMEOUT);
    }
}
