package org.loommpm.engine;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SocketChannel;

/**
 * Cleartext: the socket channel itself, zero-copy {@code transferTo} for files. Holds no buffer
 * and no state besides the channel. Threads: see {@link Transport}.
 */
final class PlainTransport implements Transport {
    private final SocketChannel channel;

    PlainTransport(SocketChannel channel) {
        this.channel = channel;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
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
        return false;
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
