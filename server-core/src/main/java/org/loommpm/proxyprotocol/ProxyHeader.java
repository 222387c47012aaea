package org.loommpm.proxyprotocol;

import java.net.InetSocketAddress;

/**
 * A parsed PROXY protocol header (HAProxy's PROXY protocol, versions 1 and 2): what the load
 * balancer in front says about the connection it relays. Immutable.
 *
 * @param version 1 (text) or 2 (binary)
 * @param command {@link Command#PROXY} for a relayed connection, {@link Command#LOCAL} for one the
 *                balancer opened itself (health checks: v2 only)
 * @param family the relayed connection's transport; {@link Family#UNKNOWN} when the header does not
 *               say (v1 {@code UNKNOWN}, v2 {@code AF_UNSPEC}, a UNIX socket or a datagram)
 * @param source the client's address and port, or {@code null} unless {@code command} is
 *               {@link Command#PROXY} and {@code family} is TCP4 or TCP6
 * @param destination the address and port the client connected to (on the balancer), or {@code null}
 *                    when {@code source} is
 * @param length bytes the header took, CRLF or TLVs included: what follows belongs to the stream
 */
public record ProxyHeader(int version, Command command, Family family, InetSocketAddress source,
                          InetSocketAddress destination, int length) {

    /** The v2 command (v1 headers are always {@link #PROXY}). */
    public enum Command {
        /** The balancer opened the connection itself: keep the socket's own addresses. */
        LOCAL,
        /** The balancer relays a client's connection. */
        PROXY
    }

    /** The relayed connection's transport. */
    public enum Family {
        /** TCP over IPv4. */
        TCP4,
        /** TCP over IPv6. */
        TCP6,
        /** Not said, or not TCP over IP: keep the socket's own addresses. */
        UNKNOWN
    }

    /** Whether the header names the client: its {@link #source()} replaces the socket's peer address. */
    public boolean hasSource() {
        return source != null;
    }
}
