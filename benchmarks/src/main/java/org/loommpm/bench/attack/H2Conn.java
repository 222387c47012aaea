package org.loommpm.bench.attack;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * One h2c (prior knowledge) connection to 127.0.0.1: the attack thread writes batches of frames,
 * a platform thread reads everything the server sends, counting RST_STREAM, GOAWAY and finished
 * streams, answering SETTINGS (else the server would end the connection after its settings
 * timeout, which is not the attack being measured) and noting when the server closed.
 */
final class H2Conn implements AutoCloseable {
    private final Socket socket;
    private final OutputStream out;
    private final long t0;
    private final Thread reader;
    private int nextStreamId = 1;

    /** Streams opened by the attack (HEADERS sent). */
    long streamsOpened;
    /** Frames and bytes the attack wrote. */
    final AtomicLong framesSent = new AtomicLong();
    final AtomicLong bytesSent = new AtomicLong();
    final AtomicLong rstReceived = new AtomicLong();
    final AtomicLong goawayReceived = new AtomicLong();
    /** Streams the server finished: END_STREAM on HEADERS or DATA, or RST_STREAM. */
    final AtomicLong streamsEnded = new AtomicLong();
    final AtomicLong dataBytes = new AtomicLong();
    final AtomicLong framesReceived = new AtomicLong();
    /** Send credit: the connection's and the one upload stream's (the upload attack); -1 until a SETTINGS says. */
    private final AtomicLong connCredit = new AtomicLong(65535);
    private final AtomicLong streamCredit = new AtomicLong(65535);
    private volatile int initialWindow = 65535;
    volatile int goawayCode = -1;
    volatile String goawayDebug = "";
    /** Nanoseconds after t0 at which the server closed (EOF or reset); -1 while open. */
    volatile long serverClosedAt = -1;
    private volatile boolean closedByUs;
    /**
     * The streams the server ended, by id: {@code true} answered (END_STREAM), {@code false}
     * reset; null until {@link #trackEnded} (the floods open millions of streams). The reader
     * puts, the attack thread removes.
     */
    private volatile java.util.concurrent.ConcurrentHashMap<Integer, Boolean> endedIds;

    /**
     * Connects, sends the preface and {@code settings} (id, value pairs), and when
     * {@code connWindow} is above the default raises the connection receive window to it.
     */
    H2Conn(int port, long t0, int connWindow, int... settings) throws IOException {
        this.t0 = t0;
        socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
        out = socket.getOutputStream();
        Frames f = new Frames();
        f.bytes(Frames.PREFACE);
        f.settings(settings);
        if (connWindow > 65535) {
            f.windowUpdate(0, connWindow - 65535);
        }
        send(f, 2);
        reader = Thread.ofPlatform().daemon().name("h2attack-reader").start(this::readLoop);
    }

    int nextStreamId() {
        int id = nextStreamId;
        nextStreamId += 2;
        return id;
    }

    boolean open() {
        return serverClosedAt < 0 && !closedByUs;
    }

    /** Writes the batch; {@code frames} is only for the count. */
    synchronized void send(Frames f, int frames) throws IOException {
        out.write(f.array(), 0, f.length());
        framesSent.addAndGet(frames);
        bytesSent.addAndGet(f.length());
    }

    /** Waits until fewer than {@code max} of our streams are unfinished (the server's limit). */
    void awaitInFlightBelow(int max) {
        while (streamsOpened - streamsEnded.get() >= max && open()) {
            LockSupport.parkNanos(200_000);
        }
    }

    /** From now on, remembers which streams the server ended, for {@link #ended}. */
    void trackEnded() {
        endedIds = new java.util.concurrent.ConcurrentHashMap<>();
    }

    /**
     * Whether the server ended stream {@code id} since the last ask: {@code true} answered,
     * {@code false} reset, null not (yet). Needs {@link #trackEnded}.
     */
    Boolean ended(int id) {
        return endedIds.remove(id);
    }

    private void noteEnded(int id, boolean answered) {
        java.util.concurrent.ConcurrentHashMap<Integer, Boolean> m = endedIds;
        if (m != null) {
            m.put(id, answered);
        }
    }

    /** Starts the credit of a new upload stream at the server's initial window. */
    void newUploadStream() {
        streamCredit.set(initialWindow);
    }

    /** Waits for send credit (flow control, RFC 9113 §5.2) and takes up to {@code want} bytes of it; 0 when closed. */
    int takeCredit(int want) {
        while (open()) {
            long c = Math.min(connCredit.get(), streamCredit.get());
            if (c > 0) {
                int n = (int) Math.min(c, want);
                connCredit.addAndGet(-n);
                streamCredit.addAndGet(-n);
                return n;
            }
            LockSupport.parkNanos(100_000);
        }
        return 0;
    }

    private void readLoop() {
        Frames reply = new Frames();
        byte[] payload = new byte[16 * 1024];
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), 64 * 1024))) {
            while (true) {
                int length = in.readUnsignedByte() << 16 | in.readUnsignedShort();
                int type = in.readUnsignedByte();
                int flags = in.readUnsignedByte();
                int streamId = in.readInt() & Frames.MAX_WINDOW;
                if (length > payload.length) {
                    payload = new byte[length];
                }
                in.readFully(payload, 0, length);
                framesReceived.incrementAndGet();
                switch (type) {
                    case Frames.DATA -> {
                        dataBytes.addAndGet(length);
                        if ((flags & Frames.END_STREAM) != 0) {
                            streamsEnded.incrementAndGet();
                            noteEnded(streamId, true);
                        }
                    }
                    case Frames.HEADERS -> {
                        if ((flags & Frames.END_STREAM) != 0) {
                            streamsEnded.incrementAndGet();
                            noteEnded(streamId, true);
                        }
                    }
                    case Frames.RST_STREAM -> {
                        rstReceived.incrementAndGet();
                        streamsEnded.incrementAndGet();
                        noteEnded(streamId, false);
                    }
                    case Frames.GOAWAY -> {
                        goawayReceived.incrementAndGet();
                        goawayCode = (payload[4] & 0xff) << 24 | (payload[5] & 0xff) << 16
                                | (payload[6] & 0xff) << 8 | (payload[7] & 0xff);
                        goawayDebug = new String(payload, 8, length - 8, java.nio.charset.StandardCharsets.UTF_8);
                    }
                    case Frames.WINDOW_UPDATE -> {
                        int inc = (payload[0] & 0x7f) << 24 | (payload[1] & 0xff) << 16 | (payload[2] & 0xff) << 8
                                | (payload[3] & 0xff);
                        (streamId == 0 ? connCredit : streamCredit).addAndGet(inc);
                    }
                    case Frames.SETTINGS -> {
                        for (int i = 0; (flags & Frames.ACK) == 0 && i + 6 <= length; i += 6) {
                            if (((payload[i] & 0xff) << 8 | (payload[i + 1] & 0xff)) == Frames.SETTINGS_INITIAL_WINDOW_SIZE) {
                                int v = (payload[i + 2] & 0xff) << 24 | (payload[i + 3] & 0xff) << 16
                                        | (payload[i + 4] & 0xff) << 8 | (payload[i + 5] & 0xff);
                                streamCredit.addAndGet(v - initialWindow);
                                initialWindow = v;
                            }
                        }
                        if ((flags & Frames.ACK) == 0) {
                            reply.clear();
                            reply.settingsAck();
                            send(reply, 0);
                        }
                    }
                    case Frames.PING -> {
                        if ((flags & Frames.ACK) == 0) {
                            reply.clear();
                            reply.pingAck(java.util.Arrays.copyOf(payload, 8));
                            send(reply, 0);
                        }
                    }
                    default -> {
                        // WINDOW_UPDATE, PUSH_PROMISE, ...: counted above, nothing else to do.
                    }
                }
            }
        } catch (IOException e) {
            if (!closedByUs) {
                serverClosedAt = System.nanoTime() - t0;
            }
        }
    }

    @Override
    public void close() {
        closedByUs = serverClosedAt < 0;
        try {
            socket.close(); // also unblocks a write stuck on a server that stopped reading
        } catch (IOException ignored) {
            // closing anyway
        }
        try {
            reader.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
