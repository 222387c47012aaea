package org.loommpm.proxy;

import org.loommpm.spi.ConnectionProtocol;
import org.loommpm.spi.ProtocolConnection;

/**
 * What a client connection runs once the proxy switched it to a tunnel: each dispatch (bytes
 * arrived, the idle deadline, a close asked from the backend's side) serves its {@link Tunnel}.
 * Stateless and shared. It does not close gracefully: the engine does not interrupt a tunnel when
 * the server stops, it is closed with the connections still open after
 * {@code GracefulShutdownTimeout} (the bytes relayed are not ours to end cleanly).
 */
final class TunnelProtocol implements ConnectionProtocol {
    static final TunnelProtocol INSTANCE = new TunnelProtocol();

    private TunnelProtocol() {
    }

    @Override
    public void serve(ProtocolConnection c, int slot) {
        c.session(Tunnel.class).serve(c, slot);
    }
}
