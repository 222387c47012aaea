package org.loommpm.http;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import org.loommpm.spi.ConnectionProtocol;
import org.loommpm.spi.ProtocolConnection;

/**
 * The points where HTTP/1.1, which serves every connection first, lets another protocol take
 * it over. Implemented by {@code protocol.ProtocolSelector}, whose entries are the protocols;
 * HTTP/1.1 knows none of them. Called on the worker that owns the connection.
 */
public interface ProtocolSwitch {
    /**
     * The protocol that takes over a fresh connection (ALPN, or the first bytes in {@code in},
     * read mode), or {@code null} for HTTP/1.1. The caller switches the connection to it and
     * lets it serve.
     */
    ConnectionProtocol select(ProtocolConnection c, ByteBuffer in);

    /**
     * Switches the connection if {@code head} asks, with {@code Upgrade}, for a protocol that
     * takes it; the read buffer is positioned after the head.
     *
     * @return whether the connection now belongs to another protocol (HTTP/1.1 must not touch it)
     */
    boolean upgrade(ProtocolConnection c, int slot, RequestHead head) throws IOException;

    /** The ALPN names TLS offers, in preference order, {@code http/1.1} included. */
    List<String> applicationProtocols();
}
