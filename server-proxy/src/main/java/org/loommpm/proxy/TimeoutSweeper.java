package org.loommpm.proxy;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * Enforces {@code ProxyTimeout} on a balancer's backend connections: every tick it closes the
 * connections whose blocking read or write has waited past its deadline, which ends that call
 * with a {@link java.net.SocketTimeoutException} on the lessee's side. Deadlines are checked
 * every {@code timeout / 4} (at least 10 ms, at most 100 ms), so a timeout fires up to one tick
 * late. One virtual thread per balancer ({@code loom-proxy-timeouts-NAME}); it only reads the
 * connections' deadlines and closes channels, which is safe from any thread.
 */
final class TimeoutSweeper {
    private final Thread thread;
    private volatile boolean stopped;

    TimeoutSweeper(Balancer b, Duration shortest) {
        long tick = Math.clamp(shortest.toNanos() / 4, 10_000_000L, 100_000_000L);
        this.thread = Thread.ofVirtual().name("loom-proxy-timeouts-" + b.name()).start(() -> {
            while (!stopped) {
                LockSupport.parkNanos(tick);
                long now = System.nanoTime();
                for (Member m : b.members()) {
                    m.pool().expire(now);
                }
            }
        });
    }

    void stop() {
        stopped = true;
        LockSupport.unpark(thread);
    }
}
