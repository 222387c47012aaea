package org.loommpm.proxy;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.Arrays;

/**
 * One HTTP/1.1 connection to a backend: a {@link SocketChannel} in blocking mode, read through
 * its socket adaptor (which honours a read timeout) with one input buffer, written through an
 * output buffer, into which a request head is composed directly ({@link #ascii}) and sent with
 * one write by {@link #flush}.
 *
 * <p><b>Threads.</b> The JDK's blocking socket I/O called from a virtual thread does not block a
 * carrier: the virtual thread parks and the JDK's own poller (a fixed few threads for the whole
 * JVM, not one per socket) unparks it when the socket is ready. So this class is used only from
 * the virtual thread that leased it from its {@link MemberPool}: the worker running the proxied
 * exchange (or the health-check thread). Between leases it belongs to no thread; it is published
 * to the next lessee through the pool's concurrent deque (push by the releasing worker, pop by
 * the next one), which orders every write before the hand-off. The engine's pollers never see
 * it. The exception is a connection a backend switched to another protocol: the lessee hands it
 * to a {@link TunnelUpgrade}, then a {@link Tunnel}, which splits it by direction (its reader
 * thread reads {@link #channel} directly, the worker serving the client writes through
 * {@link #out}) until the client connection ends and it goes back to the pool, closed.
 */
final class BackendConnection implements AutoCloseable, HeadSink {
    /** Largest response head accepted (status line and fields), as httpd's 8 KiB lines times a few. */
    static final int MAX_HEAD = 64 * 1024;
    private static final int BUFFER = 16 * 1024;

    private final SocketChannel channel;
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    /** The I/O timeout ({@code ProxyTimeout}) in nanoseconds; 0 for none. */
    private long ioTimeoutNanos;
    /**
     * When the blocking read or write in progress times out ({@link System#nanoTime()}); 0 when
     * none is in progress. Written by the lessee around each blocking call, read by the
     * balancer's {@link TimeoutSweeper}, which closes the channel once it has passed: a read
     * timeout on the socket instead ({@code SO_TIMEOUT}) makes every park of the virtual thread a
     * timed one, which cost a third of the proxy's CPU per request in benchmarks/proxy.sh.
     */
    private volatile long deadline;
    /** Set by the sweeper before it closes the channel: the failure is a timeout. */
    private volatile boolean timedOut;
    private byte[] buf = new byte[BUFFER];
    /** The previous response head's field strings, reused when the next head repeats them. */
    private final RecentFields recentFields = new RecentFields();
    private int pos;
    private int lim;
    /** Bytes toward the backend not written yet. */
    private HeadBytes wbuf = new HeadBytes(BUFFER);
    /** When it went back to the pool ({@link System#nanoTime()}), for the idle timeout. */
    long idleSince;
    /** Exchanges served so far: 0 while the first runs (a fresh connection). */
    int exchanges;

    private BackendConnection(SocketChannel channel) throws IOException {
        this.channel = channel;
        this.socket = channel.socket();
        this.in = socket.getInputStream();
        this.out = new Output(socket.getOutputStream());
    }

    /** Sets the timeout of each blocking read and write of the lessee (enforced by the sweeper). */
    void ioTimeout(long nanos) {
        ioTimeoutNanos = nanos;
    }

    private void arm() {
        if (ioTimeoutNanos > 0) {
            long d = System.nanoTime() + ioTimeoutNanos;
            deadline = d == 0 ? 1 : d;
        }
    }

    private void disarm() {
        if (ioTimeoutNanos > 0) {
            deadline = 0;
        }
    }

    /** The sweeper's check: closes the connection if its blocking call is past its deadline. */
    boolean expire(long now) {
        long d = deadline;
        if (d != 0 && now - d >= 0) {
            timedOut = true;
            close();
            return true;
        }
        return false;
    }

    /** A failure of a blocking call, as a timeout if the sweeper ended it. */
    private IOException failure(IOException e) {
        if (timedOut) {
            return new java.net.SocketTimeoutException("no progress within " + ioTimeoutNanos / 1_000_000 + " ms");
        }
        return e;
    }

    /** Reads from the socket under the I/O timeout. */
    private int timedRead(byte[] b, int off, int len) throws IOException {
        arm();
        try {
            return in.read(b, off, len);
        } catch (IOException e) {
            throw failure(e);
        } finally {
            disarm();
        }
    }

    /**
     * The buffered output: small writes are gathered in {@link #wbuf}, one that does not fit is
     * written straight through after what is gathered; every write to the socket is timed.
     */
    private final class Output extends OutputStream {
        private final OutputStream raw;

        Output(OutputStream raw) {
            this.raw = raw;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (len <= wbuf.capacity() - wbuf.length()) {
                wbuf.bytes(b, off, len);
                return;
            }
            flush();
            if (len < wbuf.capacity()) {
                wbuf.bytes(b, off, len);
            } else {
                timedWrite(b, off, len);
            }
        }

        @Override
        public void flush() throws IOException {
            HeadBytes full = wbuf;
            int n = full.length();
            if (n > 0) {
                byte[] b = full.array();
                full.clear();
                if (full.capacity() > BUFFER) {
                    wbuf = new HeadBytes(BUFFER); // a pooled connection does not keep what one huge head grew it to
                }
                timedWrite(b, 0, n);
            }
        }

        private void timedWrite(byte[] b, int off, int len) throws IOException {
            arm();
            try {
                raw.write(b, off, len);
            } catch (IOException e) {
                throw failure(e);
            } finally {
                disarm();
            }
        }
    }

    /**
     * {@return appends ISO-8859-1 text {@code s[from, to)} (a request head's part) to the output
     * buffer, which grows for a head larger than it; nothing is written before {@link #flush}}
     */
    @Override
    public BackendConnection ascii(String s, int from, int to) {
        wbuf.ascii(s, from, to);
        return this;
    }

    /** {@return appends a non-negative number in decimal, as {@link #ascii(String, int, int)}} */
    @Override
    public BackendConnection decimal(long v) {
        wbuf.decimal(v);
        return this;
    }

    /**
     * Connects, parking the calling virtual thread (no carrier blocked) for at most
     * {@code connectTimeoutMillis}.
     *
     * @throws IOException the connect failed or timed out ({@link java.net.SocketTimeoutException})
     */
    static BackendConnection open(InetSocketAddress address, int connectTimeoutMillis) throws IOException {
        SocketChannel ch = SocketChannel.open();
        try {
            ch.socket().connect(address, connectTimeoutMillis);
            ch.socket().setTcpNoDelay(true);
            ch.socket().setKeepAlive(true);
            return new BackendConnection(ch);
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    /**
     * Sets {@code SO_TIMEOUT}: a read then fails with {@link java.net.SocketTimeoutException}
     * without closing the connection (the wait for a {@code 100 Continue}, health checks); 0 for
     * none.
     */
    void readTimeout(int millis) throws IOException {
        socket.setSoTimeout(millis);
    }

    /** {@return the buffered stream toward the backend; {@link #flush} sends what it holds} */
    OutputStream out() {
        return out;
    }

    void flush() throws IOException {
        out.flush();
    }

    /**
     * Whether a pooled connection can be reused: nothing unread and not closed by the backend.
     * A non-blocking read of one byte tells, without waiting: the backend's FIN (a keep-alive
     * timeout on its side) shows as end-of-stream. Called by the lessee, before any I/O.
     */
    boolean usable() {
        if (pos != lim || !channel.isOpen()) {
            return false;
        }
        try {
            channel.configureBlocking(false);
            int n = channel.read(ByteBuffer.allocate(1));
            channel.configureBlocking(true);
            return n == 0;
        } catch (IOException e) {
            return false;
        }
    }

    /** {@return reads at least one byte into the buffer unless it already holds some; -1 at end of stream} */
    private int fill() throws IOException {
        if (pos < lim) {
            return lim - pos;
        }
        pos = 0;
        lim = 0;
        int n = timedRead(buf, 0, buf.length);
        if (n > 0) {
            lim = n;
        }
        return n;
    }

    /**
     * Reads one response head (status line to the empty line) and parses it.
     *
     * @throws EOFException the backend closed before a whole head (at its first byte when
     *     {@code bytesBefore} of the returned exception's message says so: see {@link ResponseHead})
     * @throws BackendProtocolException the head is malformed or larger than {@link #MAX_HEAD}
     */
    ResponseHead readHead() throws IOException {
        // Compact what is left so the head starts at 0, then read until the empty line.
        if (pos > 0) {
            System.arraycopy(buf, pos, buf, 0, lim - pos);
            lim -= pos;
            pos = 0;
        }
        int scanFrom = 0;
        for (;;) {
            int end = headEnd(buf, scanFrom, lim);
            if (end >= 0) {
                ResponseHead head = ResponseHead.parse(buf, 0, end, recentFields);
                pos = end;
                return head;
            }
            scanFrom = Math.max(0, lim - 3);
            if (lim == buf.length) {
                if (buf.length >= MAX_HEAD) {
                    throw new BackendProtocolException("response head larger than " + MAX_HEAD + " bytes");
                }
                buf = Arrays.copyOf(buf, Math.min(MAX_HEAD, buf.length * 2));
            }
            int n = timedRead(buf, lim, buf.length - lim);
            if (n < 0) {
                throw new EOFException(lim == 0 ? "backend closed the connection before responding"
                        : "backend closed the connection inside the response head");
            }
            lim += n;
        }
    }

    /** {@return whether any byte of a response has been read since the last {@link #readHead} began} */
    boolean hasBufferedBytes() {
        return lim > pos;
    }

    /** Index just past {@code \r\n\r\n} (or a bare {@code \n\n}), or -1. */
    static int headEnd(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] == '\n') {
                if (i + 1 < to && b[i + 1] == '\n') {
                    return i + 2;
                }
                if (i + 2 < to && b[i + 1] == '\r' && b[i + 2] == '\n') {
                    return i + 3;
                }
            }
        }
        return -1;
    }

    /** Reads up to {@code len} body bytes; -1 at end of stream. */
    int read(byte[] dst, int off, int len) throws IOException {
        if (pos < lim) {
            int n = Math.min(len, lim - pos);
            System.arraycopy(buf, pos, dst, off, n);
            pos += n;
            return n;
        }
        return timedRead(dst, off, len);
    }

    /** {@return reads one byte; -1 at end of stream} */
    int read() throws IOException {
        if (fill() <= 0) {
            return -1;
        }
        return buf[pos++] & 0xff;
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException ignored) {
            // closing: nothing to do about a failure
        }
    }

    /** {@return bytes the socket holds unread (not counting this connection's buffer)} */
    int available() {
        try {
            return in.available();
        } catch (IOException e) {
            return 0;
        }
    }

    /**
     * The socket itself, for an upgrade {@link Tunnel}: its backend reader reads it directly
     * (blocking, on its own virtual thread) while the client's worker writes through {@link #out}.
     */
    SocketChannel channel() {
        return channel;
    }

    /** {@return takes the bytes read past the last head (what a backend sent right behind its 101)} */
    ByteBuffer takeBuffered() {
        ByteBuffer b = ByteBuffer.wrap(Arrays.copyOfRange(buf, pos, lim));
        pos = lim;
        return b;
    }

    boolean isOpen() {
        return channel.isOpen();
    }
}
