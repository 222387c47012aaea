package org.loommpm.engine;

import java.nio.channels.SocketChannel;

/**
 * Makes the {@link Transport} of each connection a listener accepts (TLS listeners have one;
 * plaintext listeners use {@link PlainTransport}). Called on the accepting poller: it must be
 * cheap and must not do I/O (a TLS transport creates its engine on the first read, on a worker).
 */
@FunctionalInterface
public interface TransportFactory {
    /** The transport of a newly accepted, non-blocking {@code channel}. */
    Transport open(SocketChannel channel);
}
