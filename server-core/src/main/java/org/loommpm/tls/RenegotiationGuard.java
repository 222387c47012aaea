package org.loommpm.tls;

import java.nio.ByteBuffer;

/**
 * Refuses client-initiated renegotiation. On TLS 1.2 and below a client may start a new full
 * handshake at any time on an established connection, and each one costs the server a key
 * exchange and a signature for a few hundred bytes from the client (200 in a row on one
 * connection were all served, issue #23). HTTP needs none (HTTP/2 forbids it, RFC 9113 §9.2.1),
 * so it is refused, always: there is no directive to allow it.
 *
 * <p>Two layers. {@link TlsTransport} checks each record before it unwraps it on an established
 * connection: on TLS 1.2 and below a handshake record can only be a client's new ClientHello
 * (the server never asks for a renegotiation), so it is refused before the engine reads it and
 * no work is done for it. TLS 1.3 is left alone: it has no renegotiation, and its post-handshake
 * messages (KeyUpdate, which either side may send at any time) travel inside application_data
 * records, which the check never matches. {@link #rejectInJdk()} also sets the JDK's own switch
 * for engines the check does not cover (other TLS servers an application embeds in the same
 * JVM); it cannot be the only layer because the JDK reads it once, when its server handshake
 * class is first loaded, which may happen before the server starts (a TLS client or server
 * made earlier in the same JVM).
 *
 * <p>Stateless; any thread.
 */
final class RenegotiationGuard {
    /** The JDK's switch, read once per JVM. */
    static final String JDK_PROPERTY = "jdk.tls.rejectClientInitiatedRenegotiation";
    /** The TLS record content type of handshake messages. */
    private static final byte HANDSHAKE = 22;

    private RenegotiationGuard() {
    }

    /** Sets {@link #JDK_PROPERTY} to {@code true} unless the JVM was started with a value. */
    static void rejectInJdk() {
        if (System.getProperty(JDK_PROPERTY) == null) {
            System.setProperty(JDK_PROPERTY, "true");
        }
    }

    /** Whether a connection that negotiated {@code protocol} could be renegotiated (not TLS 1.3). */
    static boolean renegotiable(String protocol) {
        return !"TLSv1.3".equals(protocol);
    }

    /**
     * Whether the record at the start of {@code records} (read mode, at a record boundary) is a
     * handshake record: after the handshake of a renegotiable connection, a renegotiation.
     */
    static boolean handshakeRecord(ByteBuffer records) {
        return records.hasRemaining() && records.get(records.position()) == HANDSHAKE;
    }
}
