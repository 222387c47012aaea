package org.loommpm.cli.access;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import org.junit.jupiter.api.Test;

class IpRangeTest {
    private static boolean in(String range, String addr) throws Exception {
        return IpRange.parse(range).contains(InetAddress.getByName(addr));
    }

    @Test
    void ipv4() throws Exception {
        assertTrue(in("127.0.0.1", "127.0.0.1"));
        assertFalse(in("127.0.0.1", "127.0.0.2"));
        assertTrue(in("10.0.0.0/8", "10.200.1.1"));
        assertFalse(in("10.0.0.0/8", "11.0.0.1"));
        assertTrue(in("192.168.1.77/26", "192.168.1.64"));
        assertFalse(in("192.168.1.77/26", "192.168.1.128"));
        assertTrue(in("10.1", "10.1.9.9"), "partial address = prefix, as in httpd");
        assertTrue(in("0.0.0.0/0", "8.8.8.8"));
        assertTrue(in("127.0.0.1", "::ffff:127.0.0.1"), "IPv4-mapped clients");
        assertFalse(in("127.0.0.1", "::1"));
    }

    @Test
    void ipv6() throws Exception {
        assertTrue(in("::1", "::1"));
        assertTrue(in("2001:db8::/32", "2001:db8:ffff::1"));
        assertFalse(in("2001:db8::/32", "2001:db9::1"));
        assertFalse(in("2001:db8::/32", "10.0.0.1"));
        assertTrue(in("fe80::/10", "febf::1"));
    }

    /** The byte form reads the address in place: one copy per request serves every block. */
    @Test
    void bytesAreReadNotChanged() throws Exception {
        byte[] v4 = {10, 1, (byte) 200, 7};
        byte[] copy = v4.clone();
        assertTrue(IpRange.parse("10.1.128.0/17").contains(v4));
        assertFalse(IpRange.parse("10.1.0.0/17").contains(v4));
        assertArrayEquals(copy, v4, "not masked in place");
        byte[] mapped = new byte[16];
        mapped[10] = (byte) 0xff;
        mapped[11] = (byte) 0xff;
        System.arraycopy(v4, 0, mapped, 12, 4);
        assertTrue(IpRange.parse("10.1.200.0/22").contains(mapped), "IPv4-mapped bytes");
        assertFalse(IpRange.parse("10.1.200.0/22").contains(InetAddress.getByName("::1").getAddress()));
        assertFalse(IpRange.parse("::/1").contains(v4), "an IPv6 block never takes an IPv4 address");
    }

    @Test
    void invalid() {
        for (String bad : new String[] {"300.1.1.1", "1.2.3.4/33", "::1/129", "example.com", "1.2.3.4/x", "", "1..2"}) {
            assertThrows(IllegalArgumentException.class, () -> IpRange.parse(bad), bad);
        }
    }
}
