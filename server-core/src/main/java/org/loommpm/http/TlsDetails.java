package org.loommpm.http;

import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.net.ssl.ExtendedSSLSession;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SNIServerName;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;
import org.loommpm.api.TlsInfo;

/**
 * A connection's TLS session as the handler's {@link TlsInfo} ({@code Request.tls()}), the same
 * for HTTP/1.1 and HTTP/2. Made on demand: most handlers never ask, and the peer's chain is copied.
 */
public final class TlsDetails {
    private TlsDetails() {
    }

    /**
     * @param session the connection's session once its handshake finished, or {@code null} (plaintext)
     * @param alpn the protocol ALPN chose, or {@code null}
     * @return the details, or empty for a plaintext connection
     */
    public static Optional<TlsInfo> of(SSLSession session, String alpn) {
        if (session == null) {
            return Optional.empty();
        }
        List<X509Certificate> chain = peerChain(session);
        // The JDK completes a handshake with a client chain only when its trust manager accepted
        // it (SSLVerifyClient optional or require against SSLCACertificateFile): a chain here is
        // a verified one.
        return Optional.of(new TlsInfo(session.getProtocol(), session.getCipherSuite(), serverName(session), alpn,
                chain, !chain.isEmpty()));
    }

    /** The SNI host name the client sent, or {@code null}. */
    private static String serverName(SSLSession session) {
        if (session instanceof ExtendedSSLSession e) {
            try {
                for (SNIServerName n : e.getRequestedServerNames()) {
                    if (n instanceof SNIHostName h) {
                        return h.getAsciiName();
                    }
                }
            } catch (UnsupportedOperationException notKept) {
                // a provider that does not keep the names: none to tell
            }
        }
        return null;
    }

    /** The client's X.509 chain, its own certificate first; empty when it sent none. */
    private static List<X509Certificate> peerChain(SSLSession session) {
        Certificate[] certs;
        try {
            certs = session.getPeerCertificates();
        } catch (SSLPeerUnverifiedException none) {
            return List.of();
        }
        List<X509Certificate> out = new ArrayList<>(certs.length);
        for (Certificate c : certs) {
            if (c instanceof X509Certificate x) {
                out.add(x);
            }
        }
        return out;
    }
}
