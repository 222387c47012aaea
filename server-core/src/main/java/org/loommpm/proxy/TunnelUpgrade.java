package org.loommpm.proxy;

import org.loommpm.config.ServerConfig;
import org.loommpm.http.ProtocolUpgrade;
import org.loommpm.spi.ProtocolConnection;

/**
 * The hand-off of a proxied upgrade: the backend answered {@code 101}, the client's {@code 101}
 * is being written, and once it is the client connection becomes a {@link Tunnel}. Created by
 * {@link ProxyHandler} on the request's worker, which passes the leased backend connection to it
 * (the handler no longer releases it): from then on it is this object's until {@link #takeOver}
 * gives it to the tunnel, or {@link #abandon} (the 101 could not be written) closes it.
 */
final class TunnelUpgrade implements ProtocolUpgrade {
    private final BackendConnection backend;
    private final MemberPool pool;
    private final Member member;
    private final long idleNanos;
    private final String protocol;

    TunnelUpgrade(BackendConnection backend, MemberPool pool, Member member, long idleNanos, String protocol) {
        this.backend = backend;
        this.pool = pool;
        this.member = member;
        this.idleNanos = idleNanos;
        this.protocol = protocol;
    }

    @Override
    public void takeOver(ProtocolConnection c, int slot, ServerConfig config) {
        Tunnel t = new Tunnel(backend, pool, member, idleNanos, protocol);
        c.session(t);
        c.switchProtocol(TunnelProtocol.INSTANCE);
        t.open(c, slot);
    }

    @Override
    public void abandon() {
        pool.release(backend, false);
    }
}
