package org.loommpm.http2;

import org.loommpm.api.Handler;
import org.loommpm.config.ServerConfig;
import org.loommpm.protocol.Http2Protocol;
import org.loommpm.protocol.Http2ProtocolProvider;
import org.loommpm.spi.ExchangeObserver;

/** Makes HTTP/2 available to server-core (registered in {@code META-INF/services}). */
public final class Http2Provider implements Http2ProtocolProvider {
    /** For {@link java.util.ServiceLoader}. */
    public Http2Provider() {
    }

    @Override
    public Http2Protocol create(ServerConfig config, Handler app, ExchangeObserver observer) {
        return new Http2Connections(config, app, observer);
    }
}
