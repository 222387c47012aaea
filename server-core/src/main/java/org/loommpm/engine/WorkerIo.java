package org.loommpm.engine;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.Arrays;
import org.loommpm.spi.PeerIOException;
import org.loommpm.spi.SlotMove;

/**
 * The owner's socket I/O on a {@link Connection}: reads and writes through its {@link Transport}
 * that park the calling virtual thread ({@link Connection#await}) instead of blocking a poller,
 * and, while the poller serves the connection inline, writes that never park (what the socket
 * does not take is copied onto the outbound queue).
 *
 * <p><b>Threads.</b> Every method runs on the connection's owner: the worker it was dispatched
 * to, or its poller while {@link Connection#inline} is set. Static methods over the connection
 * rather than an object per connection, so idle connections carry no extra field.
 *
 * <p><b>Failures.</b> A timeout stays a {@link SocketTimeoutException} (the protocol answers
 * 408); any other I/O failure is the peer's ({@link PeerIOException}).
 */
final class WorkerIo {
    private WorkerIo() {
    }

    /** See {@link Connection#readNow}. */
    static int readNow(Connection c, ByteBuffer dst) throws IOException {
        Transport transport = c.transport();
        for (;;) {
            int n = transport.read(dst);
            if (n > 0) {
                c.handshakeOver();
            }
            if (n != 0 || transport.flush()) {
                return n;
            }
            c.await(HandOff.AWAIT_WRITE);
        }
    }

    /**
     * See {@link Connection#read(ByteBuffer, long, SlotMove)}; {@code moved} null for a read that
     * keeps its slot. Only a wait for the client's bytes lends it, not one for the socket to take
     * what the transport must write first (a TLS handshake message).
     */
    static int read(Connection c, ByteBuffer dst, long deadlineNanos, SlotMove moved) throws IOException {
        Transport transport = c.transport();
        c.awaitDeadline = deadlineNanos;
        try {
            for (;;) {
                int n = transport.read(dst);
                if (n > 0) {
                    c.handshakeOver();
                }
                if (n != 0 || !dst.hasRemaining()) {
                    return n;
                }
                if (transport.flush()) {
                    c.await(HandOff.AWAIT_READ, moved);
                } else {
                    c.await(HandOff.AWAIT_WRITE);
                }
            }
        } catch (IOException e) {
            throw peerFailure(e);
        }
    }

    /** See {@link Connection#write(ByteBuffer)}. */
    static void write(Connection c, ByteBuffer src) throws IOException {
        if (c.inline) {
            writeInline(c, new ByteBuffer[] {src});
            return;
        }
        Transport transport = c.transport();
        try {
            while (src.hasRemaining()) {
                int n = transport.write(src);
                if (n == 0) {
                    c.await(HandOff.AWAIT_WRITE);
                }
                c.addBytesWritten(n);
            }
            flushTransport(c);
        } catch (IOException e) {
            throw peerFailure(e);
        }
    }

    /** See {@link Connection#write(ByteBuffer[])}. */
    static void write(Connection c, ByteBuffer[] srcs) throws IOException {
        if (c.inline) {
            writeInline(c, srcs);
            return;
        }
        Transport transport = c.transport();
        try {
            while (remaining(srcs) > 0) {
                long n = transport.write(srcs);
                if (n == 0) {
                    c.await(HandOff.AWAIT_WRITE);
                }
                c.addBytesWritten(n);
            }
            flushTransport(c);
        } catch (IOException e) {
            throw peerFailure(e);
        }
    }

    /** See {@link Connection#transferFrom}. */
    static void transferFrom(Connection c, FileChannel file, long position, long count) throws IOException {
        if (c.inline) {
            transferInline(c, file, position, count);
            return;
        }
        Transport transport = c.transport();
        long pos = position;
        long end = position + count;
        while (pos < end) {
            long n;
            try {
                n = transport.transferFrom(file, pos, end - pos);
            } catch (IOException e) {
                throw peerFailure(e);
            }
            if (n == 0) {
                if (pos >= file.size()) { // the file's failure, not the peer's
                    throw new IOException("file shrank while being sent");
                }
                try {
                    c.await(HandOff.AWAIT_WRITE);
                } catch (IOException e) {
                    throw peerFailure(e);
                }
            }
            pos += n;
            c.addBytesWritten(n);
        }
        try {
            flushTransport(c);
        } catch (IOException e) {
            throw peerFailure(e);
        }
    }

    /** See {@link Connection#flushOutbound}. */
    static void flushOutbound(Connection c) throws IOException {
        Outbound q = c.outboundIfAny();
        if (q == null || !q.hasItems()) {
            return;
        }
        Transport transport = c.transport();
        ByteBuffer[] scratch = new ByteBuffer[Outbound.BATCH];
        try {
            while (q.hasItems()) {
                long n = q.drainTo((srcs, k) -> transport.write(k == srcs.length ? srcs : Arrays.copyOf(srcs, k)),
                        scratch, Long.MAX_VALUE);
                c.addBytesWritten(n);
                if (q.hasItems()) {
                    c.await(HandOff.AWAIT_WRITE);
                }
            }
            flushTransport(c);
        } catch (IOException e) {
            throw peerFailure(e);
        }
    }

    /**
     * A write on the poller serving the connection inline (plaintext only): what the socket
     * takes now, and a copy of the rest queued on its outbound queue for the poller to write
     * when the socket is writable. Once something is queued, later writes queue behind it so
     * the bytes stay in order.
     */
    private static void writeInline(Connection c, ByteBuffer[] srcs) throws IOException {
        Outbound q = c.outboundIfAny();
        if (q == null || !q.hasItems()) {
            Transport transport = c.transport();
            try {
                long n;
                do {
                    // One buffer (a response head with its body): a plain write, not a gathering one.
                    n = srcs.length == 1 ? transport.write(srcs[0]) : transport.write(srcs);
                    c.addBytesWritten(n);
                } while (n > 0 && remaining(srcs) > 0);
            } catch (IOException e) {
                throw peerFailure(e);
            }
        }
        long left = remaining(srcs);
        if (left > 0) {
            ByteBuffer copy = ByteBuffer.allocate(Math.toIntExact(left));
            for (ByteBuffer b : srcs) {
                copy.put(b);
            }
            c.outbound().put(copy.flip());
        }
    }

    /** A file body sent inline: zero-copy while the socket takes it, then the rest read into memory and queued. */
    private static void transferInline(Connection c, FileChannel file, long position, long count) throws IOException {
        long pos = position;
        long end = position + count;
        Outbound q = c.outboundIfAny();
        if (q == null || !q.hasItems()) {
            Transport transport = c.transport();
            long n;
            try {
                while (pos < end && (n = transport.transferFrom(file, pos, end - pos)) > 0) {
                    pos += n;
                    c.addBytesWritten(n);
                }
            } catch (IOException e) {
                throw peerFailure(e);
            }
        }
        if (pos < end) {
            ByteBuffer rest = ByteBuffer.allocate(Math.toIntExact(end - pos));
            while (rest.hasRemaining()) {
                if (file.read(rest, pos + rest.position()) < 0) {
                    throw new IOException("file shrank while being sent");
                }
            }
            c.outbound().put(rest.flip());
        }
    }

    private static long remaining(ByteBuffer[] srcs) {
        long n = 0;
        for (ByteBuffer b : srcs) {
            n += b.remaining();
        }
        return n;
    }

    /** Parks until the transport has sent everything it holds (TLS records already wrapped). */
    private static void flushTransport(Connection c) throws IOException {
        while (!c.transport().flush()) {
            c.await(HandOff.AWAIT_WRITE);
        }
    }

    /** A timeout stays a timeout (the protocol answers 408); anything else means the peer is gone. */
    private static IOException peerFailure(IOException e) {
        return e instanceof SocketTimeoutException || e instanceof PeerIOException ? e : new PeerIOException(e);
    }
}
