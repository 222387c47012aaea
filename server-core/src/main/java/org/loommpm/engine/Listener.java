package org.loommpm.engine;

import java.nio.channels.ServerSocketChannel;

/**
 * A listening socket with what its connections speak: {@code tls} makes their transports, or is
 * {@code null} for plaintext; {@code proxyProtocol}: each connection starts with a PROXY protocol
 * header, read by its poller below the transport. Shared by every child of a generation; immutable.
 */
record Listener(ServerSocketChannel channel, TransportFactory tls, boolean proxyProtocol) {
}
