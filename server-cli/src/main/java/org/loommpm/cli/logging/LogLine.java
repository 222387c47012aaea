package org.loommpm.cli.logging;

import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One access-log line built as the bytes the file gets (UTF-8), so a line costs one growable
 * array rather than a string builder, a string and its encoding. Built by one worker, then handed
 * whole to an {@link AsyncLogWriter} (which only reads it): the worker must not touch it after
 * {@link AsyncLogWriter#offer(LogLine)}.
 */
public final class LogLine {
    private static final byte[] DIGITS = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    /** The decimal text of every IPv4 octet: an address is four copies, no division. */
    private static final byte[][] OCTETS = new byte[256][];

    static {
        for (int i = 0; i < 256; i++) {
            OCTETS[i] = Integer.toString(i).getBytes(StandardCharsets.US_ASCII);
        }
    }

    private byte[] bytes;
    private int length;

    /** @param capacity the bytes expected (it grows as needed) */
    public LogLine(int capacity) {
        bytes = new byte[Math.max(16, capacity)];
    }

    /** The bytes so far: {@code array()[0..length())}. */
    byte[] array() {
        return bytes;
    }

    /** How many bytes the line holds. */
    public int length() {
        return length;
    }

    private void room(int n) {
        if (length + n > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + n));
        }
    }

    /** One ASCII character. */
    public LogLine ascii(char c) {
        room(1);
        bytes[length++] = (byte) c;
        return this;
    }

    /** Bytes as they are (pre-encoded text). */
    public LogLine bytes(byte[] b) {
        room(b.length);
        System.arraycopy(b, 0, bytes, length, b.length);
        length += b.length;
        return this;
    }

    /** Trusted text (configuration, protocol names) as UTF-8, without escaping. */
    public LogLine text(String s) {
        int n = s.length();
        room(n);
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c >= 0x80) {
                return bytes(s.substring(i).getBytes(StandardCharsets.UTF_8));
            }
            bytes[length++] = (byte) c;
        }
        return this;
    }

    /** A decimal number. */
    public LogLine number(long v) {
        if (v < 0) {
            if (v == Long.MIN_VALUE) {
                return text(Long.toString(v));
            }
            ascii('-');
            v = -v;
        }
        int digits = 1;
        for (long t = v; t >= 10; t /= 10) {
            digits++;
        }
        room(digits);
        for (int i = length + digits - 1; i >= length; i--) {
            bytes[i] = (byte) ('0' + v % 10);
            v /= 10;
        }
        length += digits;
        return this;
    }

    /**
     * httpd's escaping of client-supplied text: {@code "} and {@code \} with a backslash, newline
     * and tab as {@code \n} and {@code \t}, other control and non-ASCII characters as the
     * {@code \xhh} of their UTF-8 bytes; {@code -} for an absent value. A client cannot forge a
     * line.
     */
    public LogLine escaped(String s) {
        if (s == null) {
            return ascii('-');
        }
        int n = s.length();
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
                room(1);
                bytes[length++] = (byte) c;
            } else if (c == '"' || c == '\\') {
                ascii('\\').ascii(c);
            } else if (c == '\n') {
                ascii('\\').ascii('n');
            } else if (c == '\t') {
                ascii('\\').ascii('t');
            } else {
                int end = Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))
                        ? i + 2 : i + 1;
                for (byte b : s.substring(i, end).getBytes(StandardCharsets.UTF_8)) {
                    ascii('\\').ascii('x');
                    room(2);
                    bytes[length++] = DIGITS[(b >> 4) & 0xF];
                    bytes[length++] = DIGITS[b & 0xF];
                }
                i = end - 1;
            }
        }
        return this;
    }

    /** The address as text (an IPv4 one digit by digit); {@code -} when there is none. */
    public LogLine ip(InetSocketAddress a) {
        if (a == null) {
            return ascii('-');
        }
        if (a.getAddress() instanceof Inet4Address v4) {
            byte[] b = v4.getAddress();
            return bytes(OCTETS[b[0] & 0xFF]).ascii('.').bytes(OCTETS[b[1] & 0xFF]).ascii('.')
                    .bytes(OCTETS[b[2] & 0xFF]).ascii('.').bytes(OCTETS[b[3] & 0xFF]);
        }
        return text(a.getAddress() != null ? a.getAddress().getHostAddress() : a.getHostString());
    }

    /** The line as text (UTF-8), for tests and diagnostics. */
    @Override
    public String toString() {
        return new String(bytes, 0, length, StandardCharsets.UTF_8);
    }
}
