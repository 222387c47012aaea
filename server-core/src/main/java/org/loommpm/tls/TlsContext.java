package org.loommpm.tls;

import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import org.loommpm.engine.Transport;
import org.loommpm.engine.TransportFactory;

/**
 * A generation's TLS: the {@link SSLContext} with the server's key, and the parameters every
 * engine starts with. Makes one {@link TlsTransport} per accepted connection (cheap: the engine
 * itself is created on the connection's first read, on a worker). Immutable, shared by every
 * poller and worker of the generation.
 */
public final class TlsContext implements TransportFactory {
    private final SSLContext ssl;
    private final SSLParameters params;
    private final long handshakeTimeoutNanos;
    private final org.loommpm.spi.ProtocolCounters counters;

    TlsContext(SSLContext ssl, SSLParameters params, long handshakeTimeoutNanos,
               org.loommpm.spi.ProtocolCounters counters) {
        this.counters = counters;
        this.ssl = ssl;
        this.params = params;
        this.handshakeTimeoutNanos = handshakeTimeoutNanos;
    }

    @Override
    public Transport open(SocketChannel channel, ByteBuffer received) {
        return new TlsTransport(this, channel, System.nanoTime() + handshakeTimeoutNanos, received);
    }

    /** A server-mode engine with the configured parameters. */
    SSLEngine newEngine() {
        SSLEngine e = ssl.createSSLEngine();
        e.setUseClientMode(false);
        e.setSSLParameters(params);
        return e;
    }

    /** Where handshake outcomes are counted (server-wide). */
    org.loommpm.spi.ProtocolCounters counters() {
        return counters;
    }
}
