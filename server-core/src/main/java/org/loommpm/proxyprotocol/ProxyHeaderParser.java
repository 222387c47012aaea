package org.loommpm.proxyprotocol;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Parses the PROXY protocol header (versions 1 and 2, HAProxy's specification) at the start of a
 * connection's bytes. Pure: no I/O, no state, no name lookup (addresses must be literals), so it
 * is tested and fuzzed on byte arrays alone; the engine calls it on each read until it returns a
 * header or throws.
 *
 * <p>Accepted: v1 {@code PROXY TCP4|TCP6 src dst sport dport\r\n} and {@code PROXY UNKNOWN ...\r\n}
 * (at most {@value #MAX_V1} bytes); v2 with command LOCAL or PROXY, families INET, INET6, UNSPEC
 * and UNIX, transports STREAM, DGRAM and UNSPEC (anything but TCP over IP is reported as
 * {@link ProxyHeader.Family#UNKNOWN}), TLVs skipped, at most {@value #MAX_V2} bytes in all.
 * Everything else is refused with a {@link ProxyHeaderException} that says why, as early as the
 * bytes allow (a connection that does not start like a PROXY header is refused at its first byte).
 */
public final class ProxyHeaderParser {
    /** The longest v1 header, CRLF included (the specification's figure). */
    public static final int MAX_V1 = 107;
    /** The longest v2 header accepted: the 16-byte fixed part and up to 520 bytes of addresses and TLVs. */
    public static final int MAX_V2 = 536;
    /** The v2 signature. */
    private static final byte[] V2_SIGNATURE = {0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A};
    private static final byte[] V1_PREFIX = "PROXY ".getBytes(StandardCharsets.US_ASCII);
    private static final int V2_FIXED = 16;

    private ProxyHeaderParser() {
    }

    /**
     * Parses the header at the start of {@code data[offset, offset+length)}.
     *
     * @return the header, or {@code null} when more bytes are needed to decide
     * @throws ProxyHeaderException when the bytes cannot be (the start of) a valid header
     */
    public static ProxyHeader parse(byte[] data, int offset, int length) throws ProxyHeaderException {
        if (offset < 0 || length < 0 || offset + length > data.length) {
            throw new IndexOutOfBoundsException("offset " + offset + ", length " + length + ", array " + data.length);
        }
        if (length == 0) {
            return null;
        }
        if (data[offset] == 'P') {
            return parseV1(data, offset, length);
        }
        if (data[offset] == 0x0D) {
            return parseV2(data, offset, length);
        }
        throw new ProxyHeaderException("the connection does not start with a PROXY protocol header");
    }

    // ---- version 1 ----

    private static ProxyHeader parseV1(byte[] d, int off, int len) throws ProxyHeaderException {
        requirePrefix(d, off, len, V1_PREFIX, "v1");
        int end = -1;
        // The CR's last place is MAX_V1 - 2, so that its LF is the 107th byte at most.
        int scan = Math.min(len, MAX_V1 - 1);
        for (int i = 0; i < scan; i++) {
            byte b = d[off + i];
            if (b == '\r') {
                if (i + 1 >= len) {
                    return null;
                }
                if (d[off + i + 1] != '\n') {
                    throw new ProxyHeaderException("v1 header: CR not followed by LF");
                }
                end = i;
                break;
            }
            if (b < 0x20 || b > 0x7E) {
                throw new ProxyHeaderException("v1 header: byte 0x" + Integer.toHexString(b & 0xFF) + " at " + i);
            }
        }
        if (end < 0) {
            if (len >= MAX_V1) {
                throw new ProxyHeaderException("v1 header: no CRLF within " + MAX_V1 + " bytes");
            }
            return null;
        }
        String line = new String(d, off + V1_PREFIX.length, end - V1_PREFIX.length, StandardCharsets.US_ASCII);
        int headerLength = end + 2;
        if (line.startsWith("UNKNOWN") && (line.length() == 7 || line.charAt(7) == ' ')) {
            // The rest of the line is ignored, as the specification says.
            return new ProxyHeader(1, ProxyHeader.Command.PROXY, ProxyHeader.Family.UNKNOWN, null, null, headerLength);
        }
        String[] w = line.split(" ", -1);
        if (w.length != 5) {
            throw new ProxyHeaderException("v1 header: expected 'TCP4|TCP6 src dst sport dport', got '" + line + "'");
        }
        boolean v4 = w[0].equals("TCP4");
        if (!v4 && !w[0].equals("TCP6")) {
            throw new ProxyHeaderException("v1 header: unknown protocol '" + w[0] + "'");
        }
        InetAddress src = v4 ? ipv4(w[1]) : ipv6(w[1]);
        InetAddress dst = v4 ? ipv4(w[2]) : ipv6(w[2]);
        int sport = port(w[3]);
        int dport = port(w[4]);
        return new ProxyHeader(1, ProxyHeader.Command.PROXY, v4 ? ProxyHeader.Family.TCP4 : ProxyHeader.Family.TCP6,
                new InetSocketAddress(src, sport), new InetSocketAddress(dst, dport), headerLength);
    }

    private static InetAddress ipv4(String s) throws ProxyHeaderException {
        String[] parts = s.split("\\.", -1);
        if (parts.length != 4) {
            throw new ProxyHeaderException("v1 header: '" + s + "' is not an IPv4 address");
        }
        byte[] a = new byte[4];
        for (int i = 0; i < 4; i++) {
            String p = parts[i];
            if (p.isEmpty() || p.length() > 3 || !digits(p) || Integer.parseInt(p) > 255) {
                throw new ProxyHeaderException("v1 header: '" + s + "' is not an IPv4 address");
            }
            a[i] = (byte) Integer.parseInt(p);
        }
        return address(a);
    }

    private static InetAddress ipv6(String s) throws ProxyHeaderException {
        // A leading dot too: InetAddress.getByName takes a literal only when the string starts
        // with a hex digit or a colon, and looks anything else up as a host name (".:1").
        if (s.isEmpty() || s.length() > 45 || s.indexOf(':') < 0 || s.charAt(0) == '.') {
            throw new ProxyHeaderException("v1 header: '" + s + "' is not an IPv6 address");
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(c == ':' || c == '.' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) {
                throw new ProxyHeaderException("v1 header: '" + s + "' is not an IPv6 address");
            }
        }
        try {
            // A colon, hex digits and dots, first a hex digit or a colon: parsed as an IPv6
            // literal or refused, never looked up.
            InetAddress a = InetAddress.getByName(s);
            if (a instanceof Inet6Address) {
                return a;
            }
            // An IPv4-mapped literal (::ffff:a.b.c.d), which the JDK turns into an IPv4 address:
            // kept IPv6, as TCP6 says and as v2 gives the same 16 bytes (found by fuzzing).
            byte[] mapped = new byte[16];
            mapped[10] = (byte) 0xff;
            mapped[11] = (byte) 0xff;
            System.arraycopy(a.getAddress(), 0, mapped, 12, 4);
            return Inet6Address.getByAddress(null, mapped, null);
        } catch (UnknownHostException e) {
            throw new ProxyHeaderException("v1 header: '" + s + "' is not an IPv6 address");
        }
    }

    private static int port(String s) throws ProxyHeaderException {
        if (s.isEmpty() || s.length() > 5 || !digits(s) || Integer.parseInt(s) > 65535) {
            throw new ProxyHeaderException("v1 header: '" + s + "' is not a port");
        }
        return Integer.parseInt(s);
    }

    private static boolean digits(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    // ---- version 2 ----

    private static ProxyHeader parseV2(byte[] d, int off, int len) throws ProxyHeaderException {
        requirePrefix(d, off, len, V2_SIGNATURE, "v2");
        if (len < V2_FIXED) {
            return null;
        }
        int verCmd = d[off + 12] & 0xFF;
        if (verCmd >> 4 != 2) {
            throw new ProxyHeaderException("v2 header: version " + (verCmd >> 4) + " (expected 2)");
        }
        ProxyHeader.Command command = switch (verCmd & 0x0F) {
            case 0 -> ProxyHeader.Command.LOCAL;
            case 1 -> ProxyHeader.Command.PROXY;
            default -> throw new ProxyHeaderException("v2 header: unknown command " + (verCmd & 0x0F));
        };
        int fam = d[off + 13] & 0xFF;
        int af = fam >> 4;
        int transport = fam & 0x0F;
        if (af > 3 || transport > 2) {
            throw new ProxyHeaderException("v2 header: unknown address family/transport 0x" + Integer.toHexString(fam));
        }
        int addrLen = ((d[off + 14] & 0xFF) << 8) | (d[off + 15] & 0xFF);
        if (V2_FIXED + addrLen > MAX_V2) {
            throw new ProxyHeaderException("v2 header: " + (V2_FIXED + addrLen) + " bytes, more than " + MAX_V2);
        }
        if (len < V2_FIXED + addrLen) {
            return null;
        }
        int total = V2_FIXED + addrLen;
        if (command == ProxyHeader.Command.LOCAL) {
            return new ProxyHeader(2, command, ProxyHeader.Family.UNKNOWN, null, null, total);
        }
        boolean stream = transport == 1;
        int p = off + V2_FIXED;
        if (af == 1) {
            if (addrLen < 12) {
                throw new ProxyHeaderException("v2 header: INET address block of " + addrLen + " bytes (12 needed)");
            }
            if (stream) {
                InetAddress src = address(Arrays.copyOfRange(d, p, p + 4));
                InetAddress dst = address(Arrays.copyOfRange(d, p + 4, p + 8));
                return new ProxyHeader(2, command, ProxyHeader.Family.TCP4,
                        new InetSocketAddress(src, u16(d, p + 8)), new InetSocketAddress(dst, u16(d, p + 10)), total);
            }
        } else if (af == 2) {
            if (addrLen < 36) {
                throw new ProxyHeaderException("v2 header: INET6 address block of " + addrLen + " bytes (36 needed)");
            }
            if (stream) {
                InetAddress src = address6(Arrays.copyOfRange(d, p, p + 16));
                InetAddress dst = address6(Arrays.copyOfRange(d, p + 16, p + 32));
                return new ProxyHeader(2, command, ProxyHeader.Family.TCP6,
                        new InetSocketAddress(src, u16(d, p + 32)), new InetSocketAddress(dst, u16(d, p + 34)), total);
            }
        } else if (af == 3 && addrLen < 216) {
            throw new ProxyHeaderException("v2 header: UNIX address block of " + addrLen + " bytes (216 needed)");
        }
        // AF_UNSPEC, a UNIX socket, or a datagram: nothing we can use as the client's address.
        return new ProxyHeader(2, command, ProxyHeader.Family.UNKNOWN, null, null, total);
    }

    private static int u16(byte[] d, int i) {
        return ((d[i] & 0xFF) << 8) | (d[i + 1] & 0xFF);
    }

    // ---- shared ----

    private static void requirePrefix(byte[] d, int off, int len, byte[] prefix, String version)
            throws ProxyHeaderException {
        int n = Math.min(len, prefix.length);
        for (int i = 0; i < n; i++) {
            if (d[off + i] != prefix[i]) {
                throw new ProxyHeaderException("not a PROXY protocol " + version + " signature");
            }
        }
    }

    private static InetAddress address(byte[] raw) {
        try {
            return InetAddress.getByAddress(raw);
        } catch (UnknownHostException e) {
            throw new AssertionError("a 4- or 16-byte address is always valid", e);
        }
    }

    /** Sixteen bytes as an IPv6 address (an IPv4-mapped one stays IPv6, as the header said). */
    private static InetAddress address6(byte[] raw) {
        try {
            return Inet6Address.getByAddress(null, raw, null);
        } catch (UnknownHostException e) {
            throw new AssertionError("a 16-byte address is always valid", e);
        }
    }
}
