package org.loommpm.auth;

import java.lang.System.Logger.Level;
import java.net.InetAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Failed logins, counted per client address: each failure is logged at INFO ({@code LM3004},
 * with the user and why: httpd's AH01617/AH01618), and an address reaching 10, 100, 1,000... failures
 * is logged once at WARNING for each ({@code LM3005}), which is what fail2ban-style tools and
 * operators watch for. The table holds at most {@value #LIMIT} addresses and is cleared when it
 * is full, so many addresses cannot grow it (the totals stay).
 *
 * <p><b>Threads.</b> Any thread: a concurrent map of atomic counters.
 */
public final class LoginFailures {
    private static final System.Logger LOG = System.getLogger("org.loommpm.auth");
    /** How many addresses are counted at most. */
    static final int LIMIT = 10_000;

    private final Map<InetAddress, AtomicLong> byAddress = new ConcurrentHashMap<>();
    private final LongAdder total = new LongAdder();

    /** Makes an empty count. */
    public LoginFailures() {
    }

    /**
     * Counts one failed login.
     *
     * @param client the client's address (after mod_remoteip where it applies)
     * @param user the user name sent, or null when none was
     * @param path the request's path
     * @param reason why it failed, for the log
     * @return the failures counted for this address so far
     */
    public long failed(InetAddress client, String user, String path, String reason) {
        total.increment();
        if (byAddress.size() >= LIMIT && !byAddress.containsKey(client)) {
            byAddress.clear();
        }
        long n = byAddress.computeIfAbsent(client, a -> new AtomicLong()).incrementAndGet();
        LOG.log(Level.INFO, "LM3004 login failed for user {0} from {1} on {2}: {3}",
                user == null ? "-" : user, client.getHostAddress(), path, reason);
        if (n >= 10 && isPowerOfTen(n)) {
            LOG.log(Level.WARNING, "LM3005 {0} failed logins from {1}", n, client.getHostAddress());
        }
        return n;
    }

    /**
     * {@return the failures counted for an address (0 when none, or since the table was cleared)}
     *
     * @param client the client's address
     */
    public long failures(InetAddress client) {
        AtomicLong n = byAddress.get(client);
        return n == null ? 0 : n.get();
    }

    /** {@return every failure counted since start} */
    public long total() {
        return total.sum();
    }

    private static boolean isPowerOfTen(long n) {
        while (n % 10 == 0) {
            n /= 10;
        }
        return n == 1;
    }
}
