package org.loommpm.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * A constant-rate (open-loop) HTTP/1.1 load generator on one thread and one {@link Selector}.
 *
 * <p>Request {@code k} of a run is scheduled at {@code start + k / rate}, whatever happened to
 * the earlier ones. A due request takes the least recently used idle connection; when none is
 * idle it waits in the client's FIFO (so the wait counts in its latency), and if fewer than
 * {@code maxConnections} are open a new one is opened for it. A request still waiting for a
 * connection at its deadline is dropped; one sent but unanswered at its deadline aborts its
 * connection. Each connection carries one request at a time. Connections persist across runs.
 *
 * <p>Timing: the loop sleeps in {@code select} with millisecond granularity, so at low rates a
 * request may be sent up to about 1 ms late; at high rates the loop is woken by responses far
 * more often than that. That lateness is part of {@link RunResult#sendLag} and of the
 * latency, as it should be for a coordinated-omission-free figure.
 */
final class OpenLoopClient implements AutoCloseable {
    private static final long SWEEP_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    /** Connections opened per loop turn at most, so a burst of opens does not stall sends. */
    private static final int OPENS_PER_TURN = 64;

    private final InetSocketAddress target;
    private final ByteBuffer request;
    private final int maxConnections;
    private final long deadlineNanos;
    private final int serverPid;
    private final Selector selector = Selector.open();
    private final List<HttpConn> all = new ArrayList<>();
    private final ArrayDeque<HttpConn> idle = new ArrayDeque<>();
    private int connecting;
    private int busy;

    // per-run state
    private Histogram latency;
    private Histogram sendLag;
    private Histogram service;
    private long completed;
    private long timeouts;
    private long errors;
    private long non2xx;
    private long connectErrors;
    private int peakConnections;

    /**
     * @param target the server
     * @param path the request target ({@code GET path HTTP/1.1})
     * @param maxConnections most connections open or opening at once
     * @param deadlineMillis a request not answered this long after its scheduled time fails
     * @param serverPid the server process whose CPU time each run reports, 0 for none
     */
    OpenLoopClient(InetSocketAddress target, String path, int maxConnections, long deadlineMillis, int serverPid)
            throws IOException {
        this.target = target;
        byte[] get = ("GET " + path + " HTTP/1.1\r\nHost: " + target.getHostString() + ":" + target.getPort()
                + "\r\n\r\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        this.request = ByteBuffer.allocateDirect(get.length).put(get).flip();
        this.maxConnections = maxConnections;
        this.deadlineNanos = TimeUnit.MILLISECONDS.toNanos(deadlineMillis);
        this.serverPid = serverPid;
    }

    /** Opens {@code n} connections and waits (at most 10 s) until they are established. */
    void connect(int n) throws IOException {
        for (int i = 0; i < n; i++) {
            open(System.nanoTime());
        }
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (connecting > 0 && System.nanoTime() < until) {
            selector.select(this::ready, 10);
        }
        if (idle.size() < n) {
            throw new IOException("only " + idle.size() + " of " + n + " connections established");
        }
    }

    /** Offers {@code rate} requests/s for {@code seconds}, then waits for the last answers (or their deadline). */
    RunResult run(double rate, double seconds) throws IOException {
        latency = new Histogram(TimeUnit.SECONDS.toMicros(60), 3);
        sendLag = new Histogram(TimeUnit.SECONDS.toMicros(60), 3);
        service = new Histogram(TimeUnit.SECONDS.toMicros(60), 3);
        completed = timeouts = errors = non2xx = connectErrors = 0;
        peakConnections = all.size();
        long total = (long) (rate * seconds);
        double interval = 1e9 / rate;
        long expired = 0;
        long serverCpu0 = ProcCpu.nanos(serverPid);
        long serverJit0 = ProcCpu.jitNanos(serverPid);
        long clientCpu0 = clientCpu();
        long start = System.nanoTime();
        long next = 0;
        long idleNanos = 0;
        long nextSweep = start + SWEEP_NANOS;
        while (next < total || busy > 0) {
            long now = System.nanoTime();
            while (next < total && at(start, interval, next) + deadlineNanos <= now) {
                expired++;
                next++;
            }
            while (next < total && at(start, interval, next) <= now) {
                HttpConn c = idle.pollFirst();
                if (c == null) {
                    break;
                }
                send(c, at(start, interval, next), now);
                next++;
            }
            if (next < total && idle.isEmpty()) {
                long due = Math.min(total, (long) ((now - start) / interval) + 1) - next;
                grow(due, now);
            }
            if (now >= nextSweep) {
                sweep(now);
                nextSweep = now + SWEEP_NANOS;
            }
            long wait = next < total && !idle.isEmpty() ? at(start, interval, next) - now : SWEEP_NANOS;
            // Time inside select() is time spent waiting for the network; the keys are handled after.
            long before = System.nanoTime();
            int n = wait <= 50_000 ? selector.selectNow()
                    : selector.select(Math.max(1, Math.min(wait, nextSweep - now) / 1_000_000));
            idleNanos += System.nanoTime() - before;
            if (n > 0) {
                for (Iterator<SelectionKey> it = selector.selectedKeys().iterator(); it.hasNext(); ) {
                    SelectionKey key = it.next();
                    it.remove();
                    ready(key);
                }
            }
        }
        long wall = System.nanoTime() - start;
        long serverCpu = serverPid > 0 ? ProcCpu.nanos(serverPid) - serverCpu0 : -1;
        long serverJit = serverJit0 >= 0 ? ProcCpu.jitNanos(serverPid) - serverJit0 : -1;
        return new RunResult(rate, seconds, total, completed, expired, timeouts, errors, non2xx, connectErrors,
                peakConnections, latency, sendLag, service, clientCpu() - clientCpu0, wall, wall - idleNanos, serverCpu,
                serverJit);
    }

    private static long at(long start, double interval, long k) {
        return start + (long) (k * interval);
    }

    private void send(HttpConn c, long scheduled, long now) throws IOException {
        c.busy = true;
        c.since = scheduled;
        busy++;
        c.sentAt = now;
        sendLag.recordValue(Math.max(0, (now - scheduled) / 1000));
        ByteBuffer out = request.duplicate();
        try {
            c.channel.write(out);
        } catch (IOException e) {
            fail(c);
            return;
        }
        if (out.hasRemaining()) {
            c.out = out;
            c.key.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
        }
    }

    /** Opens connections for requests that are due and have none, within the cap. */
    private void grow(long due, long now) throws IOException {
        long want = Math.min(due - connecting, maxConnections - (long) all.size());
        for (int i = 0; i < Math.min(want, OPENS_PER_TURN); i++) {
            open(now);
        }
    }

    private void open(long now) throws IOException {
        SocketChannel ch = SocketChannel.open();
        ch.configureBlocking(false);
        ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
        HttpConn c = new HttpConn(ch);
        c.since = now;
        all.add(c);
        connecting++;
        peakConnections = Math.max(peakConnections, all.size());
        try {
            if (ch.connect(target)) {
                connected(c);
                c.key = ch.register(selector, SelectionKey.OP_READ, c);
            } else {
                c.key = ch.register(selector, SelectionKey.OP_CONNECT, c);
            }
        } catch (IOException e) {
            connectErrors++;
            drop(c);
        }
    }

    private void connected(HttpConn c) {
        c.connected = true;
        connecting--;
        idle.addLast(c);
    }

    /** Handles one ready key. */
    private void ready(SelectionKey key) {
        HttpConn c = (HttpConn) key.attachment();
        try {
            if (key.isConnectable()) {
                try {
                    c.channel.finishConnect();
                } catch (IOException e) {
                    connectErrors++;
                    drop(c);
                    return;
                }
                key.interestOps(SelectionKey.OP_READ);
                connected(c);
                return;
            }
            if (key.isWritable() && c.out != null) {
                c.channel.write(c.out);
                if (!c.out.hasRemaining()) {
                    c.out = null;
                    key.interestOps(SelectionKey.OP_READ);
                }
            }
            if (key.isReadable()) {
                read(c);
            }
        } catch (IOException e) {
            fail(c);
        }
    }

    private void read(HttpConn c) throws IOException {
        int n = c.channel.read(c.in);
        if (n < 0) {
            fail(c);
            return;
        }
        if (!c.busy) {
            drop(c); // bytes nobody asked for (say, a timeout answer): the connection is done
            return;
        }
        int status = c.parse();
        if (status == HttpConn.INCOMPLETE) {
            return;
        }
        if (status == HttpConn.UNFRAMEABLE) {
            fail(c);
            return;
        }
        long done = System.nanoTime();
        latency.recordValue(Math.max(0, (done - c.since) / 1000));
        service.recordValue(Math.max(0, (done - c.sentAt) / 1000));
        completed++;
        if (status < 200 || status > 299) {
            non2xx++;
        }
        c.busy = false;
        busy--;
        if (c.closeAfter) {
            drop(c);
        } else {
            idle.addLast(c);
        }
    }

    /** The connection failed: its request in flight (if any) counts as an error. */
    private void fail(HttpConn c) {
        if (c.busy) {
            errors++;
        }
        drop(c);
    }

    /** Aborts in-flight requests and connection attempts that passed the deadline. */
    private void sweep(long now) {
        for (int i = all.size() - 1; i >= 0; i--) {
            HttpConn c = all.get(i);
            if (c.busy && now - c.since > deadlineNanos) {
                timeouts++;
                drop(c);
            } else if (!c.connected && now - c.since > deadlineNanos) {
                connectErrors++;
                drop(c);
            }
        }
    }

    private void drop(HttpConn c) {
        if (c.busy) {
            c.busy = false;
            busy--;
        }
        if (!c.connected) {
            connecting--;
        }
        idle.remove(c);
        all.remove(c);
        if (c.key != null) {
            c.key.cancel();
        }
        c.abort();
    }

    private static long clientCpu() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    @Override
    public void close() throws IOException {
        for (HttpConn c : new ArrayList<>(all)) {
            drop(c);
        }
        selector.close();
    }
}
