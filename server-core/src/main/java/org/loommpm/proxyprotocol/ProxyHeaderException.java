package org.loommpm.proxyprotocol;

/** A PROXY protocol header that is malformed, unsupported or too long: the connection is refused. */
public final class ProxyHeaderException extends Exception {
    private static final long serialVersionUID = 1L;

    /** @param message what is wrong, precisely (logged with the client's socket address) */
    public ProxyHeaderException(String message) {
        super(message);
    }
}
