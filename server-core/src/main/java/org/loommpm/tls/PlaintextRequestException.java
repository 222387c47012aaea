package org.loommpm.tls;

import javax.net.ssl.SSLException;

/**
 * A plaintext request arrived where a TLS ClientHello belongs. The transport has failed (it
 * counted and logged it), but writes still reach the client unencrypted, once, so the protocol
 * serving the connection can tell it in its own terms (HTTP/1.1: a 400) before closing.
 */
public final class PlaintextRequestException extends SSLException {
    private static final long serialVersionUID = 1L;

    PlaintextRequestException() {
        super("plain HTTP request on a TLS port");
    }
}
