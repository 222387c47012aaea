package org.loommpm.engine;

import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * Makes the {@link Transport} of each connection a listener accepts (TLS listeners have one;
 * plaintext listeners use {@link PlainTransport}). Called on a poller (the accepting one, or on a
 * PROXY protocol listener the connection's own once the header is read): it must be cheap and
 * must not do I/O (a TLS transport creates its engine on the first read, on a worker).
 */
@FunctionalInterface
public interface TransportFactory {
    /**
     * The transport of a newly accepted, non-blocking {@code channel}.
     *
     * @param received bytes already read from the socket that belong to the transport (those
     *                 that followed a PROXY protocol header in the same read), or {@code null}:
     *                 its reads return them before anything from the socket
     */
    Transport open(SocketChannel channel, ByteBuffer received);
}
