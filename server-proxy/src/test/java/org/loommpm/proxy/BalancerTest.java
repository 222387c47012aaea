package org.loommpm.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Member choice: weights, busyness, hot standby, error state and its retry, sticky routes. No sockets. */
class BalancerTest {
    private static Member member(int port, int lf) {
        return Member.builder("http://127.0.0.1:" + port + "/").loadFactor(lf).build();
    }

    @Test
    void byRequestsFollowsLoadFactors() {
        try (Balancer b = Balancer.builder("w").member(member(1, 3)).member(member(2, 1)).build()) {
            int[] hits = new int[2];
            for (int i = 0; i < 400; i++) {
                hits[b.choose(null, 0)]++;
            }
            assertEquals(300, hits[0]);
            assertEquals(100, hits[1]);
        }
    }

    @Test
    void byBusynessPrefersTheLeastBusy() {
        try (Balancer b = Balancer.builder("b").member(member(1, 1)).member(member(2, 1)).member(member(3, 1))
                .lbMethod(LbMethod.BYBUSYNESS).build()) {
            b.member(0).busy.set(5);
            b.member(1).busy.set(1);
            b.member(2).busy.set(3);
            assertEquals(1, b.choose(null, 0));
            b.member(1).busy.set(9);
            assertEquals(2, b.choose(null, 0));
        }
    }

    @Test
    void hotStandbyOnlyWhenNoOtherIsUsableAndErrorStateEndsAfterRetry() throws Exception {
        Member a = Member.builder("http://127.0.0.1:1/").retry(Duration.ofMillis(200)).build();
        Member standby = Member.builder("http://127.0.0.1:2/").hotStandby(true).build();
        try (Balancer b = Balancer.builder("h").member(a).member(standby).build()) {
            for (int i = 0; i < 5; i++) {
                assertEquals(0, b.choose(null, 0));
            }
            a.markError(System.nanoTime());
            assertTrue(a.inError());
            assertEquals(1, b.choose(null, 0));
            assertEquals(-1, b.choose(null, 0b10), "none left once the standby was tried");
            Thread.sleep(250);
            assertFalse(a.inError(), "retry elapsed: usable again");
            assertEquals(0, b.choose(null, 0));
        }
    }

    @Test
    void disabledAndHealthFailedMembersAreSkipped() {
        Member off = Member.builder("http://127.0.0.1:1/").disabled(true).build();
        Member sick = member(2, 1);
        Member ok = member(3, 1);
        try (Balancer b = Balancer.builder("d").member(off).member(sick).member(ok).build()) {
            sick.hcFailed = true;
            for (int i = 0; i < 4; i++) {
                assertEquals(2, b.choose(null, 0));
            }
        }
    }

    @Test
    void stickyRouteWinsWhileUsableElseFailsOverUnlessNoFailover() {
        Member n1 = Member.builder("http://127.0.0.1:1/").route("n1").build();
        Member n2 = Member.builder("http://127.0.0.1:2/").route("n2").build();
        try (Balancer b = Balancer.builder("s").member(n1).member(n2).stickySession("JSESSIONID").build()) {
            for (int i = 0; i < 4; i++) {
                assertEquals(1, b.choose("n2", 0));
            }
            n2.markError(System.nanoTime());
            assertEquals(0, b.choose("n2", 0));
        }
        Member m1 = Member.builder("http://127.0.0.1:1/").route("n1").build();
        Member m2 = Member.builder("http://127.0.0.1:2/").route("n2").build();
        try (Balancer b = Balancer.builder("s").member(m1).member(m2).noFailover(true).build()) {
            m2.markError(System.nanoTime());
            assertEquals(-1, b.choose("n2", 0));
            assertEquals(0, b.choose(null, 0));
        }
    }

    @Test
    void maxAttemptsDefaultsToMembersMinusOne() {
        try (Balancer b = Balancer.builder("m").member(member(1, 1)).member(member(2, 1)).member(member(3, 1)).build()) {
            assertEquals(2, b.maxAttempts());
        }
    }
}
