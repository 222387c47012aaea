package org.loommpm.protocol;

import org.loommpm.api.Handler;
import org.loommpm.config.ServerConfig;
import org.loommpm.spi.ExchangeObserver;

/**
 * Service-provider interface through which the {@code server-h2} module adds HTTP/2 (found with
 * {@link java.util.ServiceLoader}; one per generation of children is created).
 */
public interface Http2ProtocolProvider {
    /**
     * @param config the generation's settings (HTTP/2 limits included)
     * @param app the application's handler, the same one HTTP/1.1 serves
     * @param observer told about every completed exchange, or {@code null} (metrics off)
     */
    Http2Protocol create(ServerConfig config, Handler app, ExchangeObserver observer);
}
