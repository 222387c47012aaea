package org.loommpm.api;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import org.loommpm.config.ServerConfig;
import org.loommpm.engine.Supervisor;
import org.loommpm.health.HealthHandler;
import org.loommpm.metrics.EngineMetrics;
import org.loommpm.metrics.RequestMetrics;
import org.loommpm.protocol.Protocols;
import org.loommpm.spi.ExchangeObserver;
import org.loommpm.tracing.ObservedHandler;

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
 * <p><b>Observability.</b> {@link #stats()} reads the engine's own counters at any time (the
 * {@link org.loommpm.status.StatusHandler} renders them in detail). Micrometer meters exist only when the
 * builder is given a registry ({@link Builder#meterRegistry}); without one, metrics are off and
 * the request path has no observer at all. Tracing works the same way: only a builder given an
 * {@code ObservationRegistry} ({@link Builder#observationRegistry}) observes requests.
 * {@link Builder#health} adds liveness and readiness probes.
 */
public final class LoomServer implements AutoCloseable {
    private volatile ServerConfig config;
    private final Supervisor supervisor;
    private final ExchangeObserver observer;
    /** {@link Builder#observationRegistry}, or null (tracing off). */
    private final ObservationRegistry observations;
    /** {@link Builder#health}, or null. */
    private final String healthPrefix;
    /** The builder's view of this server's counts (bound once the supervisor runs). */
    private final ServerStats stats;
    private final java.util.concurrent.CountDownLatch stopped = new java.util.concurrent.CountDownLatch(1);

    private LoomServer(ServerConfig config, Handler handler, MeterRegistry registry, boolean reusePort,
                       ObservationRegistry observations, String healthPrefix, ServerStats stats) throws IOException {
        this.config = config;
        this.observations = observations;
        this.healthPrefix = healthPrefix;
        this.stats = stats;
        this.observer = registry != null ? new RequestMetrics(registry) : null;
        this.supervisor = new Supervisor(config, Protocols.initial(config, compose(handler), observer));
        supervisor.reusePort(reusePort);
        if (registry != null) {
            supervisor.addChildListener(new EngineMetrics(registry, supervisor));
        }
        supervisor.start();
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

    /**
     * What every generation serves around the application's handler: the health probes outside
     * (not observed: an orchestrator polls them every few seconds), the observation inside.
     */
    private Handler compose(Handler app) {
        Handler h = ObservedHandler.wrap(observations, app);
        return healthPrefix != null ? HealthHandler.mount(healthPrefix, stats, h) : h;
    }

    /** {@return the configuration in force} */
    public ServerConfig config() {
        return config;
    }

    /**
     * The server's totals (connections, requests, bytes); give it to a
     * {@link org.loommpm.status.StatusHandler} for the per-child detail.
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
    public java.util.concurrent.CompletableFuture<Void> drain(String reason) {
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
     */
    public void awaitStop() throws InterruptedException {
        stopped.await();
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
        private MeterRegistry registry;
        private boolean reusePort;
        private String healthPrefix;
        private ObservationRegistry observations;
        private final DeferredStats stats = new DeferredStats();

        private Builder() {
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
        public Builder tls(Consumer<org.loommpm.config.TlsSettings.Builder> directives) {
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
         * Turns metrics on: the engine's meters and the request meters are registered in
         * {@code meterRegistry} (a {@code PrometheusMeterRegistry} for {@code MetricsHandler}, or
         * any other Micrometer registry). Default: none, metrics off. Then no meter exists and
         * the request path calls no observer; {@link LoomServer#stats()} and the status page
         * work either way.
         *
         * @param meterRegistry where the meters are registered
         * @return this builder
         */
        public Builder meterRegistry(MeterRegistry meterRegistry) {
            registry = Objects.requireNonNull(meterRegistry);
            return this;
        }

        /**
         * Turns tracing on: each request is observed in {@code observationRegistry} as an
         * {@code http.server.requests} observation (see {@link org.loommpm.tracing.ObservedHandler}).
         * With micrometer-tracing and a bridge (OpenTelemetry, Brave) registered on it, every
         * request gets a server span named after its {@link Router} template, with OpenTelemetry's
         * HTTP attributes, as a child of the caller's W3C {@code traceparent}. Default: none,
         * tracing off, and nothing of it on the request path. The health probes are not observed.
         *
         * @param observationRegistry where requests are observed
         * @return this builder
         */
        public Builder observationRegistry(ObservationRegistry observationRegistry) {
            observations = Objects.requireNonNull(observationRegistry);
            return this;
        }

        /**
         * Serves liveness and readiness probes at {@code prefix + "/live"} and
         * {@code prefix + "/ready"} in front of the handler (see
         * {@link org.loommpm.health.HealthHandler}): live answers 200 while the server answers
         * at all; ready answers 200 while new work should come here and 503 from the moment a
         * graceful stop begins ({@link LoomServer#close()}: the listeners still accept for
         * {@code GracefulStopDelay}), while drained, and while admission control refuses.
         * Default: no probes. Other paths cost one {@code startsWith} more.
         *
         * @param prefix a path starting with {@code /} and not ending with one, like {@code /health}
         * @return this builder
         * @throws IllegalArgumentException for a prefix not of that form
         */
        public Builder health(String prefix) {
            healthPrefix = HealthHandler.checkPrefix(prefix);
            return this;
        }

        /**
         * The counts of the server this builder starts, usable before it starts: what a
         * {@link org.loommpm.status.StatusHandler} in the server's own handler needs. Until
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
            LoomServer server = new LoomServer(config.build(), handler != null ? handler : new Router(), registry,
                    reusePort, observations, healthPrefix, stats);
            stats.bind(server.supervisor);
            return server;
        }
    }
}
