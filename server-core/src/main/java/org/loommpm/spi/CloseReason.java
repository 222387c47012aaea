package org.loommpm.spi;

/**
 * Why a connection ended, decided by whoever decided to end it and counted once per connection
 * (per child and server-wide). A lingering close keeps the reason decided before the linger.
 */
public enum CloseReason {
    /**
     * An orderly end: the client closed between requests, or the server ended the connection
     * after a complete response ({@code Connection: close}, KeepAlive off,
     * MaxKeepAliveRequests, a draining child, a graceful stop closing idle connections).
     */
    NORMAL,
    /** A deadline passed: KeepAliveTimeout, RequestReadTimeout (408), or Timeout on a body or a write. */
    TIMEOUT,
    /**
     * A protocol or server error: a rejected request head (400, 414, 431, ...), a handler failure
     * that ended the connection, an unexpected failure in the engine or the HTTP layer.
     */
    ERROR,
    /**
     * Cut off: the client reset or vanished mid-exchange, or the server closed by force
     * (GracefulShutdownTimeout passed, a poller ended).
     */
    ABORT;

    /** {@return the lower-case name used in metric tags and status output} */
    public String tag() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
