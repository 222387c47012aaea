package org.loommpm.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.loommpm.config.ServerConfig;
import org.loommpm.protocol.Protocols;

/**
 * A drain that overlaps the start of a replacement child (one retired at MaxConnectionsPerChild)
 * retires that child too: once the drain's future completes, no child is left running its
 * (non-daemon) pollers, which would otherwise keep serving and keep the JVM alive.
 */
class DrainDuringReplacementTest {
    @Test
    void aReplacementAddedAfterTheDrainTookItsChildrenIsDrainedToo() throws Exception {
        List<Child> created = new CopyOnWriteArrayList<>();
        CountDownLatch replacing = new CountDownLatch(1);
        // The replacement is created (the listeners registered with its poller 0) before the drain,
        // and handed back only once the drain has closed the listeners, which it does after taking
        // its list of children: the replacement joins the children after that list, every run.
        ChildFactory slowReplacement = (id, g, s) -> {
            Child c = ChildFactory.CHILDREN.create(id, g, s);
            created.add(c);
            if (created.size() > 1) {
                replacing.countDown();
                long end = System.nanoTime() + 10_000_000_000L;
                while (g.listeners().stream().anyMatch(l -> l.channel().isOpen()) && System.nanoTime() - end < 0) {
                    LockSupport.parkNanos(1_000_000);
                }
            }
            return c;
        };
        ServerConfig config = ServerConfig.builder().listen(new InetSocketAddress("127.0.0.1", 0))
                .startServers(1).maxConnectionsPerChild(1).gracefulShutdownTimeout(Duration.ofSeconds(5)).build();
        Supervisor supervisor = new Supervisor(config,
                Protocols.initial(config, (req, res) -> res.send("ok"), null), slowReplacement);
        supervisor.start();
        try {
            int port = supervisor.boundAddresses().get(0).getPort();
            assertTrue(SupervisorHarness.get(port, 5_000).startsWith("HTTP/1.1 200"));
            assertTrue(replacing.await(10, TimeUnit.SECONDS), "the retired child's replacement is being created");
            CompletableFuture<Void> drained = supervisor.drain("test");
            drained.get(10, TimeUnit.SECONDS);
            assertEquals(2, created.size());
            for (Child c : created) {
                assertTrue(c.exited().isDone(), "child " + c.id() + " (" + c.state() + ", draining "
                        + c.isDraining() + ") still runs its pollers after the drain completed");
            }
            assertTrue(supervisor.children().isEmpty(), "children left: " + supervisor.children());
        } finally {
            supervisor.stop(Duration.ofSeconds(5));
        }
    }
}
