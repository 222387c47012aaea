package org.loommpm.cli.access;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;

/**
 * An address block for {@code Require ip}: a full address ({@code 10.1.2.3}, {@code ::1}), a
 * CIDR block ({@code 10.0.0.0/8}, {@code 2001:db8::/32}), or, as in httpd, a partial IPv4
 * address standing for its prefix ({@code 10.1} = {@code 10.1.0.0/16}). An IPv4 block also
 * matches IPv4-mapped IPv6 clients ({@code ::ffff:10.1.2.3}), which a dual-stack listener reports.
 */
public final class IpRange {
    private final byte[] network;
    private final int prefixBits;

    private IpRange(byte[] network, int prefixBits) {
        this.network = network;
        this.prefixBits = prefixBits;
        mask(this.network, prefixBits);
    }

    /**
     * Parses one {@code Require ip} argument. Only literal addresses are accepted: a host name
     * would need a DNS lookup on the configuration path.
     *
     * @throws IllegalArgumentException with the reason
     */
    public static IpRange parse(String spec) {
        int slash = spec.indexOf('/');
        String addr = slash < 0 ? spec : spec.substring(0, slash);
        boolean v6 = addr.indexOf(':') >= 0;
        if (!v6 && slash < 0 && partialV4(addr)) {
            String[] parts = addr.split("\\.", -1);
            byte[] b = new byte[4];
            for (int i = 0; i < parts.length; i++) {
                b[i] = (byte) octet(parts[i], spec);
            }
            return new IpRange(b, parts.length * 8);
        }
        byte[] bytes = literal(addr, v6, spec);
        int bits = bytes.length * 8;
        if (slash >= 0) {
            String p = spec.substring(slash + 1);
            try {
                bits = Integer.parseInt(p);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("bad prefix length in '" + spec + "'");
            }
            if (bits < 0 || bits > bytes.length * 8) {
                throw new IllegalArgumentException("prefix length " + bits + " out of range in '" + spec + "'");
            }
        }
        return new IpRange(bytes, bits);
    }

    private static boolean partialV4(String addr) {
        int dots = 0;
        for (int i = 0; i < addr.length(); i++) {
            char c = addr.charAt(i);
            if (c == '.') {
                dots++;
            } else if (c < '0' || c > '9') {
                return false;
            }
        }
        return dots < 3 && !addr.isEmpty();
    }

    private static int octet(String s, String spec) {
        try {
            int v = Integer.parseInt(s);
            if (v >= 0 && v <= 255 && !s.isEmpty() && s.length() <= 3) {
                return v;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("not an IP address: '" + spec + "'");
    }

    private static byte[] literal(String addr, boolean v6, String spec) {
        if (addr.isEmpty()) {
            throw new IllegalArgumentException("not an IP address: '" + spec + "'");
        }
        if (!v6) {
            String[] parts = addr.split("\\.", -1);
            if (parts.length != 4) {
                throw new IllegalArgumentException("not an IP address: '" + spec + "'");
            }
            byte[] b = new byte[4];
            for (int i = 0; i < 4; i++) {
                b[i] = (byte) octet(parts[i], spec);
            }
            return b;
        }
        for (int i = 0; i < addr.length(); i++) {
            char c = addr.charAt(i);
            if (!(Character.digit(c, 16) >= 0 || c == ':' || c == '.')) {
                throw new IllegalArgumentException("not an IP address: '" + spec + "'");
            }
        }
        try {
            // Only hex digits, colons and dots reach here, so this never does a DNS lookup.
            byte[] b = InetAddress.getByName(addr).getAddress();
            return b.length == 16 ? b : v4Mapped(b);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not an IP address: '" + spec + "'");
        }
    }

    /** {@code ::ffff:a.b.c.d} literals come back from the JDK as IPv4; keep them IPv6-shaped. */
    private static byte[] v4Mapped(byte[] v4) {
        byte[] b = new byte[16];
        b[10] = (byte) 0xff;
        b[11] = (byte) 0xff;
        System.arraycopy(v4, 0, b, 12, 4);
        return b;
    }

    private static void mask(byte[] b, int bits) {
        for (int i = 0; i < b.length; i++) {
            int keep = Math.max(0, Math.min(8, bits - i * 8));
            b[i] &= (byte) (0xff00 >>> keep);
        }
    }

    /** Whether {@code address} lies in this block. */
    public boolean contains(InetAddress address) {
        return contains(address.getAddress());
    }

    /**
     * Whether the address with these bytes ({@link InetAddress#getAddress()}, 4 or 16 of them)
     * lies in this block. Reads {@code a} without changing or copying it, so a caller checking
     * several blocks gets the bytes once.
     */
    public boolean contains(byte[] a) {
        int off = a.length == 16 && network.length == 4 && isV4Mapped(a) ? 12 : 0;
        if (a.length - off != network.length) {
            return false;
        }
        int whole = prefixBits / 8;
        for (int i = 0; i < whole; i++) {
            if (a[off + i] != network[i]) {
                return false;
            }
        }
        int rest = prefixBits % 8;
        int m = 0xff00 >>> rest & 0xff;
        return rest == 0 || (a[off + whole] & m) == (network[whole] & 0xff);
    }

    private static boolean isV4Mapped(byte[] a) {
        for (int i = 0; i < 10; i++) {
            if (a[i] != 0) {
                return false;
            }
        }
        return a[10] == (byte) 0xff && a[11] == (byte) 0xff;
    }

    @Override
    public String toString() {
        try {
            return InetAddress.getByAddress(network).getHostAddress() + "/" + prefixBits;
        } catch (UnknownHostException e) {
            return Arrays.toString(network) + "/" + prefixBits;
        }
    }
}
