package org.loommpm.websocket.deflate;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Chooses the permessage-deflate offer to accept from a client's {@code Sec-WebSocket-Extensions}
 * (RFC 7692 §5, §7.1): the first offer, in the client's order, that is well formed and that the
 * server can honour. An offer with an unknown or repeated parameter, or an invalid value, is
 * declined (§7.1: "MUST decline").
 *
 * <p>What the server answers, and why:
 * <ul>
 *   <li>{@code client_no_context_takeover} always (a server may add it, §7.1.1.2), and
 *       {@code server_no_context_takeover} always unless the endpoint allows context takeover:
 *       a compressor or decompressor that keeps its window between messages holds about 300 KB
 *       (compressor) or 40 KB (decompressor) of native memory per idle socket; without takeover
 *       they are borrowed from a pool for one message only, so an idle socket holds none.</li>
 *   <li>{@code server_max_window_bits=N}: accepted for any N from 8 to 15: below 15 the
 *       answer also names {@code server_no_context_takeover} and messages longer than
 *       {@code 2^N} go uncompressed (see {@link DeflateParams#serverMaxWindowBits}), as the JDK
 *       compressor cannot narrow its window.</li>
 *   <li>{@code client_max_window_bits}: not named in the answer (the decompressor accepts any
 *       window), which the client reads as its own choice up to 15.</li>
 * </ul>
 * Stateless.
 */
public final class DeflateNegotiation {
    private DeflateNegotiation() {
    }

    /**
     * The configuration to accept, or {@code null} when no offer is acceptable (the socket then
     * runs without compression).
     *
     * @param headerValues every {@code Sec-WebSocket-Extensions} field value of the request
     * @param contextTakeover whether the server may keep its compressor's window between messages
     *        when the client allows it
     */
    public static DeflateParams accept(List<String> headerValues, boolean contextTakeover) {
        for (String value : headerValues) {
            for (String offer : splitOutside(value, ',')) {
                DeflateParams p = offer(offer, contextTakeover);
                if (p != null) {
                    return p;
                }
            }
        }
        return null;
    }

    private static DeflateParams offer(String offer, boolean contextTakeover) {
        List<String> parts = splitOutside(offer, ';');
        if (parts.isEmpty() || !parts.get(0).trim().equalsIgnoreCase(DeflateParams.NAME)) {
            return null;
        }
        Set<String> seen = new HashSet<>();
        boolean serverNoTakeover = !contextTakeover;
        boolean echoServerBits = false;
        int serverBits = 15;
        for (int i = 1; i < parts.size(); i++) {
            String p = parts.get(i).trim();
            int eq = p.indexOf('=');
            String name = (eq < 0 ? p : p.substring(0, eq)).trim().toLowerCase(java.util.Locale.ROOT);
            String value = eq < 0 ? null : unquote(p.substring(eq + 1).trim());
            if (!seen.add(name)) {
                return null;
            }
            switch (name) {
                case "server_no_context_takeover", "client_no_context_takeover" -> {
                    if (value != null) {
                        return null;
                    }
                    if (name.startsWith("server")) {
                        serverNoTakeover = true;
                    }
                }
                case "server_max_window_bits" -> {
                    int bits = bits(value);
                    if (bits < 0) {
                        return null;
                    }
                    serverBits = bits;
                    echoServerBits = true;
                }
                case "client_max_window_bits" -> {
                    if (value != null && bits(value) < 0) {
                        return null;
                    }
                }
                default -> {
                    return null;
                }
            }
        }
        if (serverBits < 15) {
            serverNoTakeover = true; // the only way this server can honour a narrow window
        }
        return new DeflateParams(serverNoTakeover, true, serverBits, 0, echoServerBits);
    }

    /** A window-bits value 8-15 (digits only, no leading zero), or -1. */
    private static int bits(String v) {
        if (v == null || v.isEmpty() || v.length() > 2 || v.charAt(0) == '0') {
            return -1;
        }
        for (int i = 0; i < v.length(); i++) {
            if (v.charAt(i) < '0' || v.charAt(i) > '9') {
                return -1;
            }
        }
        int n = Integer.parseInt(v);
        return n >= 8 && n <= 15 ? n : -1;
    }

    private static String unquote(String v) {
        return v.length() >= 2 && v.charAt(0) == '"' && v.charAt(v.length() - 1) == '"'
                ? v.substring(1, v.length() - 1) : v;
    }

    /** Splits on {@code sep} outside double quotes, dropping empty parts. */
    static List<String> splitOutside(String s, char sep) {
        List<String> out = new ArrayList<>();
        boolean quoted = false;
        int start = 0;
        for (int i = 0; i <= s.length(); i++) {
            char c = i < s.length() ? s.charAt(i) : sep;
            if (c == '"') {
                quoted = !quoted;
            } else if (c == sep && !quoted) {
                String part = s.substring(start, i).trim();
                if (!part.isEmpty()) {
                    out.add(part);
                }
                start = i + 1;
            }
        }
        return out;
    }
}
