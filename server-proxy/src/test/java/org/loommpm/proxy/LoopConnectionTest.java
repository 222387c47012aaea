package org.loommpm.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.loommpm.spi.EventLoop;

/**
 * A loop-owned backend connection apart from its loop: the sweeper's claim on an expired
 * deadline ({@link LoopConnection#expire}), which however many threads look at once reaches the
 * connection's loop exactly once, and the probe of an idle connection ({@link LoopConnection#stillOpen}).
 */
class LoopConnectionTest {

    /** A loop that only counts the tasks queued to it. */
    private static final class CountingLoop implements EventLoop {
        final Selector selector;
        final AtomicInteger tasks = new AtomicInteger();

        CountingLoop() throws IOException {
            selector = Selector.open();
        }

        @Override
        public SelectionKey register(SelectableChannel channel, int ops, Watcher watcher) throws IOException {
            return channel.register(selector, ops, watcher);
        }

        @Override
        public boolean execute(Runnable task) {
            tasks.incrementAndGet();
            return true;
        }

        @Override
        public boolean inLoop() {
            return true;
        }

        @Override
        public boolean hasEnded() {
            return false;
        }
    }

    /** A poller connection to {@code backend} from a pool of up to 4, owned by {@code loop}. */
    private static LoopConnection openTo(ServerSocket backend, CountingLoop loop) throws IOException {
        MemberPool pool = new MemberPool(new InetSocketAddress("127.0.0.1", backend.getLocalPort()), 4,
                60_000_000_000L, 1000, 1000, true);
        return LoopConnection.open(pool.loopPool(loop));
    }

    @Test
    void eachExpiryIsClaimedOnceUnderContention() throws Exception {
        try (ServerSocket backend = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            CountingLoop loop = new CountingLoop();
            LoopConnection c = openTo(backend, loop);
            int rounds = 2000;
            int threads = 8;
            for (int r = 0; r < rounds; r++) {
                long now = System.nanoTime();
                c.armDeadline(now - 1_000, 0); // already past
                CountDownLatch go = new CountDownLatch(1);
                Thread[] ts = new Thread[threads];
                for (int t = 0; t < threads; t++) {
                    ts[t] = Thread.ofPlatform().start(() -> {
                        try {
                            go.await();
                        } catch (InterruptedException e) {
                            return;
                        }
                        c.expire(now, Long.MAX_VALUE);
                    });
                }
                go.countDown();
                for (Thread t : ts) {
                    t.join();
                }
                assertEquals(r + 1, loop.tasks.get(), "round " + r + ": one task per expiry");
            }
            c.close();
            loop.selector.close();
        }
    }

    @Test
    void aProbeTellsAnOpenConnectionFromOneTheBackendClosed() throws Exception {
        try (ServerSocket backend = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            CountingLoop loop = new CountingLoop();
            LoopConnection c = openTo(backend, loop);
            try (java.net.Socket peer = backend.accept()) {
                loop.selector.selectNow();
                c.finishConnect();
                assertEquals(true, c.stillOpen(), "a live backend sent nothing");
            }
            long deadline = System.nanoTime() + 5_000_000_000L;
            boolean open = true;
            while (open && System.nanoTime() < deadline) {
                open = c.stillOpen();
                Thread.sleep(10);
            }
            assertEquals(false, open, "the backend's close is seen");
            c.close();
            loop.selector.close();
        }
    }
}
