package org.loommpm.proxyprotocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.net.Inet6Address;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * An IPv4-mapped IPv6 address (::ffff:a.b.c.d) in a TCP6 header is the same IPv6 address in v1
 * text as in v2 binary (ProxyHeaderFuzzTest found v1 giving an IPv4 address where v2 gave IPv6).
 */
class MappedAddressTest {
    @Test
    void v1AndV2AgreeOnAnIpv4MappedAddress() throws Exception {
        byte[] v1 = "PROXY TCP6 ::ffff:192.0.2.7 ::1 1000 443\r\n".getBytes(StandardCharsets.US_ASCII);
        ProxyHeader text = ProxyHeaderParser.parse(v1, 0, v1.length);
        assertInstanceOf(Inet6Address.class, text.source().getAddress());

        byte[] v2 = new byte[16 + 36];
        byte[] sig = {0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A};
        System.arraycopy(sig, 0, v2, 0, 12);
        v2[12] = 0x21; // v2, PROXY
        v2[13] = 0x21; // INET6, STREAM
        v2[15] = 36;
        v2[16 + 10] = (byte) 0xff;
        v2[16 + 11] = (byte) 0xff;
        v2[16 + 12] = (byte) 192;
        v2[16 + 14] = 2;
        v2[16 + 15] = 7;
        v2[16 + 31] = 1; // destination ::1
        v2[16 + 32] = 1000 >> 8;
        v2[16 + 33] = (byte) (1000 & 0xff);
        v2[16 + 34] = 443 >> 8;
        v2[16 + 35] = (byte) (443 & 0xff);
        ProxyHeader binary = ProxyHeaderParser.parse(v2, 0, v2.length);

        assertEquals(binary.source(), text.source());
        assertEquals(binary.destination(), text.destination());
        assertEquals(ProxyHeader.Family.TCP6, text.family());
    }
}
