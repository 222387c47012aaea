package org.loommpm.protocol;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.function.Supplier;
import org.loommpm.api.Headers;
import org.loommpm.http.RequestHead;
import org.loommpm.spi.ProtocolConnection;

/**
 * The {@code Upgrade: h2c} entry of the {@link ProtocolSelector} (RFC 7540 §3.2; deprecated by
 * RFC 9113 but still sent by clients such as the JDK's HttpClient for {@code http://} URIs): it
 * answers {@code 101} and hands the connection to HTTP/2, which answers the request on stream 1.
 *
 * <p>Accepted only on a connection's first request, when the request has no body (a body would
 * have to be read as HTTP/1.1 before any HTTP/2 frame, which ties up the connection for an
 * unbounded time; such a request is simply served over HTTP/1.1, which RFC 9110 §7.8 allows),
 * when {@code Connection} names both {@code Upgrade} and {@code HTTP2-Settings}, and when exactly
 * one {@code HTTP2-Settings} carries valid base64url of whole 6-byte settings.
 */
final class H2cUpgrade implements ProtocolSelector.UpgradeEntry {
    private static final byte[] SWITCHING_PROTOCOLS =
            "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: h2c\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII);

    private final Supplier<Http2Protocol> h2;

    H2cUpgrade(Supplier<Http2Protocol> h2) {
        this.h2 = h2;
    }

    /** Only a connection's first request, asking for h2c without a body. */
    @Override
    public boolean accepts(ProtocolConnection c, RequestHead head) {
        return c.requests() == 0 && requested(head);
    }

    @Override
    public boolean upgrade(ProtocolConnection c, int slot, RequestHead head) throws IOException {
        byte[] settings = settings(head);
        Http2Protocol protocol = settings == null ? null : h2.get();
        if (protocol == null) {
            return false;
        }
        c.countRequest();
        c.write(ByteBuffer.wrap(SWITCHING_PROTOCOLS));
        // Ownership passes to HTTP/2: it answers this request on stream 1.
        c.switchProtocol(protocol);
        protocol.serveUpgrade(c, slot, head, settings);
        return true;
    }

    /** Whether the request asks for h2c and may be upgraded (no body, HTTP/1.1). */
    static boolean requested(RequestHead head) {
        Headers h = head.headers();
        return head.version() == RequestHead.Version.HTTP_1_1
                && h.hasToken("Upgrade", "h2c")
                && h.hasToken("Connection", "Upgrade")
                && h.hasToken("Connection", "HTTP2-Settings")
                && !head.chunked() && head.contentLength() <= 0;
    }

    /** The decoded {@code HTTP2-Settings} payload, or {@code null} when it is missing or invalid. */
    static byte[] settings(RequestHead head) {
        Headers h = head.headers();
        if (h.count("HTTP2-Settings") != 1) {
            return null;
        }
        String v = h.first("HTTP2-Settings").trim();
        byte[] payload;
        try {
            payload = Base64.getUrlDecoder().decode(stripPadding(v));
        } catch (IllegalArgumentException e) {
            return null;
        }
        return payload.length % 6 == 0 ? payload : null;
    }

    private static String stripPadding(String v) {
        int end = v.length();
        while (end > 0 && v.charAt(end - 1) == '=') {
            end--;
        }
        return v.substring(0, end);
    }
}
