package org.loommpm.spi;

/**
 * Told about every completed exchange (request and response) by the protocol layer: the hook
 * metrics bind to. The server holds {@code null} when metrics are off, so the protocol layer
 * pays one null check per exchange and nothing else.
 *
 * <p>Called on the worker that served the exchange, after the response was written and before
 * the connection is handed back; implementations must be thread-safe and must not block.
 */
@FunctionalInterface
public interface ExchangeObserver {
    /**
     * One exchange completed (or ended early after its head was parsed: then {@code status} is
     * the status set so far).
     *
     * @param protocol the request's protocol, e.g. {@code HTTP/1.1}
     * @param method the method token as sent (not normalised)
     * @param status the response status
     * @param bytesIn request bytes consumed: head plus body as framed on the wire
     * @param bytesOut response bytes written: status line, headers and body
     * @param nanos from the first byte of the request head to the end of the response
     */
    void exchangeCompleted(String protocol, String method, int status, long bytesIn, long bytesOut, long nanos);
}
