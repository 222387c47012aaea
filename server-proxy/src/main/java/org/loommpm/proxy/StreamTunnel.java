package org.loommpm.proxy;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.time.Duration;
import org.loommpm.http.Tunnel;
import org.loommpm.spi.CloseReason;
import org.loommpm.spi.OutboundQueue;

/**
 * A proxied tunnel whose client is on a stream (an HTTP/2 extended CONNECT, RFC 8441, accepted
 * with {@code 200} by {@link ExtendedConnect}): the stream's {@link Tunnel.Endpoint}, relaying the
 * stream's DATA to the backend's {@link TunnelRelay} and the relay's bytes back as DATA. RFC 8441
 * §5's mapping: the client's END_STREAM shuts the backend's output, the backend's end of stream
 * ends ours (END_STREAM after what is queued); a reset from the client closes the backend, a
 * failure on either side resets the stream ({@code CANCEL}).
 *
 * <p><b>Threads.</b> {@link #received} and {@link #inputEnded} run on the worker the stream
 * dispatches when the client's bytes arrive, one at a time (none while the tunnel is idle): it
 * is the relay's writer. A write the backend does not take parks it, and the bytes it holds are
 * not consumed yet, so the client gets no window back and a slow backend holds the client back
 * through the stream's flow control. The relay's reader offers the backend's bytes to the
 * stream's {@link OutboundQueue}, which the connection's frame loop frames within the client's
 * windows; a slow client leaves the queue full and parks the reader, which holds the backend
 * back through TCP. {@link #idleTimeout} and {@link #goingAway} run on the frame loop and do not
 * block (closing a channel does not). The stream enforces {@code ProxyTimeout} as the idle
 * timeout, with bytes either way as activity ({@link #timeouts}), as for an HTTP/1.1 tunnel.
 */
final class StreamTunnel implements Tunnel.Endpoint {
    private static final System.Logger LOG = System.getLogger("org.loommpm.proxy");

    private final Tunnel stream;
    private final TunnelRelay relay;

    private StreamTunnel(Tunnel stream, TunnelRelay relay) {
        this.stream = stream;
        this.relay = relay;
    }

    /**
     * The stream accepted as the tunnel: the relay is attached to it (its end, however it comes,
     * gives the backend connection back). On the request's worker, also for a stream the client
     * reset before it opened (then nothing else happens).
     */
    static StreamTunnel attach(Tunnel stream, TunnelRelay relay) {
        relay.attach(stream.outbound(), stream.services().counters(), stream.id(), stream.remoteAddress());
        return new StreamTunnel(stream, relay);
    }

    @Override
    public Tunnel.Timeouts timeouts() {
        return new Tunnel.Timeouts(Duration.ofNanos(relay.idleNanos()), true, Duration.ZERO);
    }

    @Override
    public void opened(int slot) {
        relay.start(stream.outbound(), stream.id(), true);
    }

    @Override
    public void received(ByteBuffer bytes) {
        if (relay.state() != TunnelRelay.State.OPEN) {
            return; // the backend ended its side (our END_STREAM is on its way) or the tunnel failed
        }
        try {
            relay.write(bytes);
        } catch (IOException e) {
            OutboundQueue q = stream.outbound();
            if (!q.isClosed()) {
                LOG.log(Level.DEBUG, "LM2316 tunnel {0} to {1} failed: {2}", stream.id(), relay.member(), e.toString());
            }
            relay.close();
            q.close(CloseReason.ABORT, false);
        }
    }

    @Override
    public void inputEnded() {
        try {
            relay.clientDone();
        } catch (IOException e) {
            stream.outbound().close(CloseReason.ABORT, false);
        }
    }

    /**
     * Nothing: as an HTTP/1.1 tunnel, the bytes relayed are not ours to end cleanly. The stream
     * stays until the client or the backend ends it, or the connection is closed with the others
     * still open after {@code GracefulShutdownTimeout}.
     */
    @Override
    public void goingAway() {
        // See above: a stop does not end a relay early.
    }

    /** Nothing went either way for {@code ProxyTimeout}: the backend closes and the stream is reset (LM2313). */
    @Override
    public void idleTimeout() {
        LOG.log(Level.DEBUG, "LM2313 tunnel {0} to {1} idle for {2} ms (ProxyTimeout): closing", stream.id(),
                relay.member(), (System.nanoTime() - relay.lastActivityNanos()) / 1_000_000);
        relay.close();
        stream.outbound().close(CloseReason.TIMEOUT, false);
    }

    /** Never asked: {@link #timeouts} has no keep-alive interval (keep-alives are the peers' own). */
    @Override
    public void keepAlive() {
        // See above.
    }
}
