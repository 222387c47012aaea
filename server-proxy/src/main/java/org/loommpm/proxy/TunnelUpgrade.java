package org.loommpm.proxy;

import org.loommpm.config.ServerConfig;
import org.loommpm.http.ProtocolUpgrade;
import org.loommpm.spi.ProtocolConnection;

/**
 * The hand-off of a proxied upgrade: the backend answered {@code 101}, the client's {@code 101}
 * is being written, and once it is the client connection becomes a {@link Tunnel}. Created on
 * the request's worker ({@link ConnectionUpgrade}) with the relay that took over the leased
 * backend connection (the handler no longer releases it): from then on it is this object's until
 * {@link #takeOver} gives it to the tunnel, or {@link #abandon} (the 101 could not be written)
 * gives it back, closed.
 */
final class TunnelUpgrade implements ProtocolUpgrade {
    private final TunnelRelay relay;

    TunnelUpgrade(TunnelRelay relay) {
        this.relay = relay;
    }

    @Override
    public void takeOver(ProtocolConnection c, int slot, ServerConfig config) {
        Tunnel t = new Tunnel(relay);
        c.session(t);
        c.switchProtocol(TunnelProtocol.INSTANCE);
        t.open(c, slot);
    }

    @Override
    public void abandon() {
        relay.abandon();
    }
}
