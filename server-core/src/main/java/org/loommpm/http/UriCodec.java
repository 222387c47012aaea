package org.loommpm.http;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.loommpm.api.HttpException;
import org.loommpm.http.syntax.HttpChars;

/**
 * Percent-decoding of request paths and queries. A path is decoded strictly (a malformed escape,
 * invalid UTF-8 or a NUL is an attack or a broken client, and the handler must never see it); a
 * query is decoded leniently, as form data is in the wild, keeping what it cannot decode.
 */
public final class UriCodec {
    private UriCodec() {
    }

    /**
     * Decodes {@code %XX} escapes of a raw path as UTF-8; {@code +} stays literal.
     *
     * @throws HttpException 400 on a malformed escape, invalid UTF-8 or a NUL character
     */
    public static String decodePath(String raw) {
        if (raw.indexOf('%') < 0) {
            if (raw.indexOf('\0') >= 0) {
                throw bad("NUL in path");
            }
            return raw;
        }
        byte[] bytes = raw.getBytes(StandardCharsets.UTF_8);
        int n = unescape(bytes, bytes.length, false, true);
        if (n < 0) {
            throw bad("malformed percent-escape in path");
        }
        for (int i = 0; i < n; i++) {
            if (bytes[i] == 0) {
                throw bad("NUL in path");
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes, 0, n))
                    .toString();
        } catch (CharacterCodingException e) {
            throw bad("path is not valid UTF-8 after percent-decoding");
        }
    }

    /**
     * Splits a raw query into decoded parameters, in order of first appearance. {@code +} is a
     * space, malformed escapes are kept literally, invalid UTF-8 becomes U+FFFD, a parameter
     * without {@code =} has the value {@code ""} and empty parameters ({@code a=1&&b=2}) are
     * skipped.
     *
     * @param rawQuery the query without {@code ?}; {@code null} or empty gives an empty map
     * @return a mutable {@link LinkedHashMap} of name to values
     */
    public static Map<String, List<String>> parseQuery(String rawQuery) {
        Map<String, List<String>> params = new LinkedHashMap<>();
        if (rawQuery == null) {
            return params;
        }
        int n = rawQuery.length();
        int i = 0;
        while (i < n) {
            int amp = rawQuery.indexOf('&', i);
            int end = amp < 0 ? n : amp;
            if (end > i) {
                int eq = rawQuery.indexOf('=', i);
                String name;
                String value;
                if (eq < 0 || eq > end) {
                    name = decodeComponent(rawQuery, i, end);
                    value = "";
                } else {
                    name = decodeComponent(rawQuery, i, eq);
                    value = decodeComponent(rawQuery, eq + 1, end);
                }
                params.computeIfAbsent(name, k -> new ArrayList<>(1)).add(value);
            }
            i = end + 1;
        }
        return params;
    }

    /** Leniently decodes one query name or value. */
    private static String decodeComponent(String s, int from, int to) {
        String part = s.substring(from, to);
        if (part.indexOf('%') < 0 && part.indexOf('+') < 0) {
            return part;
        }
        byte[] bytes = part.getBytes(StandardCharsets.UTF_8);
        int n = unescape(bytes, bytes.length, true, false);
        return new String(bytes, 0, n, StandardCharsets.UTF_8);
    }

    /**
     * Decodes escapes of {@code bytes[0, len)} in place.
     *
     * @param plusIsSpace whether {@code +} means a space (form encoding)
     * @param strict whether a malformed escape fails (else it is kept literally)
     * @return the decoded length, or -1 when strict and an escape is malformed
     */
    private static int unescape(byte[] bytes, int len, boolean plusIsSpace, boolean strict) {
        int w = 0;
        for (int r = 0; r < len; r++) {
            byte b = bytes[r];
            if (b == '%') {
                int hi = r + 2 < len ? HttpChars.hexValue(bytes[r + 1]) : -1;
                int lo = hi >= 0 ? HttpChars.hexValue(bytes[r + 2]) : -1;
                if (lo >= 0) {
                    bytes[w++] = (byte) (hi << 4 | lo);
                    r += 2;
                    continue;
                }
                if (strict) {
                    return -1;
                }
            } else if (b == '+' && plusIsSpace) {
                b = ' ';
            }
            bytes[w++] = b;
        }
        return w;
    }

    private static HttpException bad(String why) {
        return new HttpException(400, why);
    }
}
