package org.loommpm.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.loommpm.server.LoomServer;
import org.loommpm.engine.ChildStats;
import org.loommpm.engine.EngineStats;
import org.loommpm.testsupport.RawHttp;
import org.loommpm.testsupport.TestServers;

/** 2,000 idle keep-alive connections hold no worker and no context. */
class IdleKeepAliveTest {
    @Test
    void idleKeepAliveConnectionsHoldNoWorkerAndNoContext() throws Exception {
        try (LoomServer server = TestServers.start((req, res) -> res.send("hi"),
                c -> c.keepAliveTimeout(java.time.Duration.ofSeconds(60)).threadsPerChild(64))) {
            List<RawHttp> conns = new ArrayList<>();
            try {
                for (int i = 0; i < 2000; i++) {
                    RawHttp c = new RawHttp(server.port());
                    conns.add(c);
                    c.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
                }
                for (RawHttp c : conns) {
                    assertEquals("hi", c.read().text());
                }
                ChildStats child = EngineStats.of(server.stats()).children().get(0);
                TestServers.waitFor("workers idle", 20, () -> child.activeWorkers() == 0 && child.contextsHeld() == 0);
                assertEquals(2000, child.openConnections());
                assertEquals(0, child.activeWorkers());
                assertEquals(0, child.pendingWorkers());
                assertEquals(0, child.contextsHeld());
                assertEquals(64, child.idleWorkers());
                // Still served: one more request on each of a sample of them.
                for (int i = 0; i < conns.size(); i += 100) {
                    conns.get(i).send("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
                    assertEquals(200, conns.get(i).read().status());
                }
            } finally {
                for (RawHttp c : conns) {
                    c.close();
                }
            }
            TestServers.waitFor("all closed", 20, () -> server.stats().connectionsOpen() == 0);
        }
    }
}
