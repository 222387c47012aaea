package org.loommpm.engine;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.util.ArrayList;
import java.util.List;
import org.loommpm.config.ServerConfig;
import org.loommpm.spi.ConnectionProtocol;

/**
 * A generation of in-JVM children: what they run with (configuration and protocol) and the
 * listeners they share. A graceful restart makes generation <i>n+1</i> on the listeners the new
 * configuration names; the supervisor then drains every child of an older one and replaces only
 * children of the current one. Immutable: any thread.
 *
 * @param addresses each listener's address as bound (an ephemeral port resolved), kept so it is
 *                  known after the listeners close
 */
record Generation(int number, ServerConfig config, ConnectionProtocol handler, List<Listener> listeners,
                  List<InetSocketAddress> addresses) {

    /** The generation before {@link Supervisor#start()}: its settings, no listener yet. */
    static Generation unbound(ServerConfig config, ConnectionProtocol handler) {
        return new Generation(1, config, handler, List.of(), List.of());
    }

    /**
     * @param channels bound in {@link Listeners#addresses} order: the plain ones first, then the https ones
     * @param tls the generation's TLS transports, or null when no listener speaks TLS
     */
    static Generation of(int number, ServerConfig config, ConnectionProtocol handler,
                         List<ServerSocketChannel> channels, TransportFactory tls) throws IOException {
        List<InetSocketAddress> addresses = new ArrayList<>();
        List<Listener> listeners = new ArrayList<>();
        int plain = config.listen().size();
        List<InetSocketAddress> configured = Listeners.addresses(config);
        for (int i = 0; i < channels.size(); i++) {
            ServerSocketChannel ch = channels.get(i);
            addresses.add((InetSocketAddress) ch.getLocalAddress());
            listeners.add(new Listener(ch, config.tls().engine() || i >= plain ? tls : null,
                    config.proxyProtocol().appliesTo(configured.get(i))));
        }
        return new Generation(number, config, handler, List.copyOf(listeners), List.copyOf(addresses));
    }
}
