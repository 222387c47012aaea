package org.loommpm.http2.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.loommpm.engine.ChildStats;

/**
 * Fair admission over HTTP/2: two connections keep 100 streams each queued on a 50 ms handler
 * with ThreadsPerChild 4; a new connection's first stream waits in the pool's newcomer lane and
 * is served while most of the busy connections' streams still wait. With one FIFO it ran only
 * after every stream queued before it had started, leaving nothing of those pending.
 */
class NewcomerStreamTest {
    @Test
    void aNewConnectionsFirstStreamDoesNotQueueBehindBusyConnections() throws Exception {
        try (H2Server server = H2Server.start((req, res) -> {
            Thread.sleep(50);
            res.send("ok");
        }, s -> s, b -> b.threadsPerChild(4).pollersPerChild(1))) {
            ChildStats child = server.engine().children().get(0);
            List<FrameClient> busy = new ArrayList<>();
            try {
                for (int c = 0; c < 2; c++) {
                    FrameClient f = FrameClient.open(server.port());
                    busy.add(f);
                    for (int i = 0; i < 100; i++) {
                        f.headers(1 + 2 * i, true, FrameClient.get("/busy/" + i));
                    }
                }
                TestWait.until("the busy connections' streams queued", 20, () -> child.pendingWorkers() >= 150);
                try (FrameClient newcomer = FrameClient.open(server.port())) {
                    newcomer.headers(1, true, FrameClient.get("/first"));
                    assertEquals(200, newcomer.response(1).status());
                    int left = child.pendingWorkers();
                    assertTrue(left >= 100, "served with " + left + " of the busy connections' streams still pending");
                }
            } finally {
                for (FrameClient f : busy) {
                    f.close();
                }
            }
        }
    }
}
