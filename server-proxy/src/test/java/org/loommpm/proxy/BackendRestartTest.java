package org.loommpm.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.loommpm.api.Handler;
import org.loommpm.server.LoomServer;

/**
 * A member stopped and restarted while a bounded load of GETs runs through a two-member balancer:
 * not one GET is lost (stale pooled connections are retried, refused connects fail over, the
 * member comes back after its retry time).
 */
class BackendRestartTest {
    @Test
    void noIdempotentGetIsLostWhileAMemberRestarts() throws Exception {
        Handler answer = (req, res) -> res.send("ok " + req.localAddress().getPort());
        LoomServer a = Backends.start(answer);
        int aPort = a.port();
        AtomicInteger done = new AtomicInteger();
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        try (LoomServer b = Backends.start(answer);
             Balancer bal = Balancer.builder("r")
                     .member(Member.builder(Backends.url(a)).retry(Duration.ofMillis(300)).build())
                     .member(Member.builder(Backends.url(b)).retry(Duration.ofMillis(300)).build()).build();
             LoomServer front = Backends.start(ProxyHandler.builder("/", bal).build())) {
            int clients = 8;
            int perClient = 400;
            List<Thread> threads = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                threads.add(Thread.ofVirtual().start(() -> {
                    for (int i = 0; i < perClient; i++) {
                        try {
                            var r = Backends.get(front, "/x");
                            if (r.statusCode() != 200) {
                                failures.add(r.statusCode() + " " + r.body());
                            }
                        } catch (Exception e) {
                            failures.add(e.toString());
                        }
                        done.incrementAndGet();
                    }
                }));
            }
            while (done.get() < clients * perClient / 4) {
                Thread.sleep(5);
            }
            a.close();
            int atStop = done.get();
            while (done.get() < atStop + 200) {
                Thread.sleep(5);
            }
            LoomServer again = Backends.start(answer, aPort);
            try {
                for (Thread t : threads) {
                    t.join(Duration.ofSeconds(120));
                }
                assertEquals(List.of(), List.copyOf(failures));
                assertEquals(clients * perClient, done.get());
                assertTrue(atStop < clients * perClient, "the stop happened during the load");
            } finally {
                again.close();
            }
        }
    }
}
