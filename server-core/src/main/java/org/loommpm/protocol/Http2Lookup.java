package org.loommpm.protocol;

import java.lang.System.Logger.Level;
import java.util.ServiceLoader;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.loommpm.api.Handler;
import org.loommpm.config.ServerConfig;
import org.loommpm.spi.ExchangeObserver;

/**
 * HTTP/2 for one generation, found when a connection first needs it (a preface, an
 * {@code Upgrade: h2c}, or the TLS listeners' ALPN list): the {@link ServiceLoader} scan for
 * {@code server-h2} and the handler's classes cost a start-up several milliseconds that a server
 * only ever spoken HTTP/1.1 to need not pay.
 *
 * <p>Thread-safety: any worker may call {@link #get}. The first callers may race to look up;
 * the first to publish (by CAS) wins and every caller uses its result. A loser's handler is
 * dropped unused: creating one has no side effects.
 */
public final class Http2Lookup implements Supplier<Http2Protocol> {
    private static final System.Logger LOG = System.getLogger("org.loommpm.protocol");
    /** Published when server-h2 is not on the class path. */
    private static final Object ABSENT = new Object();

    private final ServerConfig config;
    private final Handler app;
    private final ExchangeObserver observer;
    /** {@code null} until looked up, then the {@link Http2Protocol} or {@link #ABSENT}. */
    private final AtomicReference<Object> found;

    private Http2Lookup(ServerConfig config, Handler app, ExchangeObserver observer, Object found) {
        this.config = config;
        this.app = app;
        this.observer = observer;
        this.found = new AtomicReference<>(found);
    }

    /** A lookup through {@link Http2ProtocolProvider}, done on the first {@link #get}. */
    public static Http2Lookup deferred(ServerConfig config, Handler app, ExchangeObserver observer) {
        return new Http2Lookup(config, app, observer, null);
    }

    /** HTTP/2 already at hand (tests, or an application that builds the handler itself). */
    public static Http2Lookup of(Http2Protocol h2) {
        return new Http2Lookup(null, null, null, h2);
    }

    /** HTTP/2, or {@code null} when {@code server-h2} is not on the class path. */
    @Override
    public Http2Protocol get() {
        Object f = found.get();
        if (f == null) {
            f = lookUp();
            if (!found.compareAndSet(null, f)) {
                f = found.get();
            }
        }
        return f == ABSENT ? null : (Http2Protocol) f;
    }

    private Object lookUp() {
        var provider = ServiceLoader.load(Http2ProtocolProvider.class).findFirst();
        if (provider.isEmpty()) {
            LOG.log(Level.DEBUG, "LM0501 Protocols lists h2/h2c but server-h2 is not on the class path: HTTP/1.1 only");
            return ABSENT;
        }
        return provider.get().create(config, app, observer);
    }
}
