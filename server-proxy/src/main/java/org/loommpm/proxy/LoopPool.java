package org.loommpm.proxy;

import java.util.ArrayDeque;
import org.loommpm.spi.EventLoop;

/**
 * One event loop's idle connections to one member: reused most recent first, so a quiet period
 * lets the oldest ones reach the idle lifetime ({@code ttl}) and close. An idle connection stays
 * registered for reading, so a backend that closes it (its keep-alive timeout, a restart) is
 * seen at once and it leaves the pool: a request is rarely sent on a connection already closed.
 *
 * <p><b>Threads.</b> The deque is confined to the loop's thread (push and pop on top, expiry at
 * the bottom); {@link #idleCount} is written there and read by anyone (status, tests).
 */
final class LoopPool {
    private final MemberPool member;
    private final EventLoop loop;
    private final ArrayDeque<LoopConnection> idle = new ArrayDeque<>();
    private volatile int idleCount;

    LoopPool(MemberPool member, EventLoop loop) {
        this.member = member;
        this.loop = loop;
    }

    MemberPool member() {
        return member;
    }

    EventLoop loop() {
        return loop;
    }

    /** {@return the most recently used idle connection still open and within its idle lifetime, or null} */
    LoopConnection poll(long now) {
        LoopConnection c;
        while ((c = idle.peekLast()) != null && now - c.idleSince >= member.ttlNanos()) {
            idle.pollLast();
            c.close();
        }
        while ((c = idle.pollFirst()) != null && !c.isOpen()) {
            // closed from outside the loop (the balancer closed): skip it
        }
        idleCount = idle.size();
        return c;
    }

    /** Keeps a connection that ended an exchange cleanly, or closes it if the pool no longer keeps any. */
    void offer(LoopConnection c, long now) {
        if (!member.keeps() || !c.isOpen()) {
            c.close();
            return;
        }
        c.idleSince = now;
        idle.offerFirst(c);
        idleCount = idle.size();
    }

    /** An idle connection closed (by its backend, or past its lifetime): it leaves the pool. */
    void remove(LoopConnection c) {
        if (idle.remove(c)) {
            idleCount = idle.size();
        }
    }

    /** Closes every idle connection (the balancer closed). The loop's thread. */
    void drain() {
        LoopConnection c;
        while ((c = idle.pollFirst()) != null) {
            c.close();
        }
        idleCount = 0;
    }

    int idleCount() {
        return idleCount;
    }
}
