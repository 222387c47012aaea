package org.loommpm.protocol;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.loommpm.api.Handler;
import org.loommpm.config.ServerConfig;
import org.loommpm.http1.Http1Protocol;
import org.loommpm.spi.ConnectionProtocol;
import org.loommpm.spi.ExchangeObserver;

/**
 * Builds the protocol a generation's connections start with from the {@code Protocols} setting: HTTP/1.1, with a
 * {@link ProtocolSelector} whose entries answer a TLS ClientHello on a cleartext port and switch to HTTP/2 when {@code h2} (ALPN) or {@code h2c}
 * (preface, {@code Upgrade: h2c}) is enabled and {@code server-h2} is present (looked up when a
 * connection first asks for it: {@link Http2Lookup}). {@code h2c} without {@code http/1.1} makes
 * every cleartext connection HTTP/2 from its first byte, so a wrong preface is HTTP/2's
 * connection error (GOAWAY {@code PROTOCOL_ERROR}), not an HTTP/1.1 400.
 */
public final class Protocols {
    /** The request line that starts the HTTP/2 client preface (RFC 9113 §3.4); HTTP/2 checks the rest. */
    private static final byte[] H2_PREFACE_LINE = "PRI * HTTP/2.0\r\n".getBytes(StandardCharsets.US_ASCII);
    /** Matches any first bytes: the cleartext connections of a port that speaks only h2c. */
    private static final byte[] ANY_BYTES = new byte[0];

    private Protocols() {
    }

    /** The handler new connections start with. */
    public static ConnectionProtocol initial(ServerConfig config, Handler app, ExchangeObserver observer) {
        boolean h2 = config.protocols().contains("h2") || config.protocols().contains("h2c");
        return new Http1Protocol(config, app, observer,
                selector(config, h2 ? Http2Lookup.deferred(config, app, observer) : null));
    }

    /**
     * The protocol selector for {@code config}'s {@code Protocols}: HTTP/2 by ALPN {@code h2}, and
     * by its preface and {@code Upgrade: h2c} for {@code h2c} (by any first bytes on cleartext
     * when {@code http/1.1} is not listed); always the answer to a TLS ClientHello on a cleartext
     * port ({@link TlsOnCleartext}).
     *
     * @param h2 HTTP/2 (it may turn out absent), or {@code null} when neither is enabled
     */
    public static ProtocolSelector selector(ServerConfig config, Supplier<Http2Protocol> h2) {
        boolean alpn = h2 != null && config.protocols().contains("h2");
        boolean cleartext = h2 != null && config.protocols().contains("h2c");
        List<ProtocolSelector.ConnectionEntry> entries = new ArrayList<>();
        entries.add(TlsOnCleartext.ENTRY);
        if (alpn || cleartext) {
            entries.add(new Http2Entry(alpn ? "h2" : null, cleartext ? H2_PREFACE_LINE : null, false, h2));
        }
        if (cleartext && !config.protocols().contains("http/1.1")) {
            // After the preface line's entry, so a TLS connection without ALPN keeps that one.
            entries.add(new Http2Entry(null, ANY_BYTES, true, h2));
        }
        List<ProtocolSelector.UpgradeEntry> upgrades = new ArrayList<>();
        if (cleartext) {
            upgrades.add(new H2cUpgrade(h2));
        }
        return new ProtocolSelector(entries, upgrades, config.protocols());
    }

    /** HTTP/2 as a connection's first protocol. */
    private record Http2Entry(String alpn, byte[] preface, boolean cleartextOnly, Supplier<Http2Protocol> h2)
            implements ProtocolSelector.ConnectionEntry {
        @Override
        public ConnectionProtocol protocol() {
            return h2.get();
        }
    }
}
