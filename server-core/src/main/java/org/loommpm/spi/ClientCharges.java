package org.loommpm.spi;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * The CPU one child spends for each client address, as a token bucket of work units per address
 * (issue #50 item 4): decoding oversized header blocks, inflating, TLS handshakes. An address
 * earns {@code rate} units a second up to {@code burst}; work is charged after it is admitted.
 * While the balance is positive the address is {@link Verdict#WITHIN} its share; in debt up to one
 * burst it is {@link Verdict#SLOW} (the caller slows the connection: {@link #pauseNanos}); deeper
 * in debt it is refused ({@link Verdict#REFUSE}: the caller closes the connection) and is charged
 * nothing more, so it works again as soon as it earned a little back: over time an address gets
 * {@code rate} units a second and no more. The first refusal of an <em>episode</em> (from a
 * balance that was last positive) is {@link Verdict#FIRST_REFUSAL}: the caller logs that one.
 *
 * <p>The client address is the one the connection reports ({@code ProtocolConnection
 * .remoteAddress()}: after a PROXY protocol header, and mod_remoteip's), an IPv6 address reduced
 * to its /64 (a subscriber's prefix; one host has billions of addresses).
 *
 * <p><b>Bounded.</b> At most {@code tableSize} accounts: each of {@value #STRIPES} stripes keeps
 * its share in access order and forgets its least recently charged address when a new one comes,
 * so an attacker with many addresses cannot grow the table (it can only make the table forget,
 * which gives each of its addresses one burst, no more than a new address has).
 *
 * <p><b>Threads.</b> Any thread charges (the workers of the child's connections). The table is
 * striped by address hash; a stripe's lock guards only its map and accounts for a few
 * arithmetic operations, never I/O, so it is a {@link ReentrantLock}, not {@code synchronized}.
 */
public final class ClientCharges {
    /** Stripes of the table (a power of two). */
    static final int STRIPES = 16;

    /** What a charge means for the connection that asked. */
    public enum Verdict {
        /** The address is within its share. */
        WITHIN,
        /** In debt: slow the connection down for {@link #pauseNanos}. */
        SLOW,
        /** Far in debt: close the connection (nothing was charged). */
        REFUSE,
        /** {@link #REFUSE}, the first of this address's episode: log it. */
        FIRST_REFUSAL;

        /** {@return whether the connection is to be closed} */
        public boolean refused() {
            return this == REFUSE || this == FIRST_REFUSAL;
        }
    }

    /** Charging nothing: every address is always within its share. */
    public static final ClientCharges OFF = new ClientCharges(0, 1, 64);

    private final double ratePerNano;
    private final double burst;
    private final int perStripe;
    private final LongSupplier nanoClock;
    private final Stripe[] stripes = new Stripe[STRIPES];

    /**
     * A table on the system's clock.
     *
     * @param ratePerSecond units an address earns back a second (0 = charging off)
     * @param burst units an address may spend at once
     * @param tableSize the most addresses kept
     */
    public ClientCharges(long ratePerSecond, long burst, int tableSize) {
        this(ratePerSecond, burst, tableSize, new NanoTime());
    }

    /**
     * A table on a given clock (tests).
     *
     * @param ratePerSecond units an address earns back a second (0 = charging off)
     * @param burst units an address may spend at once
     * @param tableSize the most addresses kept
     * @param nanoClock the time in nanoseconds ({@link System#nanoTime} but in tests)
     */
    public ClientCharges(long ratePerSecond, long burst, int tableSize, LongSupplier nanoClock) {
        this.ratePerNano = ratePerSecond / 1e9;
        this.burst = burst;
        this.perStripe = Math.max(1, tableSize / STRIPES);
        this.nanoClock = nanoClock;
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new Stripe(perStripe);
        }
    }

    /**
     * Charges {@code units} of work done (or about to be done) for {@code client}.
     *
     * @param client the connection's client address ({@code null}: not charged)
     * @param units the work, in units (see {@code config.ClientChargeSettings})
     * @return what the connection is to do
     */
    public Verdict charge(InetAddress client, long units) {
        if (ratePerNano == 0 || client == null) {
            return Verdict.WITHIN;
        }
        Object key = key(client);
        Stripe s = stripes[spread(key.hashCode()) & (STRIPES - 1)];
        long now = nanoClock.getAsLong();
        s.lock.lock();
        try {
            Account a = s.accounts.get(key);
            if (a == null) {
                a = new Account(burst, now);
                s.accounts.put(key, a);
            }
            a.refill(now, ratePerNano, burst);
            if (a.balance < -burst) {
                if (a.reported) {
                    return Verdict.REFUSE;
                }
                a.reported = true;
                return Verdict.FIRST_REFUSAL;
            }
            a.balance -= units;
            if (a.balance >= 0) {
                a.reported = false;
                return Verdict.WITHIN;
            }
            return Verdict.SLOW;
        } finally {
            s.lock.unlock();
        }
    }

    /**
     * {@return how long a {@link Verdict#SLOW} connection of {@code client} waits: until the
     * address is out of debt, at most {@code max} nanoseconds (0 when it is not in debt)}
     *
     * @param client the connection's client address
     * @param max the longest pause
     */
    public long pauseNanos(InetAddress client, long max) {
        if (ratePerNano == 0 || client == null) {
            return 0;
        }
        Object key = key(client);
        Stripe s = stripes[spread(key.hashCode()) & (STRIPES - 1)];
        s.lock.lock();
        try {
            Account a = s.accounts.get(key);
            if (a == null) {
                return 0;
            }
            a.refill(nanoClock.getAsLong(), ratePerNano, burst);
            return a.balance >= 0 ? 0 : (long) Math.min(max, -a.balance / ratePerNano);
        } finally {
            s.lock.unlock();
        }
    }

    /** {@return the addresses with an account now (at most {@link #capacity()}): the table's bound, for tests} */
    public int size() {
        int n = 0;
        for (Stripe s : stripes) {
            s.lock.lock();
            try {
                n += s.accounts.size();
            } finally {
                s.lock.unlock();
            }
        }
        return n;
    }

    /** {@return the most addresses kept} */
    public int capacity() {
        return perStripe * STRIPES;
    }

    /** An IPv4 address as it is; an IPv6 address as its /64 (a {@code Long}). */
    private static Object key(InetAddress client) {
        if (client instanceof Inet6Address) {
            byte[] b = client.getAddress();
            long prefix = 0;
            for (int i = 0; i < 8; i++) {
                prefix = (prefix << 8) | (b[i] & 0xFF);
            }
            return prefix;
        }
        return client;
    }

    private static int spread(int h) {
        return h ^ (h >>> 16) ^ (h >>> 8);
    }

    /** The system's clock; a class, not a method reference: nothing on the way to the first answer bootstraps one. */
    private static final class NanoTime implements LongSupplier {
        @Override
        public long getAsLong() {
            return System.nanoTime();
        }
    }

    /** One stripe: its lock and its accounts in access order, the eldest forgotten past its share. */
    private static final class Stripe {
        final ReentrantLock lock = new ReentrantLock();
        final LinkedHashMap<Object, Account> accounts;

        Stripe(int max) {
            accounts = new LinkedHashMap<>(16, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<Object, Account> eldest) {
                    return size() > max;
                }
            };
        }
    }

    /** One address's bucket; guarded by its stripe's lock. */
    private static final class Account {
        double balance;
        long last;
        /** Whether this episode's first refusal was reported. */
        boolean reported;

        Account(double burst, long now) {
            this.balance = burst;
            this.last = now;
        }

        void refill(long now, double ratePerNano, double burst) {
            long elapsed = now - last;
            if (elapsed > 0) {
                balance = Math.min(burst, balance + elapsed * ratePerNano);
                last = now;
            }
        }
    }
}
