package org.loommpm.protocol;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import org.loommpm.spi.CloseReason;
import org.loommpm.spi.ConnectionProtocol;
import org.loommpm.spi.ProtocolConnection;
import org.loommpm.spi.SlotBoard;

/**
 * The selector entry for a TLS client on a cleartext port ({@code https://} to an {@code http}
 * listener): its ClientHello has no head end, so HTTP/1.1 would wait for the header timeout.
 * Recognised by the TLS record header and answered at once with a fatal
 * {@code unexpected_message} alert, then a lingering close counted under {@code error}.
 *
 * <p>An alert rather than httpd's 400 (which it sends in the reverse case, plain HTTP to a TLS
 * port): the client here speaks TLS and reads records, so a 400 reaches its user as a garbled
 * record ("wrong version number"), while an alert ends the handshake with an error its TLS
 * stack names. Cleartext connections only: on TLS these bytes would be decrypted data.
 */
final class TlsOnCleartext implements ProtocolSelector.ConnectionEntry, ConnectionProtocol {
    private static final System.Logger LOG = System.getLogger("org.loommpm.http1");
    /**
     * A handshake record (content type 22) of protocol version 3.x: SSL 3.0 to TLS 1.3 all send
     * it. Two bytes decide: an HTTP/1.1 request cannot start with 0x16 (a control character).
     */
    private static final byte[] RECORD_HEADER = {0x16, 0x03};
    /** Alert record (21), version 3.1 (what any TLS client reads), length 2: fatal (2), unexpected_message (10). */
    private static final byte[] UNEXPECTED_MESSAGE = {0x15, 0x03, 0x01, 0x00, 0x02, 0x02, 0x0a};

    static final TlsOnCleartext ENTRY = new TlsOnCleartext();

    private TlsOnCleartext() {
    }

    @Override
    public String alpn() {
        return null;
    }

    @Override
    public byte[] preface() {
        return RECORD_HEADER;
    }

    @Override
    public boolean cleartextOnly() {
        return true;
    }

    @Override
    public ConnectionProtocol protocol() {
        return this;
    }

    @Override
    public void serve(ProtocolConnection c, int slot) {
        LOG.log(Level.INFO, "LM0408 TLS handshake from {0} on a cleartext port: answered with an alert, closed",
                c.remoteAddress());
        c.services().scoreboard().set(slot, SlotBoard.CLOSING);
        try {
            c.write(ByteBuffer.wrap(UNEXPECTED_MESSAGE));
        } catch (IOException e) {
            LOG.log(Level.DEBUG, "LM0404 connection {0} ended: {1}", c.id(), e.toString());
        }
        c.handBackLinger(CloseReason.ERROR);
    }
}
