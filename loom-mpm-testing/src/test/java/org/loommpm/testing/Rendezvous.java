package org.loommpm.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.loommpm.api.Handler;

/**
 * Parallel test classes do not collide: ParallelATest, ParallelBTest and ParallelCTest run at
 * once (junit-platform.properties runs classes concurrently), each with a server of its own. Each registers its base
 * URI, then waits until all three have: that can only happen if the three run at the same time
 * (run one after another, the first waits in vain and fails). Then each checks that the three
 * servers are up together on three different ports and that each answers with its own class's
 * handler.
 */
final class Rendezvous {
    static final int CLASSES = 3;
    static final Map<String, URI> BASES = new ConcurrentHashMap<>();
    static final CountDownLatch ALL_UP = new CountDownLatch(CLASSES);
    /** No class ends (and stops its server) before every class has asked every server. */
    static final CountDownLatch ALL_ASKED = new CountDownLatch(CLASSES);

    private Rendezvous() {
    }

    static Handler answer(String name) {
        return (req, res) -> res.send(name);
    }

    static void meetTheOthers(String self, URI base, HttpClient client) throws Exception {
        BASES.put(self, base);
        ALL_UP.countDown();
        assertTrue(ALL_UP.await(60, TimeUnit.SECONDS),
                "the three classes did not run concurrently: only " + BASES.keySet() + " started");
        assertEquals(CLASSES, BASES.values().stream().map(URI::getPort).distinct().count(), BASES.toString());
        try {
            for (Map.Entry<String, URI> e : BASES.entrySet()) {
                assertEquals(e.getKey(), Get.send(client, e.getValue()).body());
            }
        } finally {
            ALL_ASKED.countDown();
        }
        assertTrue(ALL_ASKED.await(60, TimeUnit.SECONDS), "a class did not finish asking the servers");
    }
}
