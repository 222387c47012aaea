package org.loommpm.websocket.handshake;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.function.Predicate;
import org.loommpm.api.Headers;
import org.loommpm.websocket.deflate.DeflateNegotiation;
import org.loommpm.websocket.deflate.DeflateParams;

/**
 * The opening handshake's server side (RFC 6455 §4.2): checks a request and decides the answer.
 * A valid request is a {@code GET} over HTTP/1.1 with {@code Upgrade: websocket},
 * {@code Connection: Upgrade}, {@code Sec-WebSocket-Version: 13} and a {@code Sec-WebSocket-Key}
 * that is base64 of 16 bytes, without a body. Then the endpoint's origin check, and the negotiation of a subprotocol (the
 * client's first one the endpoint supports; none when none matches) and of permessage-deflate.
 *
 * <p>Answers: {@code 426} with {@code Upgrade: websocket} to a request that does not ask for the
 * upgrade at all; {@code 426} with {@code Sec-WebSocket-Version: 13} to another version (§4.4);
 * {@code 400} to a malformed one; {@code 403} when the origin check refuses it. Stateless.
 */
public final class Handshake {
    /** The GUID of RFC 6455 §1.3 appended to the key. */
    private static final String GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

    private Handshake() {
    }

    /** What the endpoint accepts, for the checks. */
    public record Policy(List<String> subprotocols, Predicate<String> origin, boolean deflate,
                         boolean contextTakeover) {
    }

    /**
     * The decision.
     *
     * @param status 101 to accept (200 over HTTP/2), else the refusal's status
     * @param problem why it was refused (for the log and the short body), {@code null} when accepted
     * @param accept the {@code Sec-WebSocket-Accept} value, or {@code null} when refused or over HTTP/2
     * @param subprotocol the chosen subprotocol, or {@code null}
     * @param deflate the agreed permessage-deflate configuration, or {@code null}
     */
    public record Result(int status, String problem, String accept, String subprotocol, DeflateParams deflate) {
        /** Whether the socket opens. */
        public boolean accepted() {
            return problem == null;
        }

        static Result refuse(int status, String problem) {
            return new Result(status, problem, null, null, null);
        }
    }

    /**
     * Checks an HTTP/1.1 upgrade request.
     *
     * @param method the request method
     * @param version the protocol, e.g. {@code HTTP/1.1}
     * @param hasBody whether the request announces a body
     */
    public static Result checkHttp1(String method, String version, boolean hasBody, Headers h, Policy policy) {
        if (!h.hasToken("Upgrade", "websocket")) {
            return Result.refuse(426, "not a WebSocket upgrade request");
        }
        if (!method.equals("GET") || !"HTTP/1.1".equals(version)) {
            return Result.refuse(400, "a WebSocket handshake is a GET over HTTP/1.1");
        }
        if (!h.hasToken("Connection", "Upgrade")) {
            return Result.refuse(400, "Connection does not name Upgrade");
        }
        if (hasBody) {
            return Result.refuse(400, "a WebSocket handshake has no body");
        }
        Result version13 = checkVersion(h);
        if (version13 != null) {
            return version13;
        }
        if (h.count("Sec-WebSocket-Key") != 1) {
            return Result.refuse(400, "missing or repeated Sec-WebSocket-Key");
        }
        String key = h.first("Sec-WebSocket-Key").trim();
        if (!validKey(key)) {
            return Result.refuse(400, "Sec-WebSocket-Key is not base64 of 16 bytes");
        }
        return negotiate(101, accept(key), h, policy);
    }

    /**
     * Checks a WebSocket request over HTTP/2 (RFC 8441 §4-§5): an extended {@code CONNECT} with
     * {@code :protocol websocket} and {@code Sec-WebSocket-Version: 13}, then the origin check
     * and the negotiations as over HTTP/1.1; no key, no accept value (the stream is the
     * connection). Accepted, the status is {@code 200}.
     *
     * @param method the request method
     * @param connectProtocol the request's {@code :protocol}, or {@code null}
     */
    public static Result checkHttp2(String method, String connectProtocol, Headers h, Policy policy) {
        if (connectProtocol == null) {
            return Result.refuse(426, "not a WebSocket request (an HTTP/2 WebSocket is an extended CONNECT)");
        }
        if (!method.equals("CONNECT") || !connectProtocol.equals("websocket")) {
            return Result.refuse(400, "extended CONNECT for :protocol " + connectProtocol + ", not websocket");
        }
        Result version13 = checkVersion(h);
        if (version13 != null) {
            return version13;
        }
        return negotiate(200, null, h, policy);
    }

    private static Result checkVersion(Headers h) {
        if (h.count("Sec-WebSocket-Version") != 1 || !h.first("Sec-WebSocket-Version").trim().equals("13")) {
            return Result.refuse(426, "Sec-WebSocket-Version is not 13");
        }
        return null;
    }

    private static Result negotiate(int status, String accept, Headers h, Policy policy) {
        if (policy.origin() != null && !policy.origin().test(h.first("Origin"))) {
            return Result.refuse(403, "origin refused: " + h.first("Origin"));
        }
        String sub = null;
        if (!policy.subprotocols().isEmpty()) {
            outer:
            for (String offered : tokens(h.all("Sec-WebSocket-Protocol"))) {
                for (String s : policy.subprotocols()) {
                    if (s.equals(offered)) {
                        sub = s;
                        break outer;
                    }
                }
            }
        }
        DeflateParams deflate = policy.deflate()
                ? DeflateNegotiation.accept(h.all("Sec-WebSocket-Extensions"), policy.contextTakeover()) : null;
        return new Result(status, null, accept, sub, deflate);
    }

    /** The comma-separated tokens of every value, trimmed, in order. */
    static List<String> tokens(List<String> values) {
        List<String> out = new ArrayList<>();
        for (String v : values) {
            for (String t : v.split(",")) {
                String s = t.trim();
                if (!s.isEmpty()) {
                    out.add(s);
                }
            }
        }
        return out;
    }

    /** Whether {@code key} is base64 (with padding) of exactly 16 bytes: 24 characters ending {@code ==}. */
    static boolean validKey(String key) {
        if (key.length() != 24 || !key.endsWith("==")) {
            return false;
        }
        try {
            return Base64.getDecoder().decode(key).length == 16;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** {@code Sec-WebSocket-Accept} for {@code key}: base64(SHA-1(key + GUID)). */
    public static String accept(String key) {
        try {
            MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
            byte[] d = sha1.digest((key + GUID).getBytes(StandardCharsets.US_ASCII));
            return Base64.getEncoder().encodeToString(d);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is required of every JDK", e);
        }
    }
}
