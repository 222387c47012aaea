package org.loommpm.engine;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;

/**
 * Cleartext: the socket channel itself, zero-copy {@code transferTo} for files. Holds no buffer
 * and no state besides the channel, except the bytes that came after a PROXY protocol header in
 * the poller's read ({@code received}), returned by the first reads and then dropped. Threads:
 * see {@link Transport}.
 */
final class PlainTransport implements Transport {
    private final SocketChannel channel;
    /** Bytes read from the socket before this transport existed; null once consumed. */
    private ByteBuffer received;

    PlainTransport(SocketChannel channel, ByteBuffer received) {
        this.channel = channel;
        this.received = received != null && received.hasRemaining() ? received : null;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        ByteBuffer r = received;
        if (r != null) {
            int n = Math.min(r.remaining(), dst.remaining());
            dst.put(dst.position(), r, r.position(), n).position(dst.position() + n);
            r.position(r.position() + n);
            if (!r.hasRemaining()) {
                received = null;
            }
            return n;
        }
        return channel.read(dst);
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        return channel.write(src);
    }

    @Override
    public long write(ByteBuffer[] srcs) throws IOException {
        return channel.write(srcs);
    }

    @Override
    public long transferFrom(FileChannel file, long position, long count) throws IOException {
        return file.transferTo(position, count, channel);
    }

    @Override
    public boolean flush() {
        return true;
    }

    @Override
    public boolean hasBufferedInput() {
        return received != null;
    }

    @Override
    public boolean handshaking() {
        return false;
    }

    @Override
    public long handshakeDeadline() {
        return 0;
    }

    @Override
    public String applicationProtocol() {
        return null;
    }

    @Override
    public boolean secure() {
        return false;
    }

    @Override
    public void closeOutbound() {
        // Cleartext has no protocol-level close: the poller's shutdown or close ends the stream.
    }

    @Override
    public void idle() {
        // Nothing held.
    }
}
