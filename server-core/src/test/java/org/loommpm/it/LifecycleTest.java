package org.loommpm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.loommpm.server.LoomServer;
import org.loommpm.engine.ChildStats;
import org.loommpm.engine.EngineStats;
import org.loommpm.testsupport.RawHttp;
import org.loommpm.testsupport.TestServers;

/** Graceful stop and child replacement lose no request. */
class LifecycleTest {
    /**
     * The handlers answer only once the stop has begun (every child draining), so each response
     * is one the stop found in flight; a handler that slept instead could answer before the stop
     * on a busy machine, without {@code Connection: close}.
     */
    @Test
    void gracefulStopLetsInFlightRequestsComplete() throws Exception {
        CountDownLatch inHandler = new CountDownLatch(20);
        CountDownLatch release = new CountDownLatch(1);
        LoomServer server = TestServers.start((req, res) -> {
            inHandler.countDown();
            release.await();
            res.send("done");
        }, c -> c.gracefulShutdownTimeout(Duration.ofSeconds(20)));
        List<CompletableFuture<RawHttp.Response>> calls = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            calls.add(CompletableFuture.supplyAsync(() -> {
                try (RawHttp c = new RawHttp(server.port(), 20_000)) {
                    c.send("GET /work HTTP/1.1\r\nHost: x\r\n\r\n");
                    return c.read();
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            }, Thread::startVirtualThread));
        }
        assertTrue(inHandler.await(20, TimeUnit.SECONDS));
        int port = server.port();
        FutureTask<Long> stop = new FutureTask<>(() -> {
            long t0 = System.nanoTime();
            server.close();
            return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        });
        try {
            Thread.ofPlatform().start(stop);
            TestServers.waitFor("the stop began", 10,
                    () -> EngineStats.of(server.stats()).children().stream().allMatch(ChildStats::draining));
        } finally {
            release.countDown();
        }
        long stopMs = stop.get(20, TimeUnit.SECONDS);
        for (CompletableFuture<RawHttp.Response> f : calls) {
            RawHttp.Response r = f.get(20, TimeUnit.SECONDS);
            assertEquals(200, r.status());
            assertEquals("done", r.text());
            assertEquals("close", r.header("Connection"), "in-flight responses tell the client the connection ends");
        }
        assertTrue(stopMs < 15_000, "stop waited for the requests, not for the timeout: " + stopMs + " ms");
        assertEquals(0, server.stats().connectionsOpen());
        try (RawHttp c = new RawHttp(port, 2_000)) {
            throw new AssertionError("listener still open after stop");
        } catch (ConnectException expected) {
            // refused: the listener is closed
        }
    }

    @Test
    void gracefulStopClosesIdleKeepAliveAndForceClosesAfterTheTimeout() throws Exception {
        CountDownLatch never = new CountDownLatch(1);
        CountDownLatch entered = new CountDownLatch(1);
        LoomServer server = TestServers.start((req, res) -> {
            if (req.path().equals("/stuck")) {
                entered.countDown();
                never.await();
            }
            res.send("ok");
        }, c -> c.gracefulShutdownTimeout(Duration.ofMillis(500)));
        try (RawHttp idle = new RawHttp(server.port()); RawHttp stuck = new RawHttp(server.port())) {
            idle.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
            assertEquals(200, idle.read().status());
            stuck.send("GET /stuck HTTP/1.1\r\nHost: x\r\n\r\n");
            assertTrue(entered.await(10, TimeUnit.SECONDS));
            server.close();
            assertTrue(idle.closedByServer(), "idle keep-alive connection closed by the stop");
            assertTrue(stuck.closedByServer(), "a request past GracefulShutdownTimeout is cut off");
            assertEquals(0, server.stats().connectionsOpen());
        } finally {
            never.countDown();
        }
    }

    @Test
    void maxConnectionsPerChildReplacesChildrenWithoutFailingARequest() throws Exception {
        AtomicInteger served = new AtomicInteger();
        try (LoomServer server = TestServers.start((req, res) -> {
            served.incrementAndGet();
            res.send("n");
        }, c -> c.maxConnectionsPerChild(25).startServers(2).threadsPerChild(16).pollersPerChild(1))) {
            int clients = 8;
            int perClient = 150;
            AtomicInteger failures = new AtomicInteger();
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < clients; t++) {
                int id = t;
                threads.add(Thread.ofPlatform().start(() -> {
                    // Half the clients use keep-alive through the JDK client, half open a
                    // connection per request.
                    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
                    for (int i = 0; i < perClient; i++) {
                        try {
                            if (id % 2 == 0) {
                                HttpResponse<String> r = http.send(HttpRequest.newBuilder(
                                        URI.create("http://127.0.0.1:" + server.port() + "/")).build(),
                                        HttpResponse.BodyHandlers.ofString());
                                if (r.statusCode() != 200) {
                                    failures.incrementAndGet();
                                }
                            } else {
                                try (RawHttp c = new RawHttp(server.port())) {
                                    c.send("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
                                    if (c.read().status() != 200) {
                                        failures.incrementAndGet();
                                    }
                                }
                            }
                        } catch (Exception e) {
                            failures.incrementAndGet();
                        }
                    }
                }));
            }
            for (Thread t : threads) {
                t.join();
            }
            assertEquals(0, failures.get(), "no request may fail while children are replaced");
            assertEquals(clients * perClient, served.get());
            int maxChildId = EngineStats.of(server.stats()).children().stream().mapToInt(ChildStats::id).max().orElse(0);
            assertTrue(maxChildId > 4, "children were retired and replaced (highest child id " + maxChildId + ")");
            TestServers.waitFor("two accepting children remain", 20, () -> EngineStats.of(server.stats()).children().stream()
                    .filter(ChildStats::accepting).count() == 2);
        }
    }
}
