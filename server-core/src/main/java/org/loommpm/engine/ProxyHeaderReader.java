package org.loommpm.engine;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import org.loommpm.proxyprotocol.ProxyHeader;
import org.loommpm.proxyprotocol.ProxyHeaderException;
import org.loommpm.proxyprotocol.ProxyHeaderParser;

/**
 * Reads one connection's PROXY protocol header on its poller, below the transport: the header
 * comes before anything else (a TLS ClientHello included), is small and bounded
 * ({@value ProxyHeaderParser#MAX_V2} bytes at most), so each readiness costs one non-blocking
 * read into a fixed buffer and no worker. Bytes read past the header belong to the transport
 * ({@link #rest()}).
 *
 * <p><b>Threads.</b> Poller-confined: created with the connection on the accepting poller,
 * published to the connection's poller by the hand-off queue, then used by that poller only,
 * and dropped when the header is complete (before the connection's first dispatch).
 */
final class ProxyHeaderReader {
    private final byte[] buf = new byte[ProxyHeaderParser.MAX_V2];
    private int count;
    private ProxyHeader header;

    /**
     * Reads what the socket has and parses.
     *
     * @return the header once complete; {@code null} while more bytes are needed
     * @throws ProxyHeaderException the bytes are not a valid header
     * @throws java.io.EOFException the peer closed before the header was complete
     */
    ProxyHeader read(SocketChannel channel) throws IOException, ProxyHeaderException {
        int n = channel.read(ByteBuffer.wrap(buf, count, buf.length - count));
        if (n < 0) {
            throw new java.io.EOFException(count == 0 ? "closed before sending anything"
                    : "closed after " + count + " bytes of a PROXY protocol header");
        }
        count += n;
        header = ProxyHeaderParser.parse(buf, 0, count);
        if (header == null && count == buf.length) {
            // Cannot happen while MAX_V2 bounds both versions; kept so a future cap change fails loudly.
            throw new ProxyHeaderException("no complete header within " + buf.length + " bytes");
        }
        return header;
    }

    /** The bytes that followed the header in the same reads (the transport's first), or null. */
    ByteBuffer rest() {
        int len = header.length();
        return count > len ? ByteBuffer.wrap(buf, len, count - len).slice() : null;
    }

    /** Bytes received so far (for log lines). */
    int received() {
        return count;
    }
}
