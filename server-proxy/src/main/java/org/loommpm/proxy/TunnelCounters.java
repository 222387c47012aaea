package org.loommpm.proxy;

import java.util.concurrent.atomic.LongAdder;
import org.loommpm.spi.ProtocolCounters;

/** Proxied upgrades relayed as tunnels, server-wide: registered with the server's first tunnel. */
final class TunnelCounters {
    private final LongAdder opened;
    private final LongAdder closed;

    private TunnelCounters(ProtocolCounters registry) {
        opened = registry.counter("loom.proxy.tunnels.opened",
                "Proxied upgrades switched to a tunnel (the backend answered 101)");
        closed = registry.gauge("loom.proxy.tunnels.open",
                "Proxied upgrades (WebSocket...) relayed now; an idle one holds no worker", opened);
    }

    /** {@return the server's tunnel counts, registered on the first call} */
    static TunnelCounters of(ProtocolCounters registry) {
        return registry.group(TunnelCounters.class, TunnelCounters::new);
    }

    /** A proxied upgrade became a tunnel (the backend answered 101). */
    void opened() {
        opened.increment();
    }

    /** A tunnel ended (any path). */
    void closed() {
        closed.increment();
    }
}
