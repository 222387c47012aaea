package org.loommpm.form;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;
import java.util.Arrays;

/**
 * The {@code application/x-www-form-urlencoded} codec (WHATWG URL standard, "application/x-www-form-urlencoded
 * parsing"), strict where the standard is lenient on one point: a {@code %} not followed by two hex
 * digits is refused (400, LM2700) rather than kept as text, since no browser sends one and a
 * client that does is either broken or probing. Fields are separated by {@code &}; a field
 * without {@code =} has the empty value; empty fields ({@code a&&b}) are skipped; {@code +} is a
 * space; {@code %XX} is a byte. The bytes of each name and value are turned into text in the
 * form's charset, malformed sequences becoming U+FFFD as a browser's decoder does.
 *
 * <p>Stateless and thread-safe.
 */
public final class UrlEncodedForm {
    /** The media type of a form body. */
    public static final String MEDIA_TYPE = "application/x-www-form-urlencoded";
    /** The field whose value names the form's charset when the Content-Type does not (HTML's {@code _charset_}). */
    public static final String CHARSET_FIELD = "_charset_";

    private static final byte[] CHARSET_FIELD_BYTES = CHARSET_FIELD.getBytes(StandardCharsets.US_ASCII);
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private UrlEncodedForm() {
    }

    /**
     * Whether a Content-Type names a form body: {@code application/x-www-form-urlencoded}, any
     * case, parameters allowed.
     *
     * @param contentType the field's value, or {@code null}
     * @return whether it is a form's
     */
    public static boolean isForm(String contentType) {
        if (contentType == null) {
            return false;
        }
        int semi = contentType.indexOf(';');
        String type = (semi < 0 ? contentType : contentType.substring(0, semi)).trim();
        return type.equalsIgnoreCase(MEDIA_TYPE);
    }

    /**
     * The {@code charset} parameter of a Content-Type.
     *
     * @param contentType the field's value, or {@code null}
     * @return the charset it names, or {@code null} when it names none
     * @throws FormException 415 (LM2704) for a charset the JDK does not know
     */
    public static Charset charsetOf(String contentType) {
        if (contentType == null) {
            return null;
        }
        for (String param : contentType.split(";")) {
            int eq = param.indexOf('=');
            if (eq > 0 && param.substring(0, eq).trim().equalsIgnoreCase("charset")) {
                String name = param.substring(eq + 1).trim();
                if (name.length() >= 2 && name.startsWith("\"") && name.endsWith("\"")) {
                    name = name.substring(1, name.length() - 1);
                }
                return charset(name);
            }
        }
        return null;
    }

    /**
     * Reads a form body and decodes it.
     *
     * @param in the body; read to its end (or until {@code maxBytes} is passed), not closed
     * @param charset the charset of the names and values; {@code null} when the Content-Type named
     *                none: then a {@value #CHARSET_FIELD} field names it, else UTF-8
     * @param maxBytes the most bytes read (1 to {@link FormLimits#MAX_BYTES}): one more is refused
     * @param maxFields the most fields decoded (at least 1): one more is refused
     * @return the fields, in order
     * @throws FormException 400 (LM2700) for malformed percent-encoding, 413 past {@code maxBytes}
     *         (LM2701) or {@code maxFields} (LM2702), 415 (LM2704) for a {@value #CHARSET_FIELD}
     *         the JDK does not know
     * @throws IOException when reading fails
     * @throws IllegalArgumentException when a limit is outside its range
     */
    public static FormData decode(InputStream in, Charset charset, long maxBytes, int maxFields) throws IOException {
        if (maxBytes < 1 || maxBytes > FormLimits.MAX_BYTES) {
            throw new IllegalArgumentException("maxBytes must be 1 to " + FormLimits.MAX_BYTES + ": " + maxBytes);
        }
        // readNBytes grows its buffer as bytes come: a short body costs what it holds, not maxBytes.
        byte[] body = in.readNBytes((int) maxBytes + 1);
        if (body.length > maxBytes) {
            throw new FormException(413, "LM2701 form body larger than its limit of " + maxBytes + " bytes");
        }
        return decode(body, 0, body.length, charset, maxFields);
    }

    /**
     * Decodes a form held in memory (a body already read, or a query string's bytes).
     *
     * @param bytes the encoded form
     * @param off where it starts in {@code bytes}
     * @param len its length
     * @param charset as for {@link #decode(InputStream, Charset, long, int)}
     * @param maxFields the most fields decoded (at least 1): one more is refused
     * @return the fields, in order
     * @throws FormException 400 (LM2700), 413 (LM2702) or 415 (LM2704) as for
     *         {@link #decode(InputStream, Charset, long, int)}
     * @throws IndexOutOfBoundsException when {@code off} and {@code len} lie outside {@code bytes}
     * @throws IllegalArgumentException when {@code maxFields} is below 1
     */
    public static FormData decode(byte[] bytes, int off, int len, Charset charset, int maxFields) {
        java.util.Objects.checkFromIndexSize(off, len, bytes.length);
        if (maxFields < 1) {
            throw new IllegalArgumentException("maxFields must be at least 1: " + maxFields);
        }
        // Percent-decoding is byte-wise; the charset is applied afterwards, once _charset_ is known.
        byte[][] raw = new byte[Math.min(16, maxFields) * 2][];
        int fields = 0;
        int end = off + len;
        int start = off;
        while (start <= end) {
            int amp = indexOf(bytes, (byte) '&', start, end);
            if (amp < 0) {
                amp = end;
            }
            if (amp > start) {
                if (fields == maxFields) {
                    throw new FormException(413, "LM2702 form has more than its limit of " + maxFields + " fields");
                }
                int eq = indexOf(bytes, (byte) '=', start, amp);
                if (raw.length == fields * 2) {
                    raw = Arrays.copyOf(raw, raw.length * 2);
                }
                raw[fields * 2] = unescape(bytes, start, eq < 0 ? amp : eq, off);
                raw[fields * 2 + 1] = eq < 0 ? new byte[0] : unescape(bytes, eq + 1, amp, off);
                fields++;
            }
            start = amp + 1;
        }
        Charset cs = charset != null ? charset : charsetField(raw, fields);
        FormData.Builder b = FormData.builder();
        for (int i = 0; i < fields; i++) {
            b.add(new String(raw[i * 2], cs), new String(raw[i * 2 + 1], cs));
        }
        return b.build();
    }

    /**
     * Encodes a form as a browser would: ASCII letters, digits and {@code *-._} as they are, a
     * space as {@code +}, every other byte of the charset's encoding as {@code %XX}.
     *
     * @param form the fields
     * @param charset the charset of the names and values
     * @return the encoded form (ASCII)
     */
    public static String encode(FormData form, Charset charset) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < form.size(); i++) {
            if (i > 0) {
                b.append('&');
            }
            escape(b, form.name(i), charset);
            b.append('=');
            escape(b, form.value(i), charset);
        }
        return b.toString();
    }

    private static void escape(StringBuilder b, String s, Charset charset) {
        for (byte x : s.getBytes(charset)) {
            int c = x & 0xff;
            if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                    || c == '*' || c == '-' || c == '.' || c == '_') {
                b.append((char) c);
            } else if (c == ' ') {
                b.append('+');
            } else {
                b.append('%').append(HEX[c >> 4]).append(HEX[c & 15]);
            }
        }
    }

    /** The charset a {@code _charset_} field names (the first such field), else UTF-8. */
    private static Charset charsetField(byte[][] raw, int fields) {
        for (int i = 0; i < fields; i++) {
            if (Arrays.equals(raw[i * 2], CHARSET_FIELD_BYTES)) {
                return charset(new String(raw[i * 2 + 1], StandardCharsets.ISO_8859_1).trim());
            }
        }
        return StandardCharsets.UTF_8;
    }

    private static Charset charset(String name) {
        try {
            return Charset.forName(name);
        } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
            throw new FormException(415, "LM2704 form charset not supported: "
                    + printable(name.length() > 40 ? name.substring(0, 40) + "..." : name));
        }
    }

    /** A client's text as it may go into a log line: no control characters (no forged lines). */
    private static String printable(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            b.append(c < 0x20 || c == 0x7f ? '?' : c);
        }
        return b.toString();
    }

    private static int indexOf(byte[] b, byte x, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] == x) {
                return i;
            }
        }
        return -1;
    }

    /** {@code +} to a space, {@code %XX} to its byte; {@code base} is where the form starts, for the message. */
    private static byte[] unescape(byte[] b, int from, int to, int base) {
        byte[] out = null;
        int n = 0;
        for (int i = from; i < to; i++) {
            byte c = b[i];
            if (c == '%' || c == '+') {
                if (out == null) {
                    out = new byte[to - from];
                    System.arraycopy(b, from, out, 0, i - from);
                    n = i - from;
                }
                if (c == '+') {
                    out[n++] = ' ';
                    continue;
                }
                int hi = i + 2 < to ? hex(b[i + 1]) : -1;
                int lo = hi >= 0 ? hex(b[i + 2]) : -1;
                if (lo < 0) {
                    throw new FormException(400, "LM2700 malformed percent-encoding at byte " + (i - base)
                            + " of the form: a % must be followed by two hex digits");
                }
                out[n++] = (byte) (hi << 4 | lo);
                i += 2;
            } else if (out != null) {
                out[n++] = c;
            }
        }
        return out == null ? Arrays.copyOfRange(b, from, to) : Arrays.copyOf(out, n);
    }

    private static int hex(byte c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        int l = c | 0x20;
        return l >= 'a' && l <= 'f' ? l - 'a' + 10 : -1;
    }
}
