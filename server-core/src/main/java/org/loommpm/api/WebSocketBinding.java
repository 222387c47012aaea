package org.loommpm.api;

import java.util.ServiceLoader;
import org.loommpm.websocket.WebSocketEndpoint;

/**
 * Serves the WebSocket routes a {@link Router} declares: module server-websocket provides it
 * ({@link ServiceLoader}; module path: {@code provides}, class path: META-INF/services). The
 * router looks it up once, when it freezes with at least one WebSocket route, so the core needs
 * no WebSocket code and an application that declares none never loads it.
 */
public interface WebSocketBinding {
    /**
     * The handler of one declared endpoint: it checks the handshake (HTTP/1.1 {@code GET} with
     * {@code Upgrade: websocket}, or HTTP/2's extended {@code CONNECT}), answers it and hands the
     * connection to the endpoint's handler.
     *
     * @param endpoint the declared endpoint
     * @return its handler, for both the {@code GET} and the {@code CONNECT} route
     */
    Handler handler(WebSocketEndpoint endpoint);

    /**
     * Finds the binding.
     *
     * @return the binding on the class path or module path
     * @throws IllegalStateException when server-websocket is not there
     */
    static WebSocketBinding find() {
        return ServiceLoader.load(WebSocketBinding.class).findFirst().orElseThrow(() -> new IllegalStateException(
                "the router declares WebSocket routes but server-websocket (org.loommpm:server-websocket) is not on "
                        + "the class path or module path"));
    }
}
