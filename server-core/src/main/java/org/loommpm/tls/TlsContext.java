package org.loommpm.tls;

import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSession;
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
    /** The ALPN names offered, in the server's preference order. */
    private final List<String> alpn;
    private final long handshakeTimeoutNanos;
    private final TlsCounters counters;

    TlsContext(SSLContext ssl, SSLParameters params, long handshakeTimeoutNanos, TlsCounters counters) {
        this.counters = counters;
        this.ssl = ssl;
        this.params = params;
        this.alpn = List.of(params.getApplicationProtocols());
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
        e.setHandshakeApplicationProtocolSelector(this::selectProtocol);
        return e;
    }

    /**
     * ALPN: the first of the server's names the client offered, except that {@code h2} needs what
     * RFC 9113 §9.2 asks of TLS, which the JDK's own choice does not look at. {@code null} (no name
     * in common) makes the engine send no_application_protocol (RFC 7301 §3.2), as it would itself.
     */
    private String selectProtocol(SSLEngine engine, List<String> offered) {
        for (String p : alpn) {
            if (offered.contains(p) && (!p.equals("h2") || h2Allowed(engine.getHandshakeSession()))) {
                return p;
            }
        }
        return null;
    }

    /**
     * TLS 1.3, or TLS 1.2 with an ephemeral key exchange and an AEAD cipher: every other TLS 1.2
     * suite the JDK has is on RFC 9113 Appendix A's prohibited list (§9.2.2), and older versions
     * are out (§9.2.1).
     */
    private static boolean h2Allowed(SSLSession session) {
        if (session == null) {
            return false;
        }
        String suite = session.getCipherSuite();
        return switch (session.getProtocol()) {
            case "TLSv1.3" -> true;
            case "TLSv1.2" -> (suite.startsWith("TLS_ECDHE_") || suite.startsWith("TLS_DHE_"))
                    && (suite.contains("_GCM_") || suite.contains("_CHACHA20_POLY1305_"));
            default -> false;
        };
    }

    /** Where handshake outcomes are counted (server-wide). */
    TlsCounters counters() {
        return counters;
    }
}
