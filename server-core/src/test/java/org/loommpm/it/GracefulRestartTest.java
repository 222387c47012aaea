package org.loommpm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.loommpm.api.Handler;
import org.loommpm.server.LoomServer;
import org.loommpm.config.AdmissionSettings;
import org.loommpm.config.ServerConfig;
import org.loommpm.engine.ChildStats;
import org.loommpm.engine.EngineStats;
import org.loommpm.testsupport.RawHttp;
import org.loommpm.testsupport.TestServers;

/** Graceful restart by generation: new config in effect, no request fails, old children exit. */
class GracefulRestartTest {
    private static Handler answer(String text) {
        return (req, res) -> {
            Thread.sleep(2); // keep requests in flight across the restart
            res.send(text);
        };
    }

    @Test
    void restartsUnderLoadWithoutFailingARequest() throws Exception {
        try (LoomServer server = TestServers.start(answer("gen1"),
                c -> c.startServers(2).pollersPerChild(1).keepAliveTimeout(Duration.ofSeconds(1)))) {
            int port = server.port();
            AtomicBoolean running = new AtomicBoolean(true);
            AtomicInteger ok = new AtomicInteger();
            List<String> failures = new ArrayList<>();
            ConcurrentHashMap<String, Boolean> seen = new ConcurrentHashMap<>();
            List<Thread> clients = new ArrayList<>();
            for (int t = 0; t < 6; t++) {
                int id = t;
                clients.add(Thread.ofPlatform().start(() -> {
                    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
                    long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
                    while (running.get() && System.nanoTime() < end) {
                        try {
                            String body;
                            if (id % 2 == 0) {
                                body = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/"))
                                        .build(), HttpResponse.BodyHandlers.ofString()).body();
                            } else {
                                try (RawHttp c = new RawHttp(port)) {
                                    c.send("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
                                    body = c.read().text();
                                }
                            }
                            seen.put(body, true);
                            ok.incrementAndGet();
                        } catch (Exception e) {
                            synchronized (failures) {
                                failures.add(e.toString());
                            }
                        }
                    }
                }));
            }
            TestServers.waitFor("load running on generation 1", 20, () -> seen.containsKey("gen1") && ok.get() > 20);
            ServerConfig base = server.config();
            for (int gen = 2; gen <= 4; gen++) {
                server.restart(base.toBuilder().clearListen().listen(new InetSocketAddress("127.0.0.1", port))
                        .build(), answer("gen" + gen));
                assertEquals(gen, server.stats().generation());
                // A count, not a sleep: the load goes on across each restart and reaches the new generation.
                int before = ok.get();
                String now = "gen" + gen;
                TestServers.waitFor("load served by " + now, 20, () -> seen.containsKey(now) && ok.get() >= before + 30);
            }
            TestServers.waitFor("a fresh connection sees generation 4", 10, () -> {
                try (RawHttp c = new RawHttp(port)) {
                    c.send("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
                    return c.read().text().equals("gen4");
                } catch (Exception e) {
                    return false;
                }
            });
            running.set(false);
            for (Thread t : clients) {
                t.join();
            }
            assertEquals(List.of(), failures, "no request may fail across graceful restarts");
            assertTrue(ok.get() > 100, "load ran: " + ok.get());
            assertTrue(seen.containsKey("gen1") && seen.containsKey("gen4"), "saw " + seen.keySet());
            TestServers.waitFor("old generations exited", 20, () -> EngineStats.of(server.stats()).children().stream()
                    .allMatch(c -> c.generation() == 4));
            assertEquals(2, EngineStats.of(server.stats()).children().size());
            assertTrue(EngineStats.of(server.stats()).children().stream().allMatch(ChildStats::accepting));
        }
    }

    @Test
    void restartBindsNewAddressesAndClosesRemovedOnes() throws Exception {
        try (LoomServer server = TestServers.start(answer("a"))) {
            int first = server.port();
            ServerConfig next = server.config().toBuilder().clearListen()
                    .listen(new InetSocketAddress("127.0.0.1", 0)).build();
            server.restart(next, answer("b"));
            int second = server.port();
            assertTrue(second != first);
            try (RawHttp c = new RawHttp(second)) {
                c.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
                assertEquals("b", c.read().text());
            }
            assertThrows(ConnectException.class, () -> new RawHttp(first).close(), "removed listener is closed");
        }
    }

    /**
     * A connection the kernel had already accepted on a listener the new configuration drops
     * (queued in its backlog while admission control held it) is served, not reset when the
     * restart closes that listener.
     */
    @Test
    void aConnectionQueuedOnARemovedListenerIsServedNotReset() throws Exception {
        java.util.concurrent.CountDownLatch running = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        Handler gen1 = (req, res) -> {
            if (req.path().equals("/slow")) {
                running.countDown();
                release.await();
            }
            res.send("a");
        };
        try (LoomServer server = TestServers.start(gen1, c -> c.startServers(1).threadsPerChild(1)
                .admission(new AdmissionSettings(1)))) {
            int first = server.port();
            RawHttp busy = new RawHttp(first);
            busy.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n");
            assertTrue(running.await(10, java.util.concurrent.TimeUnit.SECONDS));
            TestServers.waitFor("admission off: the child holds its one connection", 10, () -> EngineStats.of(server.stats())
                    .children().stream().noneMatch(ChildStats::admissionOpen));
            // Connected by the kernel, waiting in the backlog: no child accepts while admission is off.
            try (RawHttp queued = new RawHttp(first)) {
                queued.send("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
                server.restart(server.config().toBuilder().clearListen()
                        .listen(new InetSocketAddress("127.0.0.1", 0)).build(), answer("b"));
                release.countDown();
                RawHttp.Response r = queued.read();
                assertEquals(200, r.status());
                assertEquals("b", r.text());
            } finally {
                release.countDown();
                busy.close();
            }
            assertThrows(ConnectException.class, () -> new RawHttp(first).close(), "removed listener is closed");
        }
    }

    @Test
    void aRestartThatCannotBindKeepsTheOldGenerationServing() throws Exception {
        try (LoomServer server = TestServers.start(answer("old"));
             java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            ServerConfig bad = server.config().toBuilder()
                    .listen(new InetSocketAddress("127.0.0.1", taken.getLocalPort())).build();
            assertThrows(java.io.IOException.class, () -> server.restart(bad, answer("new")));
            assertEquals(1, server.stats().generation());
            try (RawHttp c = new RawHttp(server.port())) {
                c.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
                assertEquals("old", c.read().text());
            }
        }
    }
}
