package org.loommpm.cli.access;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.loommpm.cli.access.Authz.Container;
import org.loommpm.cli.access.Authz.Result;

/** mod_authz_core's evaluation: granted, denied and neutral through providers, negations and containers. */
class AuthzTest {
    private static final Authz GRANT = Authz.all(true, false);
    private static final Authz DENY = Authz.all(false, false);
    /** {@code Require not all denied}: always neutral. */
    private static final Authz NEUTRAL = Authz.all(false, true);

    private static InetAddress ip(String literal) throws Exception {
        return InetAddress.getByName(literal);
    }

    private static Result check(Authz a, String client, String local, String method) throws Exception {
        InetAddress c = ip(client);
        return a.check(c.getAddress(), c, local == null ? null : ip(local), method, null, false);
    }

    private static Result as(Authz a, String user, Object unused) throws Exception {
        InetAddress c = ip("192.0.2.1");
        Login login = user == null ? null : new Login(user, null);
        return a.check(c.getAddress(), c, null, "GET", login, false);
    }

    private static Result check(Authz a) throws Exception {
        return check(a, "192.0.2.1", "192.0.2.100", "GET");
    }

    private static Authz ipOf(String range, boolean negate) {
        return Authz.ip(List.of(IpRange.parse(range)), negate);
    }

    @Test
    void aNegationRefusesWhatItMatchesAndHasNoSayOtherwise() throws Exception {
        assertEquals(Result.GRANTED, check(GRANT));
        assertEquals(Result.DENIED, check(DENY));
        assertEquals(Result.DENIED, check(Authz.all(true, true)), "not granted = denied");
        assertEquals(Result.NEUTRAL, check(NEUTRAL), "not denied = neutral, never granted");
        assertEquals(Result.DENIED, check(ipOf("192.0.2.0/24", true)));
        assertEquals(Result.NEUTRAL, check(ipOf("10.0.0.0/8", true)));
    }

    @Test
    void requireAllNeedsNoDenialAndOneGrant() throws Exception {
        assertEquals(Result.GRANTED, check(Authz.section(Container.ALL, List.of(GRANT, NEUTRAL))));
        assertEquals(Result.DENIED, check(Authz.section(Container.ALL, List.of(GRANT, DENY))));
        assertEquals(Result.DENIED, check(Authz.section(Container.ALL, List.of(NEUTRAL, DENY, GRANT))));
        assertEquals(Result.NEUTRAL, check(Authz.section(Container.ALL, List.of(NEUTRAL, NEUTRAL))),
                "nothing granted: neutral, not granted");
    }

    @Test
    void requireAnyNeedsOneGrant() throws Exception {
        assertEquals(Result.GRANTED, check(Authz.section(Container.ANY, List.of(DENY, GRANT))));
        assertEquals(Result.DENIED, check(Authz.section(Container.ANY, List.of(NEUTRAL, DENY))));
        assertEquals(Result.NEUTRAL, check(Authz.section(Container.ANY, List.of(NEUTRAL))));
    }

    @Test
    void requireNoneRefusesAGrantAndNeverGrants() throws Exception {
        assertEquals(Result.DENIED, check(Authz.section(Container.NONE, List.of(DENY, GRANT))));
        assertEquals(Result.NEUTRAL, check(Authz.section(Container.NONE, List.of(DENY, DENY))),
                "no child granted: neutral, which alone is a 403");
        assertFalse(new AccessRule(Authz.section(Container.NONE, List.of(DENY))).allows(ip("192.0.2.1"), null, "GET"),
                "only granted lets a request in");
        assertFalse(new AccessRule(NEUTRAL).allows(ip("192.0.2.1"), null, "GET"));
    }

    /** The classic "everyone except this block". */
    @Test
    void everyoneExceptABlock() throws Exception {
        AccessRule r = new AccessRule(Authz.section(Container.ALL, List.of(GRANT, ipOf("10.0.0.0/8", true))));
        assertTrue(r.allows(ip("192.0.2.1"), null, "GET"));
        assertFalse(r.allows(ip("10.9.8.7"), null, "GET"));
        assertFalse(r.allows(ip("::ffff:10.9.8.7"), null, "GET"), "an IPv4-mapped client is the IPv4 one");
    }

    /** mod_authz_host: a loopback client (all of 127.0.0.0/8, or ::1), or one at the connection's own address. */
    @Test
    void local() throws Exception {
        Authz local = Authz.local(false);
        assertEquals(Result.GRANTED, check(local, "127.0.0.1", "127.0.0.1", "GET"));
        assertEquals(Result.GRANTED, check(local, "127.3.2.1", "127.0.0.1", "GET"), "all of 127.0.0.0/8");
        assertEquals(Result.GRANTED, check(local, "::1", "::1", "GET"));
        assertEquals(Result.GRANTED, check(local, "192.0.2.7", "192.0.2.7", "GET"), "the server's own address");
        assertEquals(Result.GRANTED, check(local, "2001:db8::7", "2001:db8::7", "GET"));
        assertEquals(Result.DENIED, check(local, "192.0.2.7", "192.0.2.8", "GET"));
        assertEquals(Result.DENIED, check(local, "::2", "::1", "GET"));
        assertEquals(Result.DENIED, check(local, "128.0.0.1", "10.0.0.1", "GET"));
        assertTrue(local.usesLocalAddress());
        assertFalse(GRANT.usesLocalAddress());
    }

    /** httpd's method numbers: HEAD is GET's; names are case-sensitive; unregistered ones are refused. */
    @Test
    void method() throws Exception {
        Authz get = Authz.method(List.of("GET", "POST"), false);
        assertEquals(Result.GRANTED, check(get, "192.0.2.1", null, "GET"));
        assertEquals(Result.GRANTED, check(get, "192.0.2.1", null, "HEAD"));
        assertEquals(Result.GRANTED, check(get, "192.0.2.1", null, "POST"));
        assertEquals(Result.DENIED, check(get, "192.0.2.1", null, "PUT"));
        assertEquals(Result.DENIED, check(get, "192.0.2.1", null, "get"));
        assertEquals(Result.GRANTED, check(Authz.method(List.of("HEAD"), false), "192.0.2.1", null, "GET"));
        assertEquals(Result.GRANTED, check(Authz.method(List.of("PROPFIND"), false), "192.0.2.1", null, "PROPFIND"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Authz.method(List.of("get"), false))
                .getMessage().contains("case-sensitive"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Authz.method(List.of("FETCH"), false))
                .getMessage().startsWith("Invalid Method 'FETCH'"));
    }

    @Test
    void spelledAsHttpdSpellsIt() {
        Authz a = Authz.section(Container.ALL, List.of(GRANT, Authz.section(Container.NONE,
                List.of(ipOf("10.1", false), Authz.method(List.of("DELETE"), false)))));
        assertEquals("<RequireAll>[Require all granted, <RequireNone>[Require ip 10.1.0.0/16, Require method DELETE]]",
                a.toString());
    }

    /**
     * The check runs on every request: a tree without {@code ip} or {@code local} allocates
     * nothing, and one with them copies the client's address once per check however many
     * blocks it tests.
     */
    @Test
    void aCheckAllocatesAtMostTheAddressCopy() throws Exception {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        InetAddress client = ip("192.0.2.1");
        InetAddress local = ip("192.0.2.100");
        AccessRule noAddress = new AccessRule(Authz.section(Container.ALL, List.of(
                Authz.method(List.of("GET", "POST"), false), Authz.section(Container.ANY, List.of(DENY, GRANT)),
                Authz.section(Container.NONE, List.of(Authz.method(List.of("DELETE"), false))))));
        AccessRule withAddress = new AccessRule(Authz.section(Container.ALL, List.of(
                Authz.local(true), ipOf("10.0.0.0/8", true), ipOf("172.16.0.0/12", true),
                Authz.ip(List.of(IpRange.parse("2001:db8::/32"), IpRange.parse("192.0.2.0/24")), false))));
        int n = 20_000;
        for (AccessRule r : List.of(noAddress, withAddress)) {
            for (int i = 0; i < n; i++) {
                assertTrue(r.allows(client, local, "GET"));
            }
        }
        long id = Thread.currentThread().threadId();
        long before = mx.getThreadAllocatedBytes(id);
        boolean all = true;
        for (int i = 0; i < n; i++) {
            all &= noAddress.allows(client, local, "GET");
        }
        long noAddressBytes = mx.getThreadAllocatedBytes(id) - before;
        before = mx.getThreadAllocatedBytes(id);
        for (int i = 0; i < n; i++) {
            all &= withAddress.allows(client, local, "GET");
        }
        long withAddressBytes = mx.getThreadAllocatedBytes(id) - before;
        assertTrue(all);
        // Slack for the bean's own bookkeeping; a per-check allocation would be n times more.
        assertTrue(noAddressBytes < n, noAddressBytes + " bytes for " + n + " checks without addresses");
        assertTrue(withAddressBytes < 32L * n, withAddressBytes + " bytes for " + n + " checks: more than one 4-byte copy each");
    }

    @Test
    void userProvidersWantALoginAndCombineAsModAuthzCore() throws Exception {
        Authz alice = Authz.user(List.of("alice"), false);
        Authz valid = Authz.validUser(false);
        assertEquals(Result.DENIED_NO_USER, as(alice, null, null));
        assertEquals(Result.GRANTED, as(alice, "alice", null));
        assertEquals(Result.DENIED, as(alice, "bob", null));
        assertEquals(Result.GRANTED, as(valid, "bob", null));
        assertEquals(Result.DENIED_NO_USER, as(valid, null, null));
        // Any: an address that matches grants without a login; one that does not leaves "a user may change it".
        assertEquals(Result.GRANTED, as(Authz.section(Container.ANY, List.of(ipOf("192.0.2.0/24", false), valid)), null, null));
        assertEquals(Result.DENIED_NO_USER, as(Authz.section(Container.ANY, List.of(ipOf("10.0.0.0/8", false), valid)), null, null));
        assertEquals(Result.DENIED_NO_USER, as(Authz.section(Container.ANY, List.of(valid, ipOf("10.0.0.0/8", false))), null, null));
        // All: a denial no user can change wins over one a user could.
        assertEquals(Result.DENIED, as(Authz.section(Container.ALL, List.of(valid, ipOf("10.0.0.0/8", false))), null, null));
        assertEquals(Result.DENIED_NO_USER, as(Authz.section(Container.ALL, List.of(valid, ipOf("192.0.2.0/24", false))), null, null));
        assertEquals(Result.GRANTED, as(Authz.section(Container.ALL, List.of(valid, ipOf("192.0.2.0/24", false))), "bob", null));
        // A negated user provider can refuse a user, never grant, and is neutral before a login.
        assertEquals(Result.NEUTRAL, as(Authz.user(List.of("mallory"), true), null, null));
        assertEquals(Result.DENIED, as(Authz.user(List.of("mallory"), true), "mallory", null));
        assertEquals(Result.DENIED, as(Authz.section(Container.ALL, List.of(valid, Authz.user(List.of("mallory"), true))), "mallory", null));
        assertEquals(Result.GRANTED, as(Authz.section(Container.ALL, List.of(valid, Authz.user(List.of("mallory"), true))), "bob", null));
        assertEquals("Require valid-user", valid.toString());
        assertEquals("Require not user a b", Authz.user(List.of("a", "b"), true).toString());
        assertEquals(Result.DENIED_NO_USER, as(Authz.group(List.of("staff"), false), null, null));
        assertEquals(Result.DENIED, as(Authz.group(List.of("staff"), false), "bob", null), "no group file: no groups");
    }
}
