package org.loommpm.spi;

/**
 * A protocol as the engine sees it (HTTP/1.1, HTTP/2, and those a {@code ProtocolSelector}
 * entry adds): what a worker does with a connection its poller found readable. ("Handler"
 * means the application's {@code api.Handler} only.)
 *
 * <p><b>Ownership.</b> {@link #serve} is called on a worker that owns the connection. It must end
 * by handing the connection back exactly once, as its last act, with one of
 * {@link ProtocolConnection#handBackKeepAlive()}, {@link ProtocolConnection#handBackReadWait(long)},
 * {@link ProtocolConnection#handBackWatch(long)},
 * {@link ProtocolConnection#handBackLinger(CloseReason)} or {@link ProtocolConnection#handBackClose(CloseReason)} (or having the
 * connection continue on another worker task it started); after that it must not touch the
 * connection again.
 */
public interface ConnectionProtocol {
    /**
     * Serves a readable connection on a worker.
     *
     * @param connection the connection, with a context attached
     * @param slot the worker slot this runs in (for scoreboard updates)
     */
    void serve(ProtocolConnection connection, int slot);

    /**
     * Serves what a readable connection has already sent on the poller thread that claimed it,
     * if the protocol can do so without any wait (non-blocking handlers, whole requests): no
     * worker, no hand-off. Nothing may park here; writes the socket does not take are queued by
     * the connection. Either the protocol hands the connection back exactly once, as its last
     * act, as {@link #serve} would (the engine applies it when this returns), or it declines:
     * then the connection continues on a worker ({@link #serve}) with whatever was read still in
     * its context, and answers written so far precede the worker's.
     *
     * <p>Called on plaintext connections that have no queued output, signalled ones too (a
     * protocol that does not resume a signalled connection here declines it); the default
     * declines.
     *
     * @param connection the connection, with a context attached
     * @param board where inline exchanges are counted (the poller's; not a worker slot)
     * @return {@code true} when the connection was handed back, {@code false} when declined
     */
    default boolean serveInline(ProtocolConnection connection, SlotBoard board) {
        return false;
    }

    /**
     * Whether {@link #serveInline} may serve anything at all (asked before each claim, so it
     * must be a field read): {@code false} spares the engine the inline attempt. The default
     * says no.
     *
     * @return {@code false} when {@link #serveInline} would always decline
     */
    default boolean servesInline() {
        return false;
    }

    /**
     * The bytes the poller writes (without blocking, best effort) when a partial request head
     * misses its deadline, before a lingering close; {@code null} for none.
     *
     * @return the response bytes, or {@code null}
     */
    default byte[] headTimeoutResponse() {
        return null;
    }

    /**
     * Whether idle connections of this protocol end through the protocol (HTTP/2 sends GOAWAY)
     * rather than by the poller closing them. When true, the poller dispatches an idle
     * (KEEPALIVE or MULTIPLEXED) connection with {@link ProtocolConnection#closeRequested()} set on a
     * graceful stop and when its deadline passes, instead of closing it.
     *
     * @return whether the protocol ends idle connections itself
     */
    default boolean closesGracefully() {
        return false;
    }

    /**
     * The ALPN protocol names this handler serves on TLS listeners, in preference order
     * ({@code h2} only when HTTP/2 is really there).
     *
     * @return the ALPN names
     */
    default java.util.List<String> applicationProtocols() {
        return java.util.List.of("http/1.1");
    }
}
