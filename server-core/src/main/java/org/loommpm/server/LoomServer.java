package org.loommpm.server;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import org.loommpm.api.Handler;
import org.loommpm.api.Request;
import org.loommpm.api.Router;
import org.loommpm.api.ServerStats;
import org.loommpm.config.ServerConfig;
import org.loommpm.config.TlsSettings;
import org.loommpm.engine.ChildListener;
import org.loommpm.engine.FailStop;
import org.loommpm.engine.Supervisor;
import org.loommpm.engine.TlsTransports;
import org.loommpm.engine.TransportFactory;
import org.loommpm.protocol.Protocols;
import org.loommpm.spi.ExchangeObserver;
import org.loommpm.spi.ProtocolCounters;
import org.loommpm.tls.TlsContextFactory;

/**
 * An embedded loom-mpm server.
 *
 * <pre>{@code
 * Router router = new Router()
 *         .get("/hello", (req, res) -> res.send("Hello, World!"))
 *         .get("/users/{id}", (req, res) -> res.send("user " + req.pathParam("id")));
 * try (LoomServer server = LoomServer.builder()
 *         .listen("127.0.0.1", 8080)
 *         .configure(c -> c.threadsPerChild(128).keepAliveTimeout(Duration.ofSeconds(10)))
 *         .handler(router)
 *         .start()) {
 *     System.out.println("listening on " + server.port());
 *     server.awaitStop();
 * }
 * }</pre>
 *
 * {@link Builder#start()} returns once every listener is bound and the children run;
 * {@link #close()} stops gracefully (in-flight requests finish, within GracefulShutdownTimeout).
 *
 * <p><b>Fail-stop.</b> An {@link OutOfMemoryError} in one of the server's threads, or a poller
 * or the supervisor thread that dies, ends the server rather than leaving it up serving less or
 * nothing: the error is logged (LM2600, LM2601, LM2602), the {@link Builder#onFatal} hook runs,
 * the server stops gracefully, and {@link #awaitStop()} throws a {@link FatalServerException}.
 * The JVM is not ended by default: an application whose main thread waits in
 * {@code awaitStop()} ends with that exception (exit status 1) once its other threads are done; the
 * hook may end it at once instead, as the jar does (exit status 3, 4 or 5).
 *
 * <p><b>Features.</b> {@link #stats()} reads the engine's own counters at any time (module
 * server-observe's {@code StatusHandler} renders them in detail). Everything else around the
 * application is a {@link ServerFeature} given to {@link Builder#feature}: server-observe's
 * {@code MetricsFeature} (Micrometer meters), {@code TracingFeature} (an
 * {@code http.server.requests} observation per request) and {@code HealthFeature} (liveness and
 * readiness probes). Without a feature nothing of it is on the request path. This class is the
 * composition root: it gives the engine its protocols and its TLS implementation.
 */
public final class LoomServer implements AutoCloseable {
    private volatile ServerConfig config;
    private final Supervisor supervisor;
    private final ExchangeObserver observer;
    /** The builder's features, innermost first. */
    private final List<ServerFeature> features;
    /** The builder's view of this server's counts (bound once the supervisor runs). */
    private final ServerStats stats;
    private final CountDownLatch stopped = new CountDownLatch(1);
    /** The builder's {@link Builder#onFatal} hook, or null. */
    private final Consumer<? super FatalServerException> onFatal;
    /** The fatal error that ended this server, once there was one. */
    private volatile FatalServerException fatal;

    private LoomServer(ServerConfig config, Handler handler, boolean reusePort, List<ServerFeature> features,
                       ServerStats stats, Consumer<? super FatalServerException> onFatal) throws IOException {
        this.config = config;
        this.features = features;
        this.stats = stats;
        this.onFatal = onFatal;
        this.observer = observer(features);
        this.supervisor = new Supervisor(config, Protocols.initial(config, compose(handler), observer));
        supervisor.fatalHandler(new Fatal());
        supervisor.reusePort(reusePort);
        supervisor.tlsTransports(new JdkTls());
        for (ServerFeature f : features) {
            f.beforeStart(supervisor, new ChildListeners(supervisor));
        }
        supervisor.start();
    }

    private static ExchangeObserver observer(List<ServerFeature> features) {
        ExchangeObserver found = null;
        for (ServerFeature f : features) {
            ExchangeObserver o = f.observer();
            if (o != null) {
                if (found != null) {
                    throw new IllegalArgumentException("two features observe exchanges; one server has one observer");
                }
                found = o;
            }
        }
        return found;
    }

    /** {@return A builder with every default of {@link ServerConfig}} */
    public static Builder builder() {
        return new Builder();
    }

    /** {@return the port of the first listener (useful with port 0)} */
    public int port() {
        return addresses().get(0).getPort();
    }

    /** {@return every bound address, in {@code Listen} order} */
    public List<InetSocketAddress> addresses() {
        return supervisor.boundAddresses();
    }

    /**
     * Graceful restart with a new configuration and handler: a new generation of children starts
     * on the listeners (new {@code Listen} addresses bound, removed ones closed) while the old
     * generation finishes its requests and exits. Clients see no failed request.
     *
     * @throws IOException if a new address cannot be bound (the running generation keeps serving)
     * @throws IllegalStateException after {@link #drain} or a stop
     * @param newConfig the configuration of the new generation
     * @param handler the handler of the new generation
     */
    public void restart(ServerConfig newConfig, Handler handler) throws IOException {
        supervisor.restart(newConfig, Protocols.initial(newConfig, compose(handler), observer));
        config = newConfig;
    }

    /** What every generation serves: the application inside its features, innermost first. */
    private Handler compose(Handler app) {
        Handler h = app;
        for (ServerFeature f : features) {
            h = f.wrap(h, stats);
        }
        return h;
    }

    /** {@return the configuration in force} */
    public ServerConfig config() {
        return config;
    }

    /**
     * The server's totals (connections, requests, bytes); give it to server-observe's
     * {@code StatusHandler} for the per-child detail.
     *
     * @return the server's counts
     */
    public ServerStats stats() {
        return supervisor;
    }

    /**
     * Retires the whole server for another process to take over (see {@link Builder#reusePort}):
     * the listeners close at once, every child finishes its connections and exits, and none is
     * replaced or started (one whose start was under way is drained as well). Call {@link #close}
     * when the returned future completes.
     *
     * @param reason shown on the status page and in the log (LM0002)
     * @return completes when every child has exited
     */
    public CompletableFuture<Void> drain(String reason) {
        return supervisor.drain(reason);
    }

    /**
     * Stops gracefully within {@code timeout}, then closes what is left.
     *
     * @param timeout how long in-flight requests may take to finish
     */
    public void stop(Duration timeout) {
        supervisor.stop(timeout);
        stopped.countDown();
    }

    /**
     * Blocks until the server has stopped.
     *
     * @throws InterruptedException if the calling thread is interrupted while it waits
     * @throws FatalServerException if the server stopped because of a fatal error (fail-stop)
     */
    public void awaitStop() throws InterruptedException {
        stopped.await();
        FatalServerException f = fatal;
        if (f != null) {
            throw f;
        }
    }

    /**
     * The engine's fail-stop handler: the hook, then the stop. A class rather than a lambda
     * (start-up cost, as for the engine's own).
     */
    private final class Fatal implements FailStop.Handler {
        @Override
        public void fatal(FailStop.Kind kind, String thread, Throwable error) {
            FatalServerException e = new FatalServerException(switch (kind) {
                case OUT_OF_MEMORY -> FatalServerException.Kind.OUT_OF_MEMORY;
                case POLLER_DIED -> FatalServerException.Kind.POLLER_DIED;
                case SUPERVISOR_DIED -> FatalServerException.Kind.SUPERVISOR_DIED;
            }, thread, error);
            fatal = e;
            if (onFatal != null) {
                try {
                    onFatal.accept(e);
                } catch (RuntimeException hookFailed) {
                    e.addSuppressed(hookFailed); // the stop below still runs
                }
            }
            // On a thread of its own: the caller may be a poller the stop waits for. If none can
            // be started (out of memory), here: that stop then waits for this thread's child until
            // GracefulShutdownTimeout and ends it by force.
            try {
                Thread.ofPlatform().name("loom-fail-stop").start(new FatalStop());
            } catch (OutOfMemoryError | RuntimeException noThread) {
                close();
            }
        }
    }

    /** The stop after a fatal error ({@link Fatal}). */
    private final class FatalStop implements Runnable {
        @Override
        public void run() {
            close();
        }
    }

    /** Stops gracefully within GracefulShutdownTimeout. */
    @Override
    public void close() {
        stop(config.gracefulShutdownTimeout());
    }

    /** Collects the listeners, directives and handler. */
    public static final class Builder {
        private ServerConfig.Builder config = ServerConfig.builder();
        private Handler handler;
        private boolean reusePort;
        private final List<ServerFeature> features = new ArrayList<>();
        private final DeferredStats stats = new DeferredStats();
        private Consumer<? super FatalServerException> onFatal;

        private Builder() {
        }

        /**
         * What to do, besides stopping, when a fatal error ends the server (fail-stop: out of
         * memory in one of its threads, a poller or the supervisor thread that died). The hook
         * is called once, on the thread that saw the error, after the error is logged and before
         * the server's graceful stop begins; {@link LoomServer#awaitStop()} then throws the same
         * exception. It must not wait for the server (the calling thread may be one the stop
         * waits for); it may end the JVM, as the jar does ({@code Runtime.halt} with status 3,
         * 4 or 5 by kind), or tell the application's supervisor. Without one the server stops
         * and nothing else happens.
         *
         * @param hook called with the error
         * @return this builder
         */
        public Builder onFatal(Consumer<? super FatalServerException> hook) {
            onFatal = Objects.requireNonNull(hook);
            return this;
        }

        /**
         * Adds a listener ({@code Listen host:port}); port 0 picks a free port.
         *
         * @param host the address or host name to bind
         * @param port the port; 0 picks a free one
         * @return this builder
         */
        public Builder listen(String host, int port) {
            config.listen(new InetSocketAddress(host, port));
            return this;
        }

        /**
         * Adds a listener on every address ({@code Listen port}).
         *
         * @param port the port; 0 picks a free one
         * @return this builder
         */
        public Builder port(int port) {
            config.listen(new InetSocketAddress(port));
            return this;
        }

        /**
         * Adds a listener whose connections start with a PROXY protocol header, v1 or v2
         * ({@code Listen host:port proxy-protocol}): what a load balancer such as HAProxy, an AWS
         * NLB or a Kubernetes ingress sends when told to. The header's client address is then the
         * request's {@link Request#remoteAddress()}; a connection without a valid header is
         * refused. For TLS behind the header, add the listener with {@link #https} and mark it:
         * {@code configure(c -> c.proxyProtocol(c.proxyProtocol().withListener(address)))}, or mark
         * every listener with {@code withAll(true)} ({@code RemoteIPProxyProtocol On}).
         *
         * @param host the address or host name to bind
         * @param port the port; 0 picks a free one
         * @return this builder
         */
        public Builder listenProxyProtocol(String host, int port) {
            InetSocketAddress a = new InetSocketAddress(host, port);
            config.listen(a);
            config.proxyProtocol(config.proxyProtocol().withListener(a));
            return this;
        }

        /**
         * Adds a TLS listener ({@code Listen host:port https}); needs a certificate, see {@link #tls}.
         *
         * @param host the address or host name to bind
         * @param port the port; 0 picks a free one
         * @return this builder
         */
        public Builder https(String host, int port) {
            config.tls(t -> t.listen(new InetSocketAddress(host, port)));
            return this;
        }

        /**
         * Sets the TLS directives: certificate and key files, {@code SSLEngine} (every listener
         * TLS), protocols, suites. See {@code docs/tls.md}.
         *
         * @param directives edits the TLS settings in place
         * @return this builder
         */
        public Builder tls(Consumer<TlsSettings.Builder> directives) {
            config.tls(directives);
            return this;
        }

        /**
         * Binds every listener with {@code SO_REUSEPORT}, so that several processes serve the same
         * addresses (the kernel spreads new connections over them). {@link #start} fails with a
         * clear message where the platform does not support it.
         *
         * @param on whether to set {@code SO_REUSEPORT}
         * @return this builder
         */
        public Builder reusePort(boolean on) {
            reusePort = on;
            return this;
        }

        /**
         * Sets any directive through the typed configuration builder.
         *
         * @param directives edits the settings in place
         * @return this builder
         */
        public Builder configure(Consumer<ServerConfig.Builder> directives) {
            directives.accept(config);
            return this;
        }

        /**
         * Replaces every setting with {@code cfg}'s (later {@link #configure} and {@link #listen} calls adjust it).
         *
         * @param cfg the value
         * @return this builder
         */
        public Builder config(ServerConfig cfg) {
            config = cfg.toBuilder();
            return this;
        }

        /**
         * The handler every request goes to (usually a {@link Router}).
         *
         * @param h the value
         * @return this builder
         */
        public Builder handler(Handler h) {
            handler = Objects.requireNonNull(h);
            return this;
        }

        /**
         * Adds a feature served around the handler: metrics, tracing, health probes (module
         * server-observe) or your own. Features wrap the handler by {@link ServerFeature#order()},
         * then in the order added.
         *
         * @param feature the feature
         * @return this builder
         */
        public Builder feature(ServerFeature feature) {
            features.add(Objects.requireNonNull(feature));
            return this;
        }

        /**
         * The counts of the server this builder starts, usable before it starts: what a
         * {@code StatusHandler} (server-observe) in the server's own handler needs. Until
         * {@link #start()} returns it reports an empty server (no children, all counts 0).
         *
         * @return the counts of the server to be started
         */
        public ServerStats stats() {
            return stats;
        }

        /**
         * Binds, starts the children, and returns the running server.
         *
         * @throws IOException if a listener cannot be bound
         * @throws IllegalArgumentException if a directive is out of range
         * @return the running server
         */
        public LoomServer start() throws IOException {
            List<ServerFeature> ordered = new ArrayList<>(features);
            ordered.sort(new ByOrder());
            LoomServer server = new LoomServer(config.build(), handler != null ? handler : new Router(), reusePort,
                    List.copyOf(ordered), stats, onFatal);
            stats.bind(server.supervisor);
            return server;
        }
    }

    // Classes, not lambdas: nothing on the way to the first answer bootstraps a lambda (the jar's
    // start-up, StartupClassesIT).

    /** The TLS the engine's TLS listeners use: the JDK's, through {@link TlsContextFactory}. */
    private static final class JdkTls implements TlsTransports {
        @Override
        public TransportFactory create(ServerConfig config, List<String> alpn, ProtocolCounters counters)
                throws IOException {
            return TlsContextFactory.create(config, alpn, counters);
        }
    }

    /** How a feature adds a child listener: to the supervisor, before it starts. */
    private record ChildListeners(Supervisor supervisor) implements Consumer<ChildListener> {
        @Override
        public void accept(ChildListener listener) {
            supervisor.addChildListener(listener);
        }
    }

    /** Features by {@link ServerFeature#order()}; a stable sort keeps the order added among equals. */
    private static final class ByOrder implements Comparator<ServerFeature> {
        @Override
        public int compare(ServerFeature a, ServerFeature b) {
            return Integer.compare(a.order(), b.order());
        }
    }
}
