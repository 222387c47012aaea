package org.loommpm.observe.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.loommpm.config.AdmissionSettings;
import org.loommpm.health.HealthFeature;
import org.loommpm.status.StatusHandler;
import org.loommpm.server.LoomServer;
import org.loommpm.api.Router;
import org.loommpm.engine.EngineStats;
import org.loommpm.engine.Readiness;
import org.loommpm.testsupport.TestServers;

/**
 * {@code LoomServer.Builder.health}: the probes answer beside the application's routes; a
 * graceful stop with {@code GracefulStopDelay} answers not-ready while it still accepts new
 * connections, and refuses them only after; admission control's refusal (at the connection
 * bound) turns readiness off; the probes and the status page answer while every worker slot is
 * busy; a drained server is not ready.
 */
class HealthTest {
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private HttpResponse<String> get(int port, String path) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static LoomServer.Builder builder() {
        return LoomServer.builder().listen("127.0.0.1", 0)
                .handler(new Router().get("/app", (req, res) -> res.send("app")));
    }

    @Test
    void probesAnswerBesideTheApplication() throws Exception {
        try (LoomServer server = builder().feature(new HealthFeature("/health")).start()) {
            int port = server.port();
            HttpResponse<String> live = get(port, "/health/live");
            assertEquals(200, live.statusCode());
            assertEquals("{\"status\":\"UP\"}\n", live.body());
            assertEquals("application/json", live.headers().firstValue("Content-Type").orElseThrow());
            assertEquals("no-store", live.headers().firstValue("Cache-Control").orElseThrow());
            assertEquals(200, get(port, "/health/ready").statusCode());
            assertEquals("app", get(port, "/app").body());
            assertEquals(404, get(port, "/health/other").statusCode()); // the application's 404
            HttpResponse<String> head = client.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + port + "/health/ready")).method("HEAD",
                    HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, head.statusCode());
            assertEquals("", head.body());
            HttpResponse<String> post = client.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + port + "/health/live"))
                    .POST(HttpRequest.BodyPublishers.ofString("x")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(405, post.statusCode());
            assertEquals("GET, HEAD", post.headers().firstValue("Allow").orElseThrow());
        }
    }

    @Test
    void badPrefixesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> LoomServer.builder().feature(new HealthFeature("health")));
        assertThrows(IllegalArgumentException.class, () -> LoomServer.builder().feature(new HealthFeature("/health/")));
    }

    @Test
    void gracefulStopAnswersNotReadyWhileStillAccepting() throws Exception {
        LoomServer server = builder().feature(new HealthFeature("/health"))
                .configure(c -> c.gracefulStopDelay(Duration.ofSeconds(3))).start();
        int port = server.port();
        assertEquals(200, get(port, "/health/ready").statusCode());
        CompletableFuture<Void> stopped = CompletableFuture.runAsync(server::close);
        TestServers.waitFor("readiness turned off", 10, () -> {
            try {
                return get(port, "/health/ready").statusCode() == 503;
            } catch (Exception e) {
                throw new AssertionError("refused while it should accept", e);
            }
        });
        // Not ready, yet a client that still arrives (a balancer that has not noticed) is served:
        // a new connection each time (the JDK client's pool would reuse one).
        HttpClient fresh = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        HttpResponse<String> ready = fresh.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/health/ready")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(503, ready.statusCode());
        assertEquals("{\"status\":\"DOWN\",\"reason\":\"stopping\"}\n", ready.body());
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 2000);
            s.getOutputStream().write("GET /app HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".getBytes());
            String answer = new String(s.getInputStream().readAllBytes());
            assertTrue(answer.startsWith("HTTP/1.1 200"), answer);
            assertTrue(answer.endsWith("app"), answer);
        }
        assertEquals(200, get(port, "/health/live").statusCode());
        stopped.get(20, TimeUnit.SECONDS);
        assertThrows(ConnectException.class, () -> new Socket("127.0.0.1", port).close());
    }

    @Test
    void withoutADelayTheListenerClosesAtOnce() throws Exception {
        LoomServer server = builder().feature(new HealthFeature("/health")).start();
        int port = server.port();
        assertEquals(Readiness.READY, EngineStats.of(server.stats()).readiness());
        server.close();
        assertEquals(Readiness.STOPPING, EngineStats.of(server.stats()).readiness());
        assertThrows(IOException.class, () -> new Socket("127.0.0.1", port).close());
    }

    @Test
    void admissionControlsRefusalTurnsReadinessOff() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger entered = new AtomicInteger();
        try (LoomServer server = LoomServer.builder().listen("127.0.0.1", 0).feature(new HealthFeature("/health"))
                .configure(c -> c.threadsPerChild(4).pollersPerChild(1).keepAlive(false)
                        .admission(new AdmissionSettings(8)))
                .handler((req, res) -> {
                    entered.incrementAndGet();
                    release.await();
                    res.send("ok");
                }).start()) {
            EngineStats stats = EngineStats.of(server.stats());
            assertEquals(200, get(server.port(), "/health/ready").statusCode());
            List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                calls.add(client.sendAsync(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + server.port() + "/slow/" + i))
                        .timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString()));
            }
            TestServers.waitFor("admission off", 20, () -> stats.readiness() == Readiness.REFUSING);
            release.countDown();
            for (CompletableFuture<HttpResponse<String>> f : calls) {
                assertEquals(200, f.get(60, TimeUnit.SECONDS).statusCode());
            }
            TestServers.waitFor("ready again", 20, () -> stats.readiness() == Readiness.READY);
            assertEquals(200, get(server.port(), "/health/ready").statusCode());
        }
    }

    /**
     * ThreadsPerChild 2, both slots parked and more requests pending: the probes and the status
     * page, non-blocking, are answered on new connections by the poller. Motorz's admission rule
     * kept such connections in the listen backlog until a slot freed up; a blocking status page
     * would have waited for a slot.
     */
    @Test
    void probesAndStatusAnswerWhileEverySlotIsBusy() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger entered = new AtomicInteger();
        LoomServer.Builder b = LoomServer.builder().listen("127.0.0.1", 0).feature(new HealthFeature("/health"))
                .configure(c -> c.threadsPerChild(2).pollersPerChild(1));
        Router router = new Router()
                .get("/slow/{n}", (req, res) -> {
                    entered.incrementAndGet();
                    release.await();
                    res.send("ok");
                })
                .get("/server-status", new StatusHandler(b.stats()));
        try (LoomServer server = b.handler(router).start()) {
            EngineStats stats = EngineStats.of(server.stats());
            List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                calls.add(client.sendAsync(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + server.port() + "/slow/" + i))
                        .timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString()));
            }
            TestServers.waitFor("both slots busy, the rest pending", 20,
                    () -> entered.get() == 2 && stats.children().get(0).pendingWorkers() == 4);
            try {
                for (int i = 0; i < 3; i++) {
                    assertEquals(200, getOnNewConnection(server.port(), "/health/live").statusCode());
                    assertEquals(200, getOnNewConnection(server.port(), "/health/ready").statusCode());
                    HttpResponse<String> status = getOnNewConnection(server.port(), "/server-status?auto");
                    assertEquals(200, status.statusCode());
                    assertTrue(status.body().contains("BusyWorkers: 2"), status.body());
                }
            } finally {
                release.countDown();
            }
            for (CompletableFuture<HttpResponse<String>> f : calls) {
                assertEquals(200, f.get(60, TimeUnit.SECONDS).statusCode());
            }
        }
    }

    /** A GET on a connection of its own (a fresh client), with a 10 s limit. */
    private static HttpResponse<String> getOnNewConnection(int port, String path) throws Exception {
        try (HttpClient fresh = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build()) {
            return fresh.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        }
    }

    @Test
    void aDrainedServerIsNotReady() throws Exception {
        try (LoomServer server = builder().feature(new HealthFeature("/health")).start()) {
            EngineStats stats = EngineStats.of(server.stats());
            server.drain("test").get(10, TimeUnit.SECONDS);
            assertEquals(Readiness.DRAINING, stats.readiness());
        }
    }
}
