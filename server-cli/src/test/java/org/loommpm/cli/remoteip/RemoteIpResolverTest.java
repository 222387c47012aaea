package org.loommpm.cli.remoteip;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.loommpm.cli.access.IpRange;

/** mod_remoteip's walk, case by case (the rules of remoteip_modify_request). */
class RemoteIpResolverTest {
    private static InetAddress ip(String s) throws Exception {
        return InetAddress.getByName(s);
    }

    private static RemoteIpSettings.Proxy trusted(String range) {
        return new RemoteIpSettings.Proxy(IpRange.parse(range), false);
    }

    private static RemoteIpSettings.Proxy internal(String range) {
        return new RemoteIpSettings.Proxy(IpRange.parse(range), true);
    }

    @Test
    void aTrustedPeerPresentsTheRightmostAddress() throws Exception {
        var r = new RemoteIpResolver(List.of(trusted("198.51.100.10"))).resolve(ip("198.51.100.10"),
                "203.0.113.1, 203.0.113.2");
        assertEquals(ip("203.0.113.2"), r.client());
        assertEquals("203.0.113.1", r.remaining(), "the walk stops at an unlisted presenter; the rest stays");
        assertEquals(List.of("198.51.100.10"), r.trustedProxies());
    }

    @Test
    void anUntrustedPeerChangesNothing() throws Exception {
        var r = new RemoteIpResolver(List.of(trusted("198.51.100.10"))).resolve(ip("203.0.113.99"), "203.0.113.1");
        assertNull(r.client());
        assertEquals("203.0.113.1", r.remaining());
    }

    @Test
    void aChainOfListedProxiesIsWalkedToTheClient() throws Exception {
        var res = new RemoteIpResolver(List.of(trusted("198.51.100.0/24")));
        var r = res.resolve(ip("198.51.100.1"), "203.0.113.7, 198.51.100.3, 198.51.100.2");
        assertEquals(ip("203.0.113.7"), r.client());
        assertNull(r.remaining());
        assertEquals(List.of("198.51.100.1", "198.51.100.2", "198.51.100.3"), r.trustedProxies());
    }

    @Test
    void aTrustedProxyCannotVouchForAPrivateClientButAnInternalOneCan() throws Exception {
        var viaTrusted = new RemoteIpResolver(List.of(trusted("198.51.100.1"))).resolve(ip("198.51.100.1"), "10.1.2.3");
        assertNull(viaTrusted.client());
        var viaInternal = new RemoteIpResolver(List.of(internal("10.0.0.0/8"))).resolve(ip("10.0.0.1"), "192.168.1.5");
        assertEquals(ip("192.168.1.5"), viaInternal.client());
        assertTrue(viaInternal.trustedProxies().isEmpty(), "internal proxies are not recorded");
    }

    @Test
    void anInternalProxyMayPresentAnExternalOneNotTheOtherWayRound() throws Exception {
        var res = new RemoteIpResolver(List.of(internal("10.0.0.0/8"), trusted("198.51.100.0/24")));
        // LB 10.0.0.1 (internal) <- CDN 198.51.100.4 (trusted) <- client 203.0.113.8
        var r = res.resolve(ip("10.0.0.1"), "203.0.113.8, 198.51.100.4");
        assertEquals(ip("203.0.113.8"), r.client());
        assertEquals(List.of("198.51.100.4"), r.trustedProxies());
        // Behind the trusted CDN an "internal" address no longer counts as internal: 10.9.9.9 is private.
        var spoof = res.resolve(ip("198.51.100.4"), "10.9.9.9");
        assertNull(spoof.client());
    }

    @Test
    void withNoProxyListedEveryPeerIsAnExternalProxy() throws Exception {
        var res = new RemoteIpResolver(List.of());
        var r = res.resolve(ip("127.0.0.1"), "203.0.113.1, 203.0.113.2");
        assertEquals(ip("203.0.113.1"), r.client());
        assertNull(r.remaining());
        assertEquals(List.of("127.0.0.1", "203.0.113.2"), r.trustedProxies());
        assertNull(res.resolve(ip("127.0.0.1"), "192.168.0.1").client(), "private addresses are refused");
    }

    @Test
    void garbageAndHostNamesStopTheWalk() throws Exception {
        var res = new RemoteIpResolver(List.of(trusted("0.0.0.0/0")));
        var r = res.resolve(ip("198.51.100.1"), "203.0.113.1, example.com, 203.0.113.2");
        assertEquals(ip("203.0.113.2"), r.client());
        assertEquals("203.0.113.1, example.com", r.remaining());
        assertNull(res.resolve(ip("198.51.100.1"), " , ").client());
        assertNull(res.resolve(ip("198.51.100.1"), "203.0.113.1:443").client());
        assertNull(res.resolve(ip("198.51.100.1"), "1.2.3.999").client());
    }

    @Test
    void ipv6ClientsAndThePrivateRule() throws Exception {
        var res = new RemoteIpResolver(List.of(trusted("2001:db8::/32")));
        assertEquals(ip("2a00:1450::1"), res.resolve(ip("2001:db8::1"), "2a00:1450::1").client());
        assertNull(res.resolve(ip("2001:db8::1"), "fd00::1").client(), "ULA is outside 2000::/3");
        assertTrue(RemoteIpResolver.isPrivate(ip("172.31.0.1")));
        assertFalse(RemoteIpResolver.isPrivate(ip("172.32.0.1")));
    }
}
