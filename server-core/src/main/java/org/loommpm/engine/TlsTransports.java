package org.loommpm.engine;

import java.io.IOException;
import java.util.List;
import org.loommpm.config.ServerConfig;
import org.loommpm.spi.ProtocolCounters;

/**
 * Makes a generation's TLS transports. The engine does not know the TLS implementation: the
 * composition root ({@code server.LoomServer}) gives it one, so {@code engine} never depends on
 * {@code tls} (which depends on {@code engine} for {@link Transport}).
 */
@FunctionalInterface
public interface TlsTransports {
    /** Refuses every TLS listener: a supervisor built without a TLS implementation. */
    TlsTransports NONE = new None();

    /**
     * @param config the generation's settings ({@code config.tls()} active)
     * @param alpn the ALPN names the connections' protocols serve, in preference order
     * @param counters the server's registry, where the handshakes are counted
     * @return the factory of the generation's TLS transports (certificates read now)
     * @throws IOException if the key material cannot be used
     */
    TransportFactory create(ServerConfig config, List<String> alpn, ProtocolCounters counters) throws IOException;

    /** A class, not a lambda: nothing on the way to the first answer bootstraps a lambda. */
    final class None implements TlsTransports {
        private None() {
        }

        @Override
        public TransportFactory create(ServerConfig config, List<String> alpn, ProtocolCounters counters)
                throws IOException {
            throw new IOException("TLS listeners need a TLS implementation (start the server through LoomServer)");
        }
    }
}
