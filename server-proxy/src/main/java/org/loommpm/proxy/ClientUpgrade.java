package org.loommpm.proxy;

import java.io.IOException;
import org.loommpm.api.Request;
import org.loommpm.http.ResponseState;

/**
 * How a client asked for a protocol the proxy passes through ({@link UpgradePolicy}), and how
 * the backend's {@code 101} is answered: an HTTP/1.1 {@code Upgrade} ({@link ConnectionUpgrade}:
 * the client's connection switches too), or an extended CONNECT (RFC 8441, {@link ExtendedConnect}:
 * the client's stream becomes the tunnel). Toward the backend either is an HTTP/1.1 upgrade
 * request; the backend side of the tunnel is the same {@link TunnelRelay}. Immutable; used on
 * the request's worker.
 */
sealed interface ClientUpgrade permits ConnectionUpgrade, ExtendedConnect {
    /**
     * {@return whether any success the client is answered means the switch happened} Then a 2xx
     * from the backend instead of its 101 is not relayed but refused ({@link #refusal}).
     */
    boolean successMeansSwitched();

    /** {@return the method of the request toward the backend} */
    String method(Request req);

    /** {@return whether the client's field {@code name} stays out of the request toward the backend} */
    boolean drops(String name);

    /** Appends the upgrade's own fields to the request head toward the backend, in its connection's output buffer. */
    void appendTo(HeadSink head);

    /** {@return why the backend's {@code 101} (or 2xx) cannot be passed on (answered 502, LM2314), or {@code null}} */
    String refusal(ResponseHead switched);

    /**
     * Answers the client that the backend switched, with the 101's end-to-end fields, and hands
     * the relay to what the answer opens once it is written. Returns normally only when the
     * hand-off is set (the relay then owns the backend connection).
     *
     * @throws IOException the client is gone
     */
    void answer(ResponseState res, ResponseHead switched, TunnelRelay relay) throws IOException;
}
