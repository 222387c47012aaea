package org.loommpm.api;

import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Objects;

/**
 * What a request's TLS connection negotiated, as a handler may need it: to log the protocol and
 * cipher, to serve by the host name the client asked for (SNI), or to authenticate the client by
 * its certificate. Read from the connection's TLS session once its handshake finished; see
 * {@link Request#tls()}.
 *
 * @param protocol the TLS version, as the JDK names it ({@code TLSv1.3}, {@code TLSv1.2})
 * @param cipherSuite the cipher suite, as the JDK names it ({@code TLS_AES_128_GCM_SHA256})
 * @param serverName the host name the client sent in the SNI extension, or {@code null} when it
 *     sent none (a client connecting to an IP address usually sends none)
 * @param applicationProtocol the protocol ALPN chose ({@code h2}, {@code http/1.1}), or
 *     {@code null} when the client offered none
 * @param peerCertificates the client's certificate chain, its own certificate first; empty when
 *     the server did not ask for one ({@code SSLVerifyClient}, off by default) or the client sent none
 * @param peerVerified whether {@code peerCertificates} was verified against the server's trusted
 *     CA certificates ({@code SSLCACertificateFile}) during the handshake: always {@code true}
 *     for a chain the server accepted (a chain that does not verify fails the handshake), and
 *     {@code false} when there is none
 */
public record TlsInfo(String protocol, String cipherSuite, String serverName, String applicationProtocol,
                      List<X509Certificate> peerCertificates, boolean peerVerified) {
    /**
     * Checks the required parts and copies the chain.
     *
     * @param protocol the TLS version
     * @param cipherSuite the cipher suite
     * @param serverName the SNI host name, or {@code null}
     * @param applicationProtocol the ALPN protocol, or {@code null}
     * @param peerCertificates the client's chain (copied), empty for none
     * @param peerVerified whether the chain was verified
     */
    public TlsInfo {
        Objects.requireNonNull(protocol, "protocol");
        Objects.requireNonNull(cipherSuite, "cipherSuite");
        peerCertificates = List.copyOf(peerCertificates);
    }

    /**
     * {@return the client's own certificate (the first of its chain), or {@code null} when it sent none}
     */
    public X509Certificate peerCertificate() {
        return peerCertificates.isEmpty() ? null : peerCertificates.get(0);
    }
}
