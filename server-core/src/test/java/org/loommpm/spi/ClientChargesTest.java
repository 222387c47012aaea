package org.loommpm.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.loommpm.spi.ClientCharges.Verdict;

class ClientChargesTest {
    private final AtomicLong clock = new AtomicLong(1_000_000_000L);

    /** 1000 units a second, bursts of 10,000. */
    private ClientCharges table(int size) {
        return new ClientCharges(1000, 10_000, size, clock::get);
    }

    private static InetAddress ip(String s) throws UnknownHostException {
        return InetAddress.getByName(s);
    }

    @Test
    void anAddressIsWithinThenSlowedThenRefusedOncePerEpisode() throws Exception {
        ClientCharges t = table(64);
        InetAddress a = ip("192.0.2.1");
        assertEquals(Verdict.WITHIN, t.charge(a, 10_000));
        assertEquals(Verdict.SLOW, t.charge(a, 5_000));
        assertEquals(5_000_000_000L, t.pauseNanos(a, Long.MAX_VALUE), "5,000 units of debt at 1,000 a second");
        assertEquals(1_000_000_000L, t.pauseNanos(a, 1_000_000_000L), "bounded by the caller's maximum");
        assertEquals(Verdict.SLOW, t.charge(a, 5_001));
        assertEquals(Verdict.FIRST_REFUSAL, t.charge(a, 1));
        assertEquals(Verdict.REFUSE, t.charge(a, 1));
        assertEquals(Verdict.REFUSE, t.charge(a, 1), "a refusal charges nothing, so the debt does not grow");
        assertEquals(Verdict.WITHIN, t.charge(ip("192.0.2.2"), 1), "another address has its own share");

        clock.addAndGet(2_000_000L); // 2 units earned back: out of the refusal, still in debt
        assertEquals(Verdict.SLOW, t.charge(a, 100));
        assertEquals(Verdict.REFUSE, t.charge(a, 1), "the same episode: not logged again");

        clock.addAndGet(30_000_000_000L); // back to a full burst: the episode ended
        assertEquals(Verdict.WITHIN, t.charge(a, 1));
        assertEquals(Verdict.SLOW, t.charge(a, 30_000));
        assertEquals(Verdict.FIRST_REFUSAL, t.charge(a, 1), "a new episode is logged again");
    }

    @Test
    void ipv6AddressesAreChargedPerSlash64() throws Exception {
        ClientCharges t = table(64);
        assertEquals(Verdict.WITHIN, t.charge(ip("2001:db8::1"), 10_000));
        assertEquals(Verdict.SLOW, t.charge(ip("2001:db8::2"), 1), "the same /64");
        assertEquals(Verdict.WITHIN, t.charge(ip("2001:db8:0:1::1"), 1), "another /64");
    }

    @Test
    void chargingOffAdmitsEverything() throws Exception {
        InetAddress a = ip("192.0.2.1");
        for (int i = 0; i < 10; i++) {
            assertEquals(Verdict.WITHIN, ClientCharges.OFF.charge(a, Long.MAX_VALUE / 2));
        }
        assertEquals(0, ClientCharges.OFF.size());
    }

    @Test
    void manyAddressesCannotGrowTheTable() throws Exception {
        ClientCharges t = table(256);
        for (int i = 0; i < 100_000; i++) {
            byte[] b = {10, (byte) (i >> 16), (byte) (i >> 8), (byte) i};
            t.charge(InetAddress.getByAddress(b), 1);
        }
        assertTrue(t.size() <= t.capacity(), t.size() + " accounts");
        assertTrue(t.size() >= t.capacity() / 2, "the table is used: " + t.size());
        assertEquals(256, t.capacity());
    }

    @Test
    void concurrentChargesOfOneAddressAreAllCounted() throws Exception {
        // No refill (a stopped clock): 8 threads charging 1 unit each 5,000 times spend exactly
        // 40,000 units: 10,000 within, 10,000 slow, then refusals (which charge nothing).
        ClientCharges t = table(4096);
        InetAddress shared = ip("198.51.100.7");
        int threads = 8;
        int each = 5_000;
        long[][] verdicts = new long[threads][Verdict.values().length];
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> running = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            long[] mine = verdicts[i];
            int n = i;
            running.add(Thread.ofPlatform().start(() -> {
                try {
                    start.await();
                    for (int k = 0; k < each; k++) {
                        mine[t.charge(shared, 1).ordinal()]++;
                        // Other addresses in the same and other stripes, churning the table.
                        t.charge(InetAddress.getByAddress(new byte[] {10, 1, (byte) n, (byte) k}), 1);
                    }
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            }));
        }
        start.countDown();
        for (Thread th : running) {
            th.join();
        }
        long[] sum = new long[Verdict.values().length];
        for (long[] v : verdicts) {
            for (int i = 0; i < v.length; i++) {
                sum[i] += v[i];
            }
        }
        assertEquals(10_000, sum[Verdict.WITHIN.ordinal()]);
        assertEquals(10_001, sum[Verdict.SLOW.ordinal()], "down to one unit below minus a burst");
        assertEquals(1, sum[Verdict.FIRST_REFUSAL.ordinal()], "one episode, logged once");
        assertEquals(threads * each - 20_002, sum[Verdict.REFUSE.ordinal()]);
        assertTrue(t.size() <= t.capacity());
    }
}
