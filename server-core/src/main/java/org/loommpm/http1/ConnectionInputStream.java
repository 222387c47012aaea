package org.loommpm.http1;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import org.loommpm.spi.ProtocolConnection;

/**
 * The connection's bytes after the request head: first what is already in the context's read
 * buffer, then more from the socket, parking the worker's virtual thread while none has arrived.
 * Body decoders read through this and never past the body, so what remains in the buffer
 * afterwards is the next pipelined request. Worker-owned, like the connection.
 */
final class ConnectionInputStream extends InputStream {
    private final ProtocolConnection connection;
    private final ByteBuffer in;
    /** Bytes handed to readers: the body as received, framing included ({@code %I}, metrics). */
    private long consumed;

    /** @param in the context's read buffer, in read mode */
    ConnectionInputStream(ProtocolConnection connection, ByteBuffer in) {
        this.connection = connection;
        this.in = in;
    }

    @Override
    public int read() throws IOException {
        if (!in.hasRemaining() && fill() < 0) {
            return -1;
        }
        consumed++;
        return in.get() & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        if (!in.hasRemaining() && fill() < 0) {
            return -1;
        }
        int n = Math.min(len, in.remaining());
        in.get(b, off, n);
        consumed += n;
        return n;
    }

    /** Bytes read through this stream so far. */
    long consumed() {
        return consumed;
    }

    @Override
    public int available() {
        return in.remaining();
    }

    /** Refills the empty buffer from the socket, parking until at least one byte or EOF. */
    private int fill() throws IOException {
        in.clear();
        int n = connection.read(in);
        in.flip();
        return n;
    }
}
