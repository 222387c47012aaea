package org.loommpm.bench;

import java.io.IOException;
import java.io.OutputStream;
import org.loommpm.api.Handler;
import org.loommpm.api.LoomServer;
import org.loommpm.api.Router;

/** loom-mpm through its public API: defaults, except unlimited keep-alive requests and a long KeepAliveTimeout. */
final class LoomBench {
    private LoomBench() {
    }

    static String start(int port) throws IOException {
        Handler hello = (req, res) -> {
            if (req.method().equals("POST")) {
                req.body().transferTo(OutputStream.nullOutputStream());
            }
            res.header("Content-Type", BenchServer.CONTENT_TYPE);
            res.send(BenchServer.HELLO);
        };
        Router router = new Router()
                .get("/plaintext", hello).post("/plaintext", hello)
                .get("/", hello).post("/", hello);
        LoomServer server = LoomServer.builder()
                .listen("0.0.0.0", port)
                .configure(c -> c
                        .maxKeepAliveRequests(0)                        // unlimited, like the others
                        .keepAliveTimeout(BenchServer.IDLE_TIMEOUT)
                        .tcpNoDelay(true))                              // the default; stated for clarity
                .handler(router)
                .start();
        var c = server.config();
        return "StartServers=" + c.startServers() + " ThreadsPerChild=" + c.threadsPerChild()
                + " PollersPerChild=" + c.effectivePollersPerChild();
    }
}
