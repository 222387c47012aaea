package org.loommpm.proxy;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import java.util.Arrays;
import org.loommpm.spi.EventLoop;

/**
 * One HTTP/1.1 connection to a backend owned by an event loop (a poller): non-blocking, registered
 * on that loop's selector for its whole life, read into one buffer. Between exchanges it waits in
 * its {@link LoopPool}, registered for reading so that a backend closing it is seen at once.
 *
 * <p><b>Threads.</b> Everything here but {@link #expire} and {@link #close} runs on the loop's
 * thread: the handler that starts an exchange, the readiness callbacks ({@link #ready}), tasks.
 * The balancer's {@link TimeoutSweeper} calls {@link #expire} from its own thread: it reads the
 * volatile {@link #deadline} and {@link #idleSince}, and claims an expired one by CAS before it
 * queues the loop a task, so each expiry is acted on once, on the loop. {@link #close} may come
 * from any thread (the balancer closing): the loop then sees the channel fail.
 */
final class LoopConnection implements EventLoop.Watcher {
    private static final int BUFFER = 16 * 1024;
    private static final VarHandle DEADLINE;
    private static final VarHandle IDLE_SINCE;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            DEADLINE = l.findVarHandle(LoopConnection.class, "deadline", long.class);
            IDLE_SINCE = l.findVarHandle(LoopConnection.class, "idleSince", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final LoopPool home;
    private final SocketChannel channel;
    private SelectionKey key;
    /** Whether the TCP connect has completed. */
    boolean connected;
    /** What the backend sent and was not consumed yet: {@code in[pos, lim)}. */
    byte[] in = new byte[BUFFER];
    int pos;
    int lim;
    /** The previous response head's field strings, reused when the next head repeats them. */
    final RecentFields recentFields = new RecentFields();
    /** The exchange using it; {@code null} while idle. Loop thread. */
    LoopExchange exchange;
    /** Exchanges it has served (0 while its first runs: a fresh connection). Loop thread. */
    int exchanges;
    /** When it went idle ({@link System#nanoTime()}), 0 while in an exchange. */
    volatile long idleSince;
    /** When the wait in progress (connect, response, body) times out; 0 when none. */
    private volatile long deadline;

    private LoopConnection(LoopPool home, SocketChannel channel) {
        this.home = home;
        this.channel = channel;
    }

    /**
     * Starts connecting to the member, registered on {@code home}'s loop: for reading if the
     * connect completed at once (loopback often does), else for its completion.
     *
     * @throws IOException the connect failed at once
     */
    static LoopConnection open(LoopPool home) throws IOException {
        SocketChannel ch = SocketChannel.open();
        try {
            ch.configureBlocking(false);
            ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
            ch.setOption(StandardSocketOptions.SO_KEEPALIVE, true);
            LoopConnection c = new LoopConnection(home, ch);
            c.connected = ch.connect(home.member().address());
            c.key = home.loop().register(ch, c.connected ? SelectionKey.OP_READ : SelectionKey.OP_CONNECT, c);
            home.member().loopOpened(c);
            return c;
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    LoopPool home() {
        return home;
    }

    /** Completes a pending connect; then the connection is registered for reading. */
    void finishConnect() throws IOException {
        if (channel.finishConnect()) {
            connected = true;
            key.interestOps(SelectionKey.OP_READ);
        }
    }

    void interest(int ops) {
        if (key.isValid() && key.interestOps() != ops) {
            key.interestOps(ops);
        }
    }

    /** Writes what the channel takes now, in one gathering write. */
    void write(ByteBuffer[] bs) throws IOException {
        channel.write(bs);
    }

    /**
     * Reads what the socket has into {@code in[lim..]}, first moving unread bytes to the start
     * when the buffer is full, and growing it (up to {@link BackendConnection#MAX_HEAD}) when a
     * head fills it.
     *
     * @return the bytes read, 0 for none, -1 at end of stream
     * @throws BackendProtocolException a response head larger than {@link BackendConnection#MAX_HEAD}
     */
    int read() throws IOException {
        if (lim == in.length) {
            if (pos > 0) {
                System.arraycopy(in, pos, in, 0, lim - pos);
                lim -= pos;
                pos = 0;
            } else if (in.length >= BackendConnection.MAX_HEAD) {
                throw new BackendProtocolException("response head larger than " + BackendConnection.MAX_HEAD + " bytes");
            } else {
                in = Arrays.copyOf(in, Math.min(BackendConnection.MAX_HEAD, in.length * 2));
            }
        }
        int n = channel.read(ByteBuffer.wrap(in, lim, in.length - lim));
        if (n > 0) {
            lim += n;
        }
        return n;
    }

    /**
     * Whether an idle connection is still open at the backend's end: a non-blocking read finds
     * nothing on a live one, and end of stream once the backend closed it (its FIN may have
     * arrived after the poller's last look). One system call, for requests that cannot be sent
     * again if the connection turns out closed.
     */
    boolean stillOpen() {
        try {
            return channel.read(ByteBuffer.wrap(in, 0, in.length)) == 0;
        } catch (IOException e) {
            return false;
        }
    }

    /** Marks everything read as consumed; a buffer a huge head grew goes back to its size. */
    void consumed() {
        pos = 0;
        lim = 0;
        if (in.length > BUFFER) {
            in = new byte[BUFFER];
        }
    }

    /** Arms the timeout of the wait that starts now ({@code ProxyTimeout}, or the connect timeout). */
    void armDeadline(long now, long timeoutNanos) {
        long d = now + timeoutNanos;
        deadline = d == 0 ? 1 : d;
    }

    void disarmDeadline() {
        deadline = 0;
    }

    @Override
    public void ready(SelectionKey k) {
        LoopExchange x = exchange;
        if (x != null) {
            try {
                x.ready(this, k.readyOps());
            } catch (RuntimeException e) {
                x.crashed();
                throw e;
            }
            return;
        }
        // Idle: the backend closed it (or sent what it must not): it leaves the pool.
        try {
            int n = channel.read(ByteBuffer.wrap(in, 0, in.length));
            if (n == 0) {
                return;
            }
        } catch (IOException e) {
            // as a close
        }
        home.remove(this);
        close();
    }

    @Override
    public void loopEnded() {
        close();
        LoopExchange x = exchange;
        if (x != null) {
            x.loopEnded(this);
        }
    }

    /**
     * The sweeper's look (its own thread): a wait past its deadline, or an idle connection past
     * its lifetime, is claimed and handed to the loop.
     */
    void expire(long now, long ttlNanos) {
        long d = deadline;
        if (d != 0 && now - d >= 0 && DEADLINE.compareAndSet(this, d, 0L)) {
            home.loop().execute(this::timedOut);
            return;
        }
        long idle = idleSince;
        if (idle != 0 && now - idle >= ttlNanos && IDLE_SINCE.compareAndSet(this, idle, 0L)) {
            home.loop().execute(this::idleExpired);
        }
    }

    private void timedOut() {
        LoopExchange x = exchange;
        if (x != null) {
            try {
                x.timedOut(this);
            } catch (RuntimeException e) {
                x.crashed();
                throw e;
            }
        }
    }

    private void idleExpired() {
        if (exchange == null) {
            home.remove(this);
            close();
        }
    }

    boolean isOpen() {
        return channel.isOpen();
    }

    /** Closes the socket (its key is cancelled with it). Any thread. */
    void close() {
        try {
            channel.close();
        } catch (IOException ignored) {
            // closing: nothing to do about a failure
        }
        home.member().loopClosed(this);
    }
}
