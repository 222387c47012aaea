package org.loommpm.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.loommpm.api.Handler;
import org.loommpm.metrics.MetricsFeature;
import org.loommpm.server.LoomServer;
import org.loommpm.api.Request;
import org.loommpm.api.Response;
import org.loommpm.cli.alias.UrlMapping;
import org.loommpm.cli.apps.ApplicationHost;
import org.loommpm.cli.config.ApplicationDirectives;
import org.loommpm.cli.config.ConfigException;
import org.loommpm.cli.config.LocationSettings;
import org.loommpm.cli.config.LoomConfig;
import org.loommpm.cli.config.ProxySettings;
import org.loommpm.cli.config.Version;
import org.loommpm.cli.config.CompressionDirectives;
import org.loommpm.cli.config.CompressionScopes;
import org.loommpm.cli.headers.HeaderScopes;
import org.loommpm.cli.errordoc.ErrorDocuments;
import org.loommpm.cli.expires.ExpiresFilter;
import org.loommpm.cli.expires.ExpiresScopes;
import org.loommpm.cli.headers.HeadersFilter;
import org.loommpm.cli.logging.AccessLogFilter;
import org.loommpm.compress.CompressionFilter;
import org.loommpm.compress.CompressionSettings;
import org.loommpm.cli.remoteip.RemoteIpFilter;
import org.loommpm.cli.remoteip.RemoteIpSettings;
import org.loommpm.cli.logging.AsyncLogWriter;
import org.loommpm.cli.logging.LogIdCounts;
import org.loommpm.cli.logging.LogTargets;
import org.loommpm.cli.signals.PidFile;
import org.loommpm.cli.signals.SignalQueue;
import org.loommpm.staticfiles.internal.StaticFileHandler;
import org.loommpm.staticfiles.internal.UrlPath;
import org.loommpm.engine.EngineStats;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.loommpm.health.HealthHandler;
import org.loommpm.metrics.MetricsHandler;
import org.loommpm.status.StatusHandler;

/**
 * The running jar: starts the server from a configuration, then serves signals on the calling
 * thread until a stop. {@code SIGHUP} re-reads the configuration: an invalid one is logged
 * (LM1301) and the running generation keeps serving; a valid one becomes a new generation through
 * {@link LoomServer#restart}. {@code SIGTERM}/{@code SIGINT} stop gracefully, flush the logs and
 * exit 0.
 */
final class ServerProcess {
    private static final System.Logger LOG = System.getLogger("org.loommpm.cli");

    /** Re-reads the configuration the process was started with. */
    @FunctionalInterface
    interface Loader {
        LoomConfig load() throws ConfigException;
    }

    private final Loader loader;
    private final LogTargets logs = new LogTargets();
    private final LoomServer.Builder builder = LoomServer.builder();
    /**
     * {@code SetHandler server-status}: reads the engine through the builder's live view, or (a
     * child process) every child process through the shared scoreboard.
     */
    private final Handler status;
    /** {@code SetHandler health}: this process's own engine, also in a child process. */
    private final Handler health = new HealthHandler(builder.stats());
    /** {@code SetHandler metrics}: Prometheus text, if the starting configuration asked for it. */
    private Handler metrics;
    private LoomServer server;
    private LoomConfig config;
    /** The running generation's proxy (balancers, pools, health checks); null when not configured. */
    private ProxySettings.Running proxy;
    /** The applications {@code LoadApplication} names, created in this process. */
    private final ApplicationHost apps = new ApplicationHost();

    ServerProcess(Loader loader) {
        this(loader, null);
    }

    /**
     * @param statusStats what the status page shows; null for this process's engine
     */
    ServerProcess(Loader loader, EngineStats statusStats) {
        this.loader = loader;
        this.status = new StatusHandler(statusStats != null ? statusStats : builder.stats(), LogIdCounts.PROCESS);
    }

    /**
     * What a fatal error of the server ends besides the server (the jar: the JVM, see
     * {@link FatalExit}). Before {@link #start}.
     */
    ServerProcess onFatal(java.util.function.Consumer<? super org.loommpm.server.FatalServerException> hook) {
        builder.onFatal(hook);
        return this;
    }

    /**
     * Starts serving {@code initial} and handles signals until stopped. The pid file is written
     * once the listeners are bound (so an instance that fails to bind leaves a running one's file
     * alone) and removed after the stop; a server that cannot write it does not serve (LM1902),
     * as httpd.
     *
     * @param pid the {@code PidFile}, or null
     * @return the exit status
     */
    int run(LoomConfig initial, SignalQueue signals, PidFile pid) throws InterruptedException {
        if (!start(initial, false)) {
            return 1;
        }
        if (pid != null) {
            try {
                pid.write();
            } catch (IOException e) {
                LOG.log(Level.ERROR, "LM1902 could not write PidFile {0}: {1}; stopping", pid.path(), e.toString());
                close();
                return 1;
            }
        }
        banner(System.out);
        HeapSize.log(HeapSize.ofThisJvm());
        for (;;) {
            if (signals.take() == SignalQueue.Event.STOP) {
                stop(pid);
                return 0;
            }
            restart();
        }
    }

    /**
     * Starts serving {@code initial}; on failure logs LM1001, closes the logs and returns false.
     *
     * @param reusePort bind with SO_REUSEPORT (a child process among others on the same addresses)
     */
    boolean start(LoomConfig initial, boolean reusePort) {
        ApplicationHost.Change change = null;
        try {
            // At start nothing was open before, so nothing is retired.
            metrics = metricsHandler(initial);
            List<AccessLogFilter.Sink> sinks = logs.apply(initial.logs(), false, new ArrayList<>());
            change = apps.prepare(ApplicationDirectives.of(initial));
            Handler handler = site(initial, sinks, change);
            warn(initial);
            server = builder.config(initial.engine()).handler(handler).reusePort(reusePort).start();
        } catch (ApplicationHost.ApplicationException e) {
            closeProxy(proxy);
            LOG.log(Level.ERROR, e.getMessage());
            logs.close();
            return false;
        } catch (IOException | RuntimeException e) {
            closeProxy(proxy);
            if (change != null) {
                change.rollback();
            }
            LOG.log(Level.ERROR, "LM1001 could not start: {0}", e.getMessage());
            logs.close();
            return false;
        }
        change.commit();
        config = initial;
        return true;
    }

    /** The running server (after a successful {@link #start}). */
    LoomServer server() {
        return server;
    }

    /**
     * The handler chain for a configuration: {@code RemoteIPHeader} (if set) outermost, so the
     * access log and {@code Require} see the client it finds; then the access log (if any is
     * kept); then {@code Header}/{@code RequestHeader} (if any); then compression (if
     * configured) around the site. Starts
     * the configuration's proxy (its balancers and health checks) and makes it {@link #proxy}.
     */
    private Handler site(LoomConfig cfg, List<AccessLogFilter.Sink> sinks, ApplicationHost.Change applications) {
        Handler welcome = cfg.site().welcomePage() ? new WelcomePage() : null;
        StaticFileHandler files = new StaticFileHandler(cfg.site(), welcome);
        ProxySettings ps = ProxySettings.of(cfg);
        proxy = ps == null || !ps.enabled() ? null
                : ps.start(cfg.site().serverName(), cfg.engine().timeout(), cfg.engine().threadsPerChild());
        Handler site = new SiteHandler(cfg.site(), files, status, metrics, health,
                proxy == null ? List.of() : proxy.routes(), applications.handlers(),
                (UrlMapping) cfg.extensions().get(UrlMapping.KEY), (ErrorDocuments) cfg.extensions().get(ErrorDocuments.KEY));
        CompressionScopes scopes = CompressionScopes.of(cfg);
        if (scopes != null && scopes.scoped()) {
            // <Location> sections set compression: the settings follow the request's path.
            boolean slashes = cfg.site().allowEncodedSlashes();
            site = new CompressionFilter(req -> scopes.settingsFor(normalizedOrNull(req, slashes))).around(site);
        } else if (cfg.extensions().get(CompressionDirectives.KEY) instanceof CompressionSettings.Builder compression) {
            // Inside the access log, so that its %b and %O count the compressed bytes.
            site = new CompressionFilter(compression.build()).around(site);
        }
        if (cfg.extensions().get(ExpiresScopes.KEY) instanceof ExpiresScopes expires) {
            // Outside compression (which wraps the response) and inside the Header rules, which run after it.
            site = new ExpiresFilter(expires, cfg.site().allowEncodedSlashes(), files::typeForName).around(site);
        }
        if (cfg.extensions().get(HeaderScopes.KEY) instanceof HeaderScopes headers) {
            // Outside compression, which wraps the response: the rules reach the server's own.
            site = new HeadersFilter(headers, cfg.site().allowEncodedSlashes()).around(site);
        }
        Handler logged = sinks.isEmpty() ? site : new AccessLogFilter(sinks, cfg.site().serverName()).around(site);
        RemoteIpFilter remoteIp = RemoteIpFilter.of((RemoteIpSettings) cfg.extensions().get(RemoteIpSettings.KEY));
        return remoteIp == null ? logged : remoteIp.around(logged);
    }

    /** The path as the site matches {@code <Location>} sections, or null for one it refuses (answered by the site). */
    private static String normalizedOrNull(Request req, boolean allowEncodedSlashes) {
        try {
            return UrlPath.normalize(req, allowEncodedSlashes);
        } catch (UrlPath.Rejected e) {
            return null;
        }
    }

    /**
     * Metrics are switched on for the process's lifetime by the configuration it starts with
     * (Micrometer meters bind when the server starts); a later {@code SetHandler metrics} without
     * them answers 404 and says why in the error log.
     */
    private Handler metricsHandler(LoomConfig initial) {
        for (LocationSettings l : initial.site().locations()) {
            if ("metrics".equals(l.handler())) {
                return PrometheusMetrics.enable(builder);
            }
        }
        return new MetricsNotEnabled();
    }

    /**
     * Micrometer's Prometheus registry, named only here: the verifier loads the registry classes
     * of any method that passes one as a {@code MeterRegistry}, and a server without
     * {@code SetHandler metrics} would load them at every start for nothing.
     */
    private static final class PrometheusMetrics {
        static Handler enable(LoomServer.Builder builder) {
            PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
            builder.feature(new MetricsFeature(registry));
            return new MetricsHandler(registry);
        }
    }

    /** {@code SetHandler metrics} added by a restart: 404, and LM1005 says why. */
    private static final class MetricsNotEnabled implements Handler {
        @Override
        public void handle(Request req, Response res) throws IOException {
            LOG.log(Level.WARNING, "LM1005 SetHandler metrics needs a restart of the process: metrics were "
                    + "not enabled by the configuration it started with");
            res.status(404).header("Content-Type", "text/plain; charset=UTF-8").send("Not Found\n");
        }
    }

    private static void warn(LoomConfig cfg) {
        for (String w : cfg.warnings()) {
            LOG.log(Level.WARNING, "LM1004 " + w);
        }
    }

    private void restart() {
        LoomConfig next;
        try {
            next = loader.load();
        } catch (ConfigException e) {
            LOG.log(Level.ERROR, "LM1301 graceful restart refused, still serving generation {0} with the previous "
                    + "configuration: {1}", server.stats().generation(), e.report());
            return;
        }
        if (org.loommpm.cli.config.ChildDirectives.enabled(next)) {
            LOG.log(Level.WARNING, "LM1517 ChildProcesses On takes effect when the process is restarted: the new "
                    + "generation runs in this JVM");
        }
        List<AsyncLogWriter> retired = new ArrayList<>();
        ProxySettings.Running oldProxy = proxy;
        ApplicationHost.Change change;
        try {
            change = apps.prepare(ApplicationDirectives.of(next));
        } catch (ApplicationHost.ApplicationException e) {
            LOG.log(Level.ERROR, "LM1302 graceful restart failed, still serving generation {0}: {1}",
                    server.stats().generation(), e.getMessage());
            return;
        }
        try {
            // The new logs are opened first: the new generation's handler writes to them. If the
            // restart then fails (a Listen address taken), the old generation keeps serving with
            // its own writers (kept open, see restore); only the error log has moved.
            Handler handler = site(next, logs.apply(next.logs(), true, retired), change);
            warn(next);
            server.restart(next.engine(), handler);
        } catch (IOException | RuntimeException e) {
            change.rollback();
            logs.restore(retired);
            closeProxy(proxy);
            proxy = oldProxy;
            LOG.log(Level.ERROR, "LM1302 graceful restart failed, still serving generation {0}: {1}",
                    server.stats().generation(), e.getMessage());
            return;
        }
        config = next;
        LOG.log(Level.INFO, "LM1303 configuration re-read from {0}; generation {1} serving on {2}",
                next.description(), server.stats().generation(), server.addresses());
        Duration grace = next.engine().gracefulShutdownTimeout().plus(next.engine().keepAliveTimeout());
        closeLater(retired, grace);
        closeProxyLater(oldProxy, grace);
        change.commit();
        if (change.dropsAny()) {
            Thread.ofVirtual().name("loom-app-retire").start(() -> {
                try {
                    Thread.sleep(grace);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                change.retire();
            });
        }
    }

    private static void closeProxy(ProxySettings.Running p) {
        if (p != null) {
            p.close();
        }
    }

    /** The old generation's proxy stays open while its requests may still use it. */
    private static void closeProxyLater(ProxySettings.Running p, Duration after) {
        if (p == null) {
            return;
        }
        Thread.ofVirtual().name("loom-proxy-retire").start(() -> {
            try {
                Thread.sleep(after);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            p.close();
        });
    }

    /** Logs no longer named stay open while the old generation may still write to them. */
    private static void closeLater(List<AsyncLogWriter> retired, Duration after) {
        if (retired.isEmpty()) {
            return;
        }
        Thread.ofVirtual().name("loom-log-retire").start(() -> {
            try {
                Thread.sleep(after);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            retired.forEach(AsyncLogWriter::close);
        });
    }

    private void stop(PidFile pid) {
        var e = config.engine();
        LOG.log(Level.INFO, "LM0011 signal received: stopping gracefully (at most {0} s)",
                e.gracefulStopDelay().plus(e.gracefulShutdownTimeout()).toSeconds());
        server.close();
        apps.closeAll();
        if (pid != null) {
            pid.remove();
        }
        logs.close();
    }

    /** Stops the server gracefully (within GracefulShutdownTimeout), then flushes and closes the logs. */
    void close() {
        server.close();
        closeProxy(proxy);
        apps.closeAll();
        // Every line the stop produced is queued by now: write it all before the JVM exits.
        logs.close();
    }

    private void banner(PrintStream out) {
        StringBuilder sb = new StringBuilder();
        for (InetSocketAddress a : server.addresses()) {
            String host = a.getAddress().isAnyLocalAddress() ? "localhost"
                    : a.getAddress() instanceof java.net.Inet6Address ? "[" + a.getHostString() + "]" : a.getHostString();
            sb.append("loom-mpm ").append(Version.current()).append(" listening on http://").append(host).append(':')
                    .append(a.getPort()).append("/\n");
        }
        var e = config.engine();
        var s = config.site();
        sb.append("config: ").append(config.description()).append('\n')
                .append("  ChildPolicy ").append(e.childPolicy().name().toLowerCase(java.util.Locale.ROOT))
                .append(", StartServers ").append(e.startServers()).append(", ThreadsPerChild ").append(e.threadsPerChild())
                .append(", PollersPerChild ").append(e.effectivePollersPerChild())
                .append(", KeepAliveTimeout ").append(e.keepAliveTimeout().toMillis()).append(" ms\n")
                .append("  DocumentRoot ").append(s.documentRoot() != null ? s.documentRoot() : "(none)")
                .append(s.welcomePage() ? " + built-in welcome page" : "").append('\n');
        for (LocationSettings l : s.locations()) {
            sb.append("  <Location ").append(l.path()).append("> ")
                    .append(l.handler() != null ? "SetHandler " + l.handler() : "")
                    .append(l.require() != null ? " (Require set)" : "").append('\n');
        }
        for (var a : ApplicationDirectives.of(config)) {
            sb.append("  LoadApplication ").append(a.name()).append(' ').append(a.className())
                    .append(a.jar() != null ? " " + a.jar() : "").append('\n');
        }
        ProxySettings ps = ProxySettings.of(config);
        if (ps != null) {
            ps.describe(sb);
        }
        if (config.extensions().get(UrlMapping.KEY) instanceof UrlMapping mapping) {
            mapping.describe(sb);
        }
        out.print(sb);
        out.flush();
    }
}
