package org.loommpm.websocket.server;

import java.net.InetSocketAddress;
import org.loommpm.config.ServerConfig;
import org.loommpm.http.Tunnel;
import org.loommpm.spi.ChildServices;
import org.loommpm.spi.OutboundQueue;
import org.loommpm.spi.ProtocolConnection;

/**
 * An HTTP/1.1 connection as a WebSocket's link: its outbound queue, services and identity, the
 * same view an HTTP/2 stream gives as a {@link Tunnel}, so {@link WebSocketConnection} sends and
 * reports through one type on either protocol. Immutable; any thread.
 */
final class ConnectionLink implements Tunnel {
    private final ProtocolConnection c;
    private final ServerConfig config;

    ConnectionLink(ProtocolConnection c, ServerConfig config) {
        this.c = c;
        this.config = config;
    }

    @Override
    public OutboundQueue outbound() {
        return c.outbound();
    }

    @Override
    public ChildServices services() {
        return c.services();
    }

    @Override
    public long id() {
        return c.id();
    }

    @Override
    public boolean isSecure() {
        return c.isSecure();
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return c.remoteAddress();
    }

    @Override
    public ServerConfig config() {
        return config;
    }
}
