package org.loommpm.proxy;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.loommpm.api.Handler;
import org.loommpm.server.LoomServer;

/** Embedded loom-mpm servers for the proxy's tests: backends and the proxy itself, on 127.0.0.1. */
final class Backends {
    static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private Backends() {
    }

    static LoomServer start(Handler h) throws IOException {
        return start(h, 0);
    }

    static LoomServer start(Handler h, int port) throws IOException {
        return LoomServer.builder().listen("127.0.0.1", port)
                .configure(c -> c.gracefulShutdownTimeout(Duration.ofSeconds(2)))
                .handler(h).start();
    }

    static String url(LoomServer s) {
        return "http://127.0.0.1:" + s.port() + "/";
    }

    static HttpResponse<String> get(LoomServer proxy, String path) throws IOException, InterruptedException {
        return CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + proxy.port() + path))
                .timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
