package org.loommpm.bench;

import java.io.IOException;
import java.io.OutputStream;
import org.loommpm.api.Handler;
import org.loommpm.server.LoomServer;
import org.loommpm.api.Router;
import org.loommpm.config.AdmissionSettings;
import org.loommpm.config.WebSocketSettings;
import org.loommpm.status.StatusHandler;
import org.loommpm.websocket.WebSocketHandler;
import org.loommpm.websocket.WebSocketSession;

/**
 * loom-mpm through its public API: defaults, except unlimited keep-alive requests and a long
 * KeepAliveTimeout and WebSocketIdleTimeout; speaks HTTP/1.1 and h2c (server-h2 is on the class path) and serves the
 * status page at {@code /server-status}. The environment variable {@code LOOM_ADMISSION=off}
 * turns admission control off ({@code AdmissionControl Off}), for the overload comparison;
 * {@code LOOM_OPEN_CONNECTIONS=n} sets {@code OpenConnectionsPerChild} (0, the default: derived).
 * Also {@code /events} and {@code /poll} ({@link BenchEvents}, streaming.sh); {@code LOOM_THREADS}
 * sets ThreadsPerChild.
 *
 * <p>{@code GET /plaintext} and {@code GET /} are marked non-blocking ({@code Handler.nonBlocking}):
 * they answer a fixed body from memory, and are then served on the poller that read the request,
 * as Netty and Undertow answer them on their I/O threads. {@code LOOM_ROUTES=blocking} (the
 * harness's pseudo-server {@code loom-blk}) leaves them blocking, on virtual threads, for the A/B.
 * {@code POST} reads a body and stays blocking. {@link LoomToolkit} adds toolkit.sh's {@code /json},
 * {@code /form} and {@code /upload}.
 */
final class LoomBench {
    private LoomBench() {
    }

    /**
     * The benchmark's routes (also what {@link BenchApplication} gives loom-mpm.jar): hello on
     * {@code /}, {@code /plaintext} and {@code /slow}, {@code /events} (SSE), {@code /poll}
     * (suspended), {@code /ws} (WebSocket echo).
     */
    static Router routes(Router router) {
        Handler hello = (req, res) -> {
            if (req.method().equals("POST")) {
                req.body().transferTo(OutputStream.nullOutputStream());
            }
            res.header("Content-Type", BenchServer.CONTENT_TYPE);
            res.send(BenchServer.HELLO);
        };
        Handler get = (req, res) -> {
            res.header("Content-Type", BenchServer.CONTENT_TYPE);
            res.send(BenchServer.HELLO);
        };
        if (!"blocking".equalsIgnoreCase(System.getenv("LOOM_ROUTES"))) {
            get = Handler.nonBlocking(get);
        }
        Handler slow = (req, res) -> {
            BenchServer.pause();
            hello.handle(req, res);
        };
        return LoomToolkit.routes(router)                                   // /json, /form, /upload (toolkit.sh)
                .get("/plaintext", get).post("/plaintext", hello)
                .get("/", get).post("/", hello)
                .get(BenchServer.SLOW_PATH, slow)
                .get("/events", new BenchEvents().events())               // SSE: an event every 100 ms
                .get("/poll", BenchEvents.poll())                           // a long poll (suspended)
                .websocket(BenchServer.WS_PATH, new WebSocketHandler() { // echo; permessage-deflate offered
                    @Override
                    public void onText(WebSocketSession s, String text) {
                        s.sendText(text);
                    }

                    @Override
                    public void onBinary(WebSocketSession s, byte[] data) {
                        s.sendBinary(data);
                    }
                });
    }

    static String start(int port) throws IOException {
        boolean admission = !"off".equalsIgnoreCase(System.getenv("LOOM_ADMISSION"));
        BenchTls tls = BenchTls.fromEnv();
        // The status page (?auto: BusyWorkers, LoomPendingWorkers) for sampling slot use under load;
        // non-blocking as it is in the jar (the poller answers it while every slot is busy).
        LoomServer.Builder builder = LoomServer.builder();
        Router router = routes(new Router().get("/server-status", new StatusHandler(builder.stats())));
        LoomServer server = builder
                .listen(BenchServer.bindAddress(), port)
                .configure(c -> c
                        .maxKeepAliveRequests(0)                        // unlimited, like the others
                        .keepAliveTimeout(BenchServer.IDLE_TIMEOUT)
                        .tcpNoDelay(true)                               // the default; stated for clarity
                        .webSocket(WebSocketSettings.DEFAULTS.withIdleTimeout(BenchServer.IDLE_TIMEOUT))
                        .admissionControl(admission)
                        .admission(new AdmissionSettings(Integer.parseInt(
                                System.getenv().getOrDefault("LOOM_OPEN_CONNECTIONS", "0"))))
                        .threadsPerChild(Integer.parseInt(System.getenv().getOrDefault("LOOM_THREADS",
                                Integer.toString(org.loommpm.config.ServerConfig.DEFAULT_THREADS_PER_CHILD))))
                        .tls(t -> {
                            if (tls != null) { // every listener TLS, h2 or http/1.1 by ALPN
                                t.engine(true).certificateFile(tls.file()).password(tls.password());
                            }
                        }))
                .handler(router)
                .start();
        var c = server.config();
        return "StartServers=" + c.startServers() + " ThreadsPerChild=" + c.threadsPerChild()
                + " PollersPerChild=" + c.effectivePollersPerChild()
                + " AdmissionControl=" + (c.admissionControl() ? "On" : "Off")
                + (tls != null ? " SSLEngine=On" : "");
    }
}
