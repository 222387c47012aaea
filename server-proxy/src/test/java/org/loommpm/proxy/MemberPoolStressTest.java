package org.loommpm.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Many virtual threads lease and release connections of one pool at once: never more than
 * {@code max} are leased, each lease has the connection to itself, every released reusable
 * connection is reused, and none leaks (the backend sees at most {@code max} connections).
 */
class MemberPoolStressTest {
    @Test
    void concurrentLeasesRespectMaxAndNeverShareAConnection() throws Exception {
        int max = 4;
        AtomicInteger accepted = new AtomicInteger();
        try (ServerSocket backend = new ServerSocket(0)) {
            Thread acceptor = Thread.ofVirtual().start(() -> {
                try {
                    for (;;) {
                        Socket s = backend.accept();
                        accepted.incrementAndGet();
                        Thread.ofVirtual().start(() -> hold(s));
                    }
                } catch (IOException e) {
                    // closed at the end of the test
                }
            });
            MemberPool pool = new MemberPool(new java.net.InetSocketAddress("127.0.0.1", backend.getLocalPort()), max,
                    60_000_000_000L, 10_000, 5_000, true);
            AtomicInteger leased = new AtomicInteger();
            AtomicInteger maxLeased = new AtomicInteger();
            ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
            java.util.Set<BackendConnection> inUse = java.util.concurrent.ConcurrentHashMap.newKeySet();
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 32; t++) {
                threads.add(Thread.ofVirtual().start(() -> {
                    for (int i = 0; i < 500; i++) {
                        try {
                            MemberPool.Lease l = pool.lease(true);
                            int now = leased.incrementAndGet();
                            maxLeased.accumulateAndGet(now, Math::max);
                            if (!inUse.add(l.connection())) {
                                problems.add("a connection leased twice at once");
                            }
                            Thread.yield();
                            inUse.remove(l.connection());
                            leased.decrementAndGet();
                            pool.release(l.connection(), true);
                        } catch (Exception e) {
                            problems.add(e.toString());
                        }
                    }
                }));
            }
            for (Thread t : threads) {
                t.join();
            }
            assertEquals(List.of(), List.copyOf(problems));
            assertTrue(maxLeased.get() <= max, "leased at once: " + maxLeased.get());
            assertTrue(accepted.get() <= max, "connections made: " + accepted.get());
            assertEquals(accepted.get(), pool.idleCount(), "every connection is back in the pool");
            pool.close();
            assertEquals(0, pool.idleCount());
            acceptor.interrupt();
        }
    }

    private static void hold(Socket s) {
        try (s) {
            s.getInputStream().read();
        } catch (IOException e) {
            // the pool closed it
        }
    }
}
