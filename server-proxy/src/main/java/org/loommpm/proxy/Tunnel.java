package org.loommpm.proxy;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import org.loommpm.spi.CloseReason;
import org.loommpm.spi.OutboundQueue;
import org.loommpm.spi.ProtocolConnection;
import org.loommpm.spi.SlotBoard;

/**
 * One upgraded HTTP/1.1 connection relayed byte for byte to a backend once the backend answered
 * {@code 101 Switching Protocols} (httpd's {@code ProxyPass ... upgrade=}): the client
 * connection's session, kept while it waits in its poller. The backend's half is its
 * {@link TunnelRelay}.
 *
 * <p><b>Who owns what.</b> The client socket is the engine's. Between dispatches it is DETACHED
 * in its poller with read interest and the idle deadline: no worker slot, no thread, no buffer. A
 * worker dispatched when the client sends bytes (or at the deadline) owns it for one
 * {@link #serve}: it reads what is there, writes it to the backend (it is the relay's writer for
 * that time), and hands the connection back detached. Bytes toward the client go through its
 * {@link OutboundQueue}, which the relay's reader fills and the poller writes while the connection
 * is detached (the owning worker otherwise).
 *
 * <p>The relay's states decide the connection's: the client's half-close is passed on and the
 * connection waits for the backend's rest; once the relay is {@code CLOSED} (the backend ended
 * its side, either side failed) the client connection closes lingering after what is queued. It
 * also closes when the tunnel is idle for {@code ProxyTimeout} in both directions (httpd's tunnel
 * timeout), or when the server stops (after {@code GracefulShutdownTimeout}, as any connection
 * still open then).
 */
final class Tunnel {
    private static final System.Logger LOG = System.getLogger("org.loommpm.proxy");
    /** Reads with data per dispatch before the socket waits in its poller again (fairness). */
    private static final int MAX_READS_PER_DISPATCH = 16;

    private final TunnelRelay relay;

    Tunnel(TunnelRelay relay) {
        this.relay = relay;
    }

    /** The first serve, on the worker that wrote the 101: the reader starts, then the client's early bytes go. */
    void open(ProtocolConnection c, int slot) {
        OutboundQueue q = c.outbound();
        relay.attach(q, c.services().counters(), c.id(), c.remoteAddress());
        relay.start(q, c.id(), false);
        serve(c, slot);
    }

    /** A dispatch: the client sent bytes, the idle deadline passed, or a close was asked. Ends with one hand-back. */
    void serve(ProtocolConnection c, int slot) {
        c.services().scoreboard().set(slot, SlotBoard.READING);
        if (c.outbound().isClosed()) {
            c.handBackDetached(0, false); // a close asked through the queue takes effect once detached
            return;
        }
        if (c.closeRequested()) {
            long idle = System.nanoTime() - relay.lastActivityNanos();
            if (idle >= relay.idleNanos()) {
                LOG.log(Level.DEBUG, "LM2313 tunnel {0} to {1} idle for {2} ms (ProxyTimeout): closing", c.id(),
                        relay.member(), idle / 1_000_000);
                relay.close();
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
                    relay.write(in);
                }
                if (!more || relay.state() != TunnelRelay.State.OPEN) {
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
            LOG.log(Level.DEBUG, "LM2316 tunnel {0} to {1} failed: {2}", c.id(), relay.member(), e.toString());
            relay.close();
            c.handBackClose(CloseReason.ABORT);
            return;
        }
        TunnelRelay.State s = relay.state();
        if (s == TunnelRelay.State.CLOSED) {
            c.handBackDetached(0, false);
            return;
        }
        c.handBackDetached(relay.lastActivityNanos() + relay.idleNanos(), s == TunnelRelay.State.OPEN);
    }

    /** The client half-closed: the backend's output is shut, and the backend's answer still flows back. */
    private void clientDone(ProtocolConnection c) {
        try {
            if (relay.clientDone()) {
                c.handBackDetached(relay.lastActivityNanos() + relay.idleNanos(), false);
                return;
            }
        } catch (IOException e) {
            c.handBackClose(CloseReason.ABORT);
            return;
        }
        c.handBackDetached(0, false);
    }
}
