package org.loommpm.protocol;

import java.lang.System.Logger.Level;
import java.util.ServiceLoader;
import org.loommpm.api.Handler;
import org.loommpm.config.ServerConfig;
import org.loommpm.engine.ConnectionHandler;
import org.loommpm.engine.ExchangeObserver;
import org.loommpm.http1.Http1ConnectionHandler;

/**
 * Builds a generation's connection handler from the {@code Protocols} setting: HTTP/1.1, which
 * switches to HTTP/2 when {@code h2} or {@code h2c} is enabled and {@code server-h2} is present.
 */
public final class Protocols {
    private static final System.Logger LOG = System.getLogger("org.loommpm.protocol");

    private Protocols() {
    }

    /** The handler new connections start with. */
    public static ConnectionHandler connectionHandler(ServerConfig config, Handler app, ExchangeObserver observer) {
        Http2Protocol h2 = null;
        if (config.protocols().contains("h2") || config.protocols().contains("h2c")) {
            var provider = ServiceLoader.load(Http2ProtocolProvider.class).findFirst();
            if (provider.isPresent()) {
                h2 = provider.get().create(config, app, observer);
            } else {
                LOG.log(Level.DEBUG, "LM0501 Protocols lists h2/h2c but server-h2 is not on the class path: HTTP/1.1 only");
            }
        }
        return new Http1ConnectionHandler(config, app, observer, h2);
    }
}
