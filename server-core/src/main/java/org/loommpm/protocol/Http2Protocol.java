package org.loommpm.protocol;

import org.loommpm.http.RequestHead;
import org.loommpm.spi.ConnectionProtocol;
import org.loommpm.spi.ProtocolConnection;

/**
 * HTTP/2 as the {@link ProtocolSelector} sees it: a {@link ConnectionProtocol} a connection is
 * switched to (ALPN {@code h2}, the preface, {@code Upgrade: h2c}). The {@code server-h2} module provides it through {@link Http2ProtocolProvider}; without
 * that module on the class path the server speaks HTTP/1.1 only.
 *
 * <p>Entry points, each on a worker that owns the connection and must hand it back as
 * {@link ConnectionProtocol} requires:
 * <ul>
 *   <li>{@link #serve}: the connection's read buffer ({@code context().in()}, read mode) starts
 *       with the client preface, or with part of it (prior knowledge on a cleartext listener,
 *       or ALPN {@code h2} after a TLS handshake; later dispatches of the same connection
 *       arrive here too);</li>
 *   <li>{@link #serveUpgrade}: HTTP/1.1 accepted {@code Upgrade: h2c} and wrote its
 *       {@code 101}; the request is to be answered on stream 1, and the read buffer holds
 *       whatever followed the request head (the preface, perhaps in part).</li>
 * </ul>
 */
public interface Http2Protocol extends ConnectionProtocol {
    /**
     * Continues an upgraded connection as HTTP/2: serves {@code request} (which has no body) as
     * stream 1, half-closed from the client, then the frames that follow.
     *
     * @param settings the decoded {@code HTTP2-Settings} payload (a SETTINGS frame's payload)
     */
    void serveUpgrade(ProtocolConnection connection, int slot, RequestHead request, byte[] settings);
}
