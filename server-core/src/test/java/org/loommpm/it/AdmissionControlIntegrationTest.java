package org.loommpm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import org.loommpm.server.LoomServer;
import org.loommpm.engine.ChildStats;
import org.loommpm.engine.EngineStats;
import org.loommpm.testsupport.TestServers;

/**
 * ThreadsPerChild 4 and a handler parked on a latch: 32 clients saturate the pool, the listener
 * is switched off (seen through the stats), and after the release it is switched back on and
 * every client gets its 200.
 */
class AdmissionControlIntegrationTest {
    @Test
    void listenerGoesOffUnderSaturationAndBackOnAfterRelease() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger entered = new AtomicInteger();
        try (LoomServer server = TestServers.start((req, res) -> {
            entered.incrementAndGet();
            release.await();
            res.send("ok");
        }, c -> c.threadsPerChild(4).pollersPerChild(1))) {
            ChildStats child = EngineStats.of(server.stats()).children().get(0);
            assertTrue(child.admissionOpen());
            HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(30)).build();
            List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
            for (int i = 0; i < 32; i++) {
                calls.add(client.sendAsync(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + server.port() + "/slow/" + i))
                        .timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString()));
            }
            TestServers.waitFor("4 handlers running", 20, () -> entered.get() == 4);
            TestServers.waitFor("admission off", 20, () -> !child.admissionOpen());
            assertEquals(4, child.activeWorkers());
            assertEquals(0, child.idleWorkers());
            assertFalse(child.accepting());
            long transitionsWhileOff = child.admissionTransitions();
            assertTrue(transitionsWhileOff >= 1);

            release.countDown();
            for (CompletableFuture<HttpResponse<String>> f : calls) {
                HttpResponse<String> r = f.get(60, TimeUnit.SECONDS);
                assertEquals(200, r.statusCode());
                assertEquals("ok", r.body());
            }
            TestServers.waitFor("admission on again", 20, child::admissionOpen);
            assertTrue(child.admissionTransitions() >= transitionsWhileOff + 1);
            assertEquals(32, entered.get());
        }
    }
}
