package org.loommpm.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.loommpm.config.ServerConfig;
import org.loommpm.protocol.Protocols;

/**
 * A graceful stop that overlaps the start of a replacement child (one retired at
 * MaxConnectionsPerChild) still ends every child: none is left running its pollers after the stop.
 */
class StopDuringReplacementTest {
    @Test
    void aReplacementAddedWhileTheStopBeginsIsStoppedToo() throws Exception {
        AtomicReference<Supervisor> sup = new AtomicReference<>();
        List<Child> created = new CopyOnWriteArrayList<>();
        CountDownLatch replacing = new CountDownLatch(1);
        // The replacement is created (its listeners registered) before the stop, then its thread is
        // descheduled until the stop has taken its list of children: the narrow window, widened.
        ChildFactory slowReplacement = (id, g, s) -> {
            Child c = ChildFactory.CHILDREN.create(id, g, s);
            created.add(c);
            if (created.size() > 1) {
                replacing.countDown();
                while (!sup.get().isStopping()) {
                    LockSupport.parkNanos(1_000_000);
                }
                long end = System.nanoTime() + 300_000_000L;
                while (System.nanoTime() - end < 0) {
                    LockSupport.parkNanos(10_000_000); // an interrupt must not shorten the window
                }
            }
            return c;
        };
        ServerConfig config = ServerConfig.builder().listen(new InetSocketAddress("127.0.0.1", 0))
                .startServers(1).maxConnectionsPerChild(1).gracefulShutdownTimeout(Duration.ofSeconds(5)).build();
        Supervisor supervisor = new Supervisor(config,
                Protocols.initial(config, (req, res) -> res.send("ok"), null), slowReplacement);
        sup.set(supervisor);
        supervisor.start();
        int port = supervisor.boundAddresses().get(0).getPort();
        assertTrue(SupervisorHarness.get(port, 5_000).startsWith("HTTP/1.1 200"));
        assertTrue(replacing.await(10, TimeUnit.SECONDS), "the retired child's replacement is being created");
        supervisor.stop(Duration.ofSeconds(5));
        assertEquals(2, created.size());
        SupervisorHarness.waitFor("every child's pollers have ended after the stop", 5,
                () -> created.stream().allMatch(c -> c.exited().isDone()));
        assertTrue(supervisor.children().isEmpty(), "children left: " + supervisor.children());
    }
}
