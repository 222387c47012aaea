package org.loommpm.protocol;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.loommpm.http.ProtocolSwitch;
import org.loommpm.http.RequestHead;
import org.loommpm.spi.ConnectionProtocol;
import org.loommpm.spi.ProtocolConnection;

/**
 * Which protocol serves a connection, decided in one place: HTTP/1.1 serves every connection
 * first and asks the selector at two points (it sees it as a {@link ProtocolSwitch}), and each
 * protocol that can take a connection over is an entry here rather than a branch inside
 * HTTP/1.1.
 * <ul>
 *   <li>{@link #select}: on a fresh connection, before its first request is served: the ALPN
 *       name TLS negotiated, or, on a cleartext connection, the first bytes (a preface such as
 *       HTTP/2's {@code PRI * HTTP/2.0}, or a TLS record header: {@code TlsOnCleartext}). A
 *       {@link ConnectionEntry} per protocol.</li>
 *   <li>{@link #upgrade}: an HTTP/1.1 request with {@code Upgrade} (RFC 9110 §7.8): an
 *       {@link UpgradeEntry} per token ({@code h2c} today; {@code websocket} next).</li>
 * </ul>
 * Its entries also give TLS its ALPN list ({@link #applicationProtocols}). The selector is
 * immutable and shared by a generation's connections; entries are called on the worker that
 * owns the connection. (The PROXY protocol header is not an entry: it precedes the TLS
 * handshake, so it belongs below TLS, in the transport.)
 */
public final class ProtocolSelector implements ProtocolSwitch {
    /** A protocol a connection can start with instead of HTTP/1.1. */
    public interface ConnectionEntry {
        /** The ALPN name that selects it on a TLS listener, or {@code null}. */
        String alpn();

        /**
         * The first bytes that select it on a cleartext connection, or {@code null}. HTTP/1.1 asks
         * each time a fresh connection's reads return bytes, before it scans them, so a preface
         * may be any length up to a request head's and may arrive in pieces.
         */
        byte[] preface();

        /**
         * Whether {@link #preface} selects it on cleartext connections only (not on a TLS one
         * without ALPN, where the bytes are decrypted data).
         */
        default boolean cleartextOnly() {
            return false;
        }

        /** The protocol, or {@code null} when it is not there after all (its module is absent). */
        ConnectionProtocol protocol();
    }

    /** A protocol one HTTP/1.1 request can switch the connection to with {@code Upgrade}. */
    public interface UpgradeEntry {
        /** Whether {@code head} asks for this protocol and may switch to it on {@code c}. */
        boolean accepts(ProtocolConnection c, RequestHead head);

        /**
         * Switches: answers {@code 101} and hands the connection to the protocol, which then owns
         * it (and hands it back, as {@link ConnectionProtocol} requires).
         *
         * @return {@code false} when it declined after all (nothing was written: the request is
         *         served as HTTP/1.1, as RFC 9110 §7.8 allows)
         */
        boolean upgrade(ProtocolConnection c, int slot, RequestHead head) throws IOException;
    }

    private final List<ConnectionEntry> entries;
    private final List<UpgradeEntry> upgrades;
    /** The {@code Protocols} names in the operator's order. */
    private final List<String> order;

    /**
     * @param entries protocols a connection can start with
     * @param upgrades protocols an HTTP/1.1 request can upgrade to
     * @param order the {@code Protocols} setting, whose order ALPN follows
     */
    public ProtocolSelector(List<ConnectionEntry> entries, List<UpgradeEntry> upgrades, List<String> order) {
        this.entries = List.copyOf(entries);
        this.upgrades = List.copyOf(upgrades);
        this.order = List.copyOf(order);
    }

    /**
     * The protocol that takes over a fresh connection (no request served yet), or {@code null}
     * for HTTP/1.1: on TLS the ALPN choice alone decides; on cleartext, the buffered first bytes
     * ({@code in}, read mode) starting with an entry's preface. The caller switches the
     * connection to it and lets it serve.
     */
    @Override
    public ConnectionProtocol select(ProtocolConnection c, ByteBuffer in) {
        if (entries.isEmpty() || c.requests() != 0) {
            return null;
        }
        String alpn = c.applicationProtocol();
        for (ConnectionEntry e : entries) {
            if (alpn != null ? alpn.equals(e.alpn())
                    : startsWith(in, e.preface()) && !(e.cleartextOnly() && c.isSecure())) {
                return e.protocol();
            }
        }
        return null;
    }

    /**
     * Upgrades the connection if {@code head} asks for a protocol an entry serves.
     *
     * @return whether the connection now belongs to another protocol (HTTP/1.1 must not touch it)
     */
    @Override
    public boolean upgrade(ProtocolConnection c, int slot, RequestHead head) throws IOException {
        if (upgrades.isEmpty() || !head.headers().contains("Upgrade")) {
            return false;
        }
        for (UpgradeEntry u : upgrades) {
            if (u.accepts(c, head) && u.upgrade(c, slot, head)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The ALPN names to offer, in the {@code Protocols} order: each entry's whose protocol is
     * really there, and {@code http/1.1} always.
     */
    @Override
    public List<String> applicationProtocols() {
        List<String> names = new ArrayList<>();
        for (String p : order) {
            if (p.equals("http/1.1") || offered(p)) {
                names.add(p);
            }
        }
        if (!names.contains("http/1.1")) {
            names.add("http/1.1");
        }
        return List.copyOf(names);
    }

    private boolean offered(String alpn) {
        for (ConnectionEntry e : entries) {
            if (alpn.equals(e.alpn()) && e.protocol() != null) {
                return true;
            }
        }
        return false;
    }

    private static boolean startsWith(ByteBuffer in, byte[] prefix) {
        if (prefix == null || in.limit() < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if (in.get(i) != prefix[i]) {
                return false;
            }
        }
        return true;
    }
}
