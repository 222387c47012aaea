package org.loommpm.http;

import org.loommpm.config.ServerConfig;
import org.loommpm.spi.ProtocolConnection;

/**
 * The protocol an exchange switches its connection to once its answer is written: a handler
 * that accepts a WebSocket handshake sets one on its response ({@link ResponseState#upgrade})
 * with status 101, after the application's filters have let the request through (so access
 * rules apply to upgrades as to any request). HTTP/1.1 writes the 101 and, instead of reading
 * the next request, hands the connection over here. Created per exchange by the handler; used
 * once, on the worker that served the request.
 */
public interface ProtocolUpgrade {
    /**
     * Takes the connection over after the 101 was written: from now on it is this protocol's
     * (it switches the connection to its {@code ConnectionProtocol} and ends with a hand-back,
     * as that interface requires). Bytes the client sent after its request are in the context's
     * read buffer, from its position.
     *
     * @param slot the worker slot this runs in
     * @param config the generation's settings
     */
    void takeOver(ProtocolConnection c, int slot, ServerConfig config);

    /**
     * The 101 was not written (the client went away, the exchange failed): the connection is not
     * taken over. An upgrade that holds a resource for the new protocol (a proxied tunnel's
     * backend connection) releases it here. Called at most once, instead of {@link #takeOver}, on
     * the worker that served the request.
     */
    default void abandon() {
    }
}
