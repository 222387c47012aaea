package org.loommpm.http2.it;

import java.io.IOException;
import java.time.Duration;
import java.util.function.UnaryOperator;
import org.loommpm.api.Handler;
import org.loommpm.config.Http2Settings;
import org.loommpm.config.ServerConfig;
import org.loommpm.engine.FailStop;
import org.loommpm.engine.Supervisor;
import org.loommpm.http1.Http1Protocol;
import org.loommpm.http2.Http2Connections;
import org.loommpm.http2.Http2Counters;
import org.loommpm.protocol.Http2Lookup;
import org.loommpm.protocol.Protocols;
import org.loommpm.spi.ExchangeObserver;
import org.loommpm.spi.ProtocolCounters;

/** A server on 127.0.0.1 (ephemeral port) speaking HTTP/1.1 and h2c, with its HTTP/2 counters at hand. */
final class H2Server implements AutoCloseable {
    private final Supervisor supervisor;
    private final Http2Connections h2;

    private H2Server(Supervisor supervisor, Http2Connections h2) {
        this.supervisor = supervisor;
        this.h2 = h2;
    }

    static H2Server start(Handler app) throws IOException {
        return start(app, s -> s, b -> b);
    }

    static H2Server start(Handler app, UnaryOperator<Http2Settings> limits) throws IOException {
        return start(app, limits, b -> b);
    }

    static H2Server start(Handler app, UnaryOperator<Http2Settings> limits,
                          UnaryOperator<ServerConfig.Builder> engine) throws IOException {
        return start(app, limits, engine, null);
    }

    static H2Server start(Handler app, UnaryOperator<Http2Settings> limits,
                          UnaryOperator<ServerConfig.Builder> engine, ExchangeObserver observer) throws IOException {
        return start(app, limits, engine, observer, null);
    }

    /** @param fatal the engine's fail-stop handler, or null (then a fatal error is only logged) */
    static H2Server start(Handler app, UnaryOperator<Http2Settings> limits, UnaryOperator<ServerConfig.Builder> engine,
                          ExchangeObserver observer, FailStop.Handler fatal) throws IOException {
        ServerConfig config = engine.apply(ServerConfig.builder()
                .listen(new java.net.InetSocketAddress("127.0.0.1", 0))
                .threadsPerChild(64)
                .gracefulShutdownTimeout(Duration.ofSeconds(10))
                .http2(limits.apply(Http2Settings.DEFAULTS))).build();
        Http2Connections h2 = new Http2Connections(config, app, observer);
        Supervisor s = new Supervisor(config, new Http1Protocol(config, app, observer,
                Protocols.selector(config, Http2Lookup.of(h2))));
        if (fatal != null) {
            s.fatalHandler(fatal);
        }
        s.start();
        return new H2Server(s, h2);
    }

    int port() {
        return supervisor.boundAddresses().get(0).getPort();
    }

    /** The engine's counts (children, workers, pending tasks). */
    org.loommpm.engine.EngineStats engine() {
        return supervisor;
    }

    Counts stats() {
        return new Counts(supervisor.protocols());
    }

    /** The server's protocol counts, read by the meter names their protocols registered them under. */
    record Counts(ProtocolCounters registry) {
        long streamsStarted() {
            return registry.value("loom.http2.streams.started");
        }

        long streamsInline() {
            return Http2Counters.of(registry).streamsInline();
        }

        long responsesCompleted() {
            return registry.value("loom.http2.streams.completed");
        }

        long streamsRefused() {
            return registry.value("loom.http2.streams.refused");
        }

        long streamsStalled() {
            return registry.value("loom.http2.streams.stalled");
        }

        long guardsTripped() {
            return registry.value("loom.http2.guards.tripped");
        }

        long suspendedNow() {
            return registry.value("loom.suspended.exchanges");
        }

        long suspendTimeouts() {
            return registry.value("loom.suspended.timeouts");
        }

        long eventStreamsNow() {
            return registry.value("loom.eventstreams.open");
        }

        long webSocketsOpen() {
            return registry.value("loom.websocket.open");
        }

        long webSocketsOpened() {
            return registry.value("loom.websocket.opened");
        }

        long proxyTunnelsOpen() {
            return registry.value("loom.proxy.tunnels.open");
        }

        long proxyTunnelsOpened() {
            return registry.value("loom.proxy.tunnels.opened");
        }
    }

    Supervisor supervisor() {
        return supervisor;
    }

    /** Graceful stop (in-flight streams finish). */
    void stop() {
        supervisor.stop(Duration.ofSeconds(10));
    }

    @Override
    public void close() {
        stop();
    }
}
