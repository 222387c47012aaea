package org.loommpm.cli.logging;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Log lines built as the bytes the file gets (UTF-8): a growable array rather than a string
 * builder, a string and its encoding. An {@link AsyncLogWriter}'s buffers are LogLines that many
 * lines are appended to in turn ({@link LogStripes}); not thread-safe: only the thread holding
 * one touches it.
 */
public final class LogLine {
    private static final byte[] DIGITS = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    /**
     * Recent clients' address texts, direct-mapped by the address's hash: a keep-alive client's
     * every line after its first is one lookup and one copy. Shared by every worker without
     * locks: an entry is immutable and replaced whole, so a racing reader sees an old entry or
     * a new one, and a lookup trusts an entry only when its address equals the one asked for.
     */
    private static final Address[] ADDRESSES = new Address[256];

    private record Address(InetAddress address, byte[] text) {
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

    /** Cuts the line back to its first {@code length} bytes (a line that must not be kept). */
    void truncate(int length) {
        this.length = length;
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
        int done = copyClean(s, false);
        return done == s.length() ? this : bytes(s.substring(done).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Copies the leading ASCII characters of {@code s}, for client text only those that need no
     * escaping, with one bounds check for the run rather than one per character: most values
     * are clean.
     *
     * @return how many characters were copied
     */
    private int copyClean(String s, boolean client) {
        int n = s.length();
        room(n);
        byte[] b = bytes;
        int at = length;
        int i = 0;
        for (; i < n; i++) {
            char c = s.charAt(i);
            if (c >= 0x80 || client && (c < 0x20 || c == 0x7f || c == '"' || c == '\\')) {
                break;
            }
            b[at + i] = (byte) c;
        }
        length = at + i;
        return i;
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
        return escaped(s, false);
    }

    /**
     * As {@link #escaped(String)}, for text that holds one byte the client sent per character
     * (field values and the request line are read as ISO-8859-1): a character up to 0xFF is
     * logged as that byte's {@code \xhh}, as httpd does, so a client's UTF-8 is not encoded twice.
     */
    public LogLine escapedBytes(String s) {
        return escaped(s, true);
    }

    private LogLine escaped(String s, boolean latin1) {
        if (s == null) {
            return ascii('-');
        }
        int n = s.length();
        for (int i = copyClean(s, true); i < n; i++) {
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
            } else if (latin1 && c <= 0xFF) {
                hex((byte) c);
            } else {
                int end = Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))
                        ? i + 2 : i + 1;
                for (byte b : s.substring(i, end).getBytes(StandardCharsets.UTF_8)) {
                    hex(b);
                }
                i = end - 1;
            }
        }
        return this;
    }

    private void hex(byte b) {
        ascii('\\').ascii('x');
        room(2);
        bytes[length++] = DIGITS[(b >> 4) & 0xF];
        bytes[length++] = DIGITS[b & 0xF];
    }

    /** The address as text; {@code -} when there is none. */
    public LogLine ip(InetSocketAddress a) {
        if (a == null) {
            return ascii('-');
        }
        InetAddress addr = a.getAddress();
        if (addr == null) {
            return text(a.getHostString());
        }
        int i = addr.hashCode() & (ADDRESSES.length - 1);
        Address known = ADDRESSES[i];
        if (known == null || !known.address().equals(addr)) {
            known = new Address(addr, addr.getHostAddress().getBytes(StandardCharsets.UTF_8));
            ADDRESSES[i] = known;
        }
        return bytes(known.text());
    }

    /** The line as text (UTF-8), for tests and diagnostics. */
    @Override
    public String toString() {
        return new String(bytes, 0, length, StandardCharsets.UTF_8);
    }
}
