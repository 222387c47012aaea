package org.loommpm.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.loommpm.server.LoomServer;

/** Active health checks take a member out after hcfails failures and back after hcpasses passes. */
class HealthCheckTest {
    @Test
    void failingChecksTakeAMemberOutAndPassingOnesBringItBack() throws Exception {
        AtomicInteger healthStatus = new AtomicInteger(200);
        AtomicInteger probes = new AtomicInteger();
        try (LoomServer a = Backends.start((req, res) -> {
            if (req.path().equals("/health")) {
                probes.incrementAndGet();
                res.status(healthStatus.get()).send("h");
            } else {
                res.send("a");
            }
        });
             LoomServer b = Backends.start((req, res) -> res.send("b"))) {
            HealthCheck hc = HealthCheck.of("GET", "health").interval(Duration.ofMillis(50)).thresholds(2, 2)
                    .expect(s -> s == 200, "200");
            Member ma = Member.builder(Backends.url(a)).healthCheck(hc).build();
            try (Balancer bal = Balancer.builder("hc").member(ma).member(Backends.url(b)).build();
                 LoomServer front = Backends.start(ProxyHandler.builder("/", bal).build())) {
                waitFor(() -> probes.get() >= 2);
                assertFalse(ma.inError());
                healthStatus.set(503);
                waitFor(ma::inError);
                for (int i = 0; i < 5; i++) {
                    assertEquals("b", Backends.get(front, "/").body());
                }
                healthStatus.set(200);
                waitFor(() -> !ma.inError());
                boolean sawA = false;
                for (int i = 0; i < 4; i++) {
                    sawA |= Backends.get(front, "/").body().equals("a");
                }
                assertTrue(sawA);
            }
        }
    }

    @Test
    void tcpCheckNoticesAClosedPort() throws Exception {
        LoomServer a = Backends.start((req, res) -> res.send("a"));
        Member ma = Member.builder(Backends.url(a))
                .healthCheck(HealthCheck.of("TCP", "").interval(Duration.ofMillis(50))).build();
        try (Balancer bal = Balancer.builder("tcp").member(ma).build()) {
            Thread.sleep(150);
            assertFalse(ma.inError());
            a.close();
            waitFor(ma::inError);
        }
    }

    private static void waitFor(BooleanSupplier c) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!c.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("condition not reached in 20 s");
            }
            Thread.sleep(10);
        }
    }
}
