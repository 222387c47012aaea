package org.loommpm.proxyprotocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ProxyHeaderParserTest {
    private static final byte[] SIG = {0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A};

    private static ProxyHeader parse(byte[] b) throws ProxyHeaderException {
        return ProxyHeaderParser.parse(b, 0, b.length);
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    @Test
    void v1Tcp4() throws Exception {
        byte[] b = ascii("PROXY TCP4 192.0.2.7 198.51.100.1 56324 443\r\nGET / HTTP/1.1\r\n");
        ProxyHeader h = parse(b);
        assertEquals(1, h.version());
        assertEquals(ProxyHeader.Family.TCP4, h.family());
        assertEquals(new InetSocketAddress(InetAddress.getByName("192.0.2.7"), 56324), h.source());
        assertEquals(new InetSocketAddress(InetAddress.getByName("198.51.100.1"), 443), h.destination());
        assertEquals("PROXY TCP4 192.0.2.7 198.51.100.1 56324 443\r\n".length(), h.length());
    }

    @Test
    void v1Tcp6() throws Exception {
        ProxyHeader h = parse(ascii("PROXY TCP6 2001:db8::1 2001:db8::2 1 65535\r\n"));
        assertEquals(ProxyHeader.Family.TCP6, h.family());
        assertEquals(InetAddress.getByName("2001:db8::1"), h.source().getAddress());
        assertEquals(65535, h.destination().getPort());
    }

    @Test
    void v1UnknownIgnoresTheRestOfTheLine() throws Exception {
        ProxyHeader h = parse(ascii("PROXY UNKNOWN ffff:f...f:ffff 1.2.3.4 65535 65535\r\n"));
        assertEquals(ProxyHeader.Family.UNKNOWN, h.family());
        assertFalse(h.hasSource());
        assertEquals(ProxyHeader.Family.UNKNOWN, parse(ascii("PROXY UNKNOWN\r\n")).family());
    }

    @Test
    void v1LongestHeaderFits() throws Exception {
        String v6 = "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff";
        String line = "PROXY UNKNOWN " + v6 + " " + v6 + " 65535 65535\r\n";
        assertEquals(ProxyHeaderParser.MAX_V1, line.length());
        assertEquals(ProxyHeaderParser.MAX_V1, parse(ascii(line)).length());
        String tcp6 = "PROXY TCP6 " + v6 + " " + v6 + " 65535 65535\r\n";
        assertEquals(tcp6.length(), parse(ascii(tcp6)).length());
    }

    @Test
    void everyPrefixOfAValidHeaderAsksForMore() throws Exception {
        byte[] v1 = ascii("PROXY TCP4 10.1.2.3 10.0.0.1 1234 80\r\n");
        byte[] v2 = v2(0x21, 0x11, new byte[] {10, 1, 2, 3, 10, 0, 0, 1, 0x04, (byte) 0xD2, 0, 80});
        for (byte[] whole : new byte[][] {v1, v2}) {
            for (int n = 0; n < whole.length; n++) {
                assertNull(ProxyHeaderParser.parse(whole, 0, n), "prefix of " + n + " bytes");
            }
            assertEquals(whole.length, parse(whole).length());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "GET / HTTP/1.1\r\n",
        "PROXY TCP5 1.2.3.4 5.6.7.8 1 2\r\n",
        "PROXY TCP4 1.2.3.4 5.6.7.8 1\r\n",
        "PROXY TCP4 1.2.3.4 5.6.7.8 1 2 3\r\n",
        "PROXY TCP4  1.2.3.4 5.6.7.8 1 2\r\n",
        "PROXY TCP4 1.2.3.256 5.6.7.8 1 2\r\n",
        "PROXY TCP4 1.2.3 5.6.7.8 1 2\r\n",
        "PROXY TCP4 localhost 5.6.7.8 1 2\r\n",
        "PROXY TCP4 2001:db8::1 5.6.7.8 1 2\r\n",
        "PROXY TCP6 1.2.3.4 ::1 1 2\r\n",
        "PROXY TCP6 1:::2 ::1 1 2\r\n",
        "PROXY TCP6 fe80::1%eth0 ::1 1 2\r\n",
        "PROXY TCP4 1.2.3.4 5.6.7.8 65536 2\r\n",
        "PROXY TCP4 1.2.3.4 5.6.7.8 -1 2\r\n",
        "PROXY TCP4 1.2.3.4 5.6.7.8 1 2\r\r\n",
        "PROXY TCP4 1.2.3.4 5.6.7.8 1 2\n",
        "proxy TCP4 1.2.3.4 5.6.7.8 1 2\r\n",
        "PROXY\tTCP4 1.2.3.4 5.6.7.8 1 2\r\n",
    })
    void malformedV1IsRefused(String header) {
        assertThrows(ProxyHeaderException.class, () -> parse(ascii(header)));
    }

    @Test
    void v1WithoutCrlfWithin107BytesIsRefused() {
        byte[] b = ascii("PROXY UNKNOWN " + "x".repeat(200));
        assertThrows(ProxyHeaderException.class, () -> parse(b));
        assertNull(assertDoesNotThrowParse(ascii("PROXY UNKNOWN " + "x".repeat(50))));
    }

    private static ProxyHeader assertDoesNotThrowParse(byte[] b) {
        try {
            return parse(b);
        } catch (ProxyHeaderException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aWrongFirstByteIsRefusedAtOnce() {
        assertThrows(ProxyHeaderException.class, () -> ProxyHeaderParser.parse(ascii("G"), 0, 1));
        assertThrows(ProxyHeaderException.class, () -> ProxyHeaderParser.parse(new byte[] {0x16}, 0, 1)); // a ClientHello
        assertThrows(ProxyHeaderException.class, () -> parse(ascii("PRX")));
        assertThrows(ProxyHeaderException.class, () -> parse(new byte[] {0x0D, 0x0A, 0x0D, 0x0B}));
    }

    static byte[] v2(int verCmd, int fam, byte[] addresses) {
        return v2(verCmd, fam, addresses, addresses.length);
    }

    static byte[] v2(int verCmd, int fam, byte[] block, int declaredLength) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(SIG);
        out.write(verCmd);
        out.write(fam);
        out.write(declaredLength >> 8);
        out.write(declaredLength);
        out.writeBytes(block);
        return out.toByteArray();
    }

    @Test
    void v2Tcp4WithTlvsAndTrailingData() throws Exception {
        byte[] block = {(byte) 192, 0, 2, 9, 10, 0, 0, 1, (byte) 0xC3, 0x50, 0x01, (byte) 0xBB,
            0x04, 0x00, 0x02, 'h', 'i'}; // a NOOP TLV of 2 bytes
        byte[] h = v2(0x21, 0x11, block);
        byte[] withData = new byte[h.length + 3];
        System.arraycopy(h, 0, withData, 0, h.length);
        ProxyHeader p = parse(withData);
        assertEquals(2, p.version());
        assertEquals(ProxyHeader.Command.PROXY, p.command());
        assertEquals(ProxyHeader.Family.TCP4, p.family());
        assertEquals(new InetSocketAddress(InetAddress.getByName("192.0.2.9"), 50000), p.source());
        assertEquals(443, p.destination().getPort());
        assertEquals(h.length, p.length());
    }

    @Test
    void v2Tcp6() throws Exception {
        byte[] block = new byte[36];
        byte[] src = InetAddress.getByName("2001:db8::7").getAddress();
        System.arraycopy(src, 0, block, 0, 16);
        block[15 + 16] = 1;
        block[32] = 0x12;
        block[33] = 0x34;
        block[35] = 80;
        ProxyHeader p = parse(v2(0x21, 0x21, block));
        assertEquals(ProxyHeader.Family.TCP6, p.family());
        assertEquals(InetAddress.getByName("2001:db8::7"), p.source().getAddress());
        assertEquals(0x1234, p.source().getPort());
        assertEquals(InetAddress.getByName("::1"), p.destination().getAddress());
    }

    @Test
    void v2LocalKeepsTheSocketAddresses() throws Exception {
        ProxyHeader p = parse(v2(0x20, 0x00, new byte[0]));
        assertEquals(ProxyHeader.Command.LOCAL, p.command());
        assertFalse(p.hasSource());
        assertEquals(16, p.length());
        // LOCAL ignores whatever address block comes with it.
        assertEquals(28, parse(v2(0x20, 0x11, new byte[12])).length());
    }

    @Test
    void v2UnspecUnixAndDatagramAreUnknown() throws Exception {
        assertEquals(ProxyHeader.Family.UNKNOWN, parse(v2(0x21, 0x00, new byte[0])).family());
        assertEquals(ProxyHeader.Family.UNKNOWN, parse(v2(0x21, 0x31, new byte[216])).family());
        ProxyHeader udp = parse(v2(0x21, 0x12, new byte[12]));
        assertEquals(ProxyHeader.Family.UNKNOWN, udp.family());
        assertTrue(!udp.hasSource());
    }

    @Test
    void malformedV2IsRefused() {
        assertThrows(ProxyHeaderException.class, () -> parse(v2(0x11, 0x11, new byte[12])), "version 1 nibble");
        assertThrows(ProxyHeaderException.class, () -> parse(v2(0x22, 0x11, new byte[12])), "command 2");
        assertThrows(ProxyHeaderException.class, () -> parse(v2(0x21, 0x41, new byte[12])), "family 4");
        assertThrows(ProxyHeaderException.class, () -> parse(v2(0x21, 0x13, new byte[12])), "transport 3");
        assertThrows(ProxyHeaderException.class, () -> parse(v2(0x21, 0x11, new byte[8])), "short INET block");
        assertThrows(ProxyHeaderException.class, () -> parse(v2(0x21, 0x21, new byte[12])), "short INET6 block");
        assertThrows(ProxyHeaderException.class, () -> parse(v2(0x21, 0x31, new byte[12])), "short UNIX block");
        // Too long is refused from the fixed part alone, before the block arrives.
        assertThrows(ProxyHeaderException.class, () -> parse(v2(0x21, 0x11, new byte[0], 521)));
        assertThrows(ProxyHeaderException.class, () -> parse(v2(0x21, 0x11, new byte[0], 0xFFFF)));
    }

    @Test
    void v2AtTheCapIsAccepted() throws Exception {
        byte[] block = new byte[520];
        block[0] = 1;
        assertEquals(ProxyHeaderParser.MAX_V2, parse(v2(0x21, 0x11, block)).length());
    }

    @Test
    void offsetsAreHonoured() throws Exception {
        byte[] h = ascii("xxPROXY TCP4 1.2.3.4 5.6.7.8 1 2\r\n");
        assertEquals(h.length - 2, ProxyHeaderParser.parse(h, 2, h.length - 2).length());
        assertThrows(IndexOutOfBoundsException.class, () -> ProxyHeaderParser.parse(h, 2, h.length));
    }
}
