package org.loommpm.protocol;

import org.loommpm.api.Handler;
import org.loommpm.config.ServerConfig;
import org.loommpm.engine.ConnectionHandler;
import org.loommpm.engine.ExchangeObserver;
import org.loommpm.http1.Http1ConnectionHandler;

/**
 * Builds a generation's connection handler from the {@code Protocols} setting: HTTP/1.1, which
 * switches to HTTP/2 when {@code h2} or {@code h2c} is enabled and {@code server-h2} is present
 * (looked up when a connection first asks for it: {@link Http2Lookup}).
 */
public final class Protocols {
    private Protocols() {
    }

    /** The handler new connections start with. */
    public static ConnectionHandler connectionHandler(ServerConfig config, Handler app, ExchangeObserver observer) {
        Http2Lookup h2 = config.protocols().contains("h2") || config.protocols().contains("h2c")
                ? Http2Lookup.deferred(config, app, observer) : null;
        return new Http1ConnectionHandler(config, app, observer, h2);
    }
}
