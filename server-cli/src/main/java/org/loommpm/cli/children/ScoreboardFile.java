package org.loommpm.cli.children;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The scoreboard shared by the supervisor and its child processes ({@code ChildProcesses On}): a
 * memory-mapped file of fixed-size records, one per child process and one per worker slot of
 * each, so the supervisor's pool policy and every child's {@code server-status} see all children.
 *
 * <p><b>Layout</b> (native byte order, every field naturally aligned; sizes in bytes):
 * <pre>
 * header, 128:       0 magic "LOOMSB01" (long)   8 version (int)   12 child records (int)
 *                   16 slots per child (int)    20 child record size (int)   24 slot record size (int)
 *                   32 supervisor pid (long)     40 current generation (int)   48 started, epoch ms (long)
 *                   56 requests, 64 response bytes, 72 connections accepted, 80 closed (longs): the
 *                      totals of child processes that have exited
 * child record, 128: 0 pid (long, 0 = free)      8 child id   12 generation   16 state ({@link ProcState})
 *                   20 accepting (0/1)          24 open connections   28 active slots   32 idle slots
 *                   36 slots in use (ThreadsPerChild)   40 connections accepted (long)
 *                   48 requests (long)           56 response bytes (long)   64 heartbeat, epoch ms (long)
 *                   72 started, epoch ms (long)  80..111 connections closed by reason (4 longs:
 *                      normal, timeout, error, abort)   112 keep-alive connections   116 lingering
 *                   120 pending tasks   124 last liveness ping answered (ints)
 * slot record, 96:   0 state letter (int)        8 requests (long)   16 bytes (long)
 *                   24 current request's start, epoch ms (long)
 *                   32 request line: 64 bytes of ASCII, NUL-padded ("GET /path")
 * </pre>
 * Child record {@code i} starts at {@code 128 + i * 128}; slot {@code s} of child record {@code i}
 * at {@code 128 + records * 128 + (i * slotsPerChild + s) * 96}. The sizes are fixed when the
 * supervisor creates the file (from ServerLimit and the first ThreadsPerChild), as httpd fixes
 * its scoreboard with ServerLimit and ThreadLimit: a later, larger ThreadsPerChild shows only the
 * first slots.
 *
 * <p><b>Single writer per record.</b> A child record and its slot records are written by exactly
 * one process at a time: by the supervisor while the record is free (it clears the record before
 * it starts a child on it, and after that child has exited), and by the child process assigned to
 * it from its start to its exit. The header is written by the supervisor only. Fields are stored
 * and loaded with opaque access (whole ints and longs, never torn); a reader may still see fields
 * of one record from consecutive updates, as with httpd's scoreboard: it is a live view.
 *
 * <p>The mapping lives until it is garbage-collected (the JDK has no unmap); processes share the
 * page cache, so nothing is ever forced to disk. The supervisor deletes the file when it stops.
 */
public final class ScoreboardFile {
    static final long MAGIC = 0x4C4F4F4D53423031L; // "LOOMSB01"
    static final int VERSION = 1;
    static final int HEADER = 128;
    static final int CHILD_RECORD = 128;
    static final int SLOT_RECORD = 96;
    /** Bytes of a slot's request line. */
    static final int LINE = 64;
    /** Close reasons a record counts (CloseReason's constants, in order). */
    static final int REASONS = 4;

    private static final VarHandle LONG = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());
    private static final VarHandle INT = MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.nativeOrder());

    private final Path path;
    private final MappedByteBuffer map;
    private final int records;
    private final int slotsPerChild;

    private ScoreboardFile(Path path, MappedByteBuffer map, int records, int slotsPerChild) {
        this.path = path;
        this.map = map;
        this.records = records;
        this.slotsPerChild = slotsPerChild;
    }

    /** Bytes a file of this shape takes. */
    static long size(int records, int slotsPerChild) {
        return HEADER + (long) records * CHILD_RECORD + (long) records * slotsPerChild * SLOT_RECORD;
    }

    /**
     * Creates (or truncates) the file and writes its header. Supervisor.
     *
     * @param records child records (processes that may exist at once, old generations included)
     * @param slotsPerChild worker slot records per child
     */
    public static ScoreboardFile create(Path path, int records, int slotsPerChild, long supervisorPid)
            throws IOException {
        long size = size(records, slotsPerChild);
        if (size > Integer.MAX_VALUE) {
            throw new IOException("scoreboard of " + records + " x " + slotsPerChild + " slots is too large");
        }
        MappedByteBuffer map;
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            map = ch.map(FileChannel.MapMode.READ_WRITE, 0, size);
        }
        ScoreboardFile f = new ScoreboardFile(path, map, records, slotsPerChild);
        LONG.setOpaque(map, 8, 0L);
        INT.setOpaque(map, 8, VERSION);
        INT.setOpaque(map, 12, records);
        INT.setOpaque(map, 16, slotsPerChild);
        INT.setOpaque(map, 20, CHILD_RECORD);
        INT.setOpaque(map, 24, SLOT_RECORD);
        LONG.setOpaque(map, 32, supervisorPid);
        LONG.setOpaque(map, 48, System.currentTimeMillis());
        // The magic last: a reader that sees it sees a complete header.
        LONG.setRelease(map, 0, MAGIC);
        return f;
    }

    /**
     * Maps an existing file and checks its header. Child processes.
     *
     * @throws IOException if it is not a scoreboard of this version
     */
    public static ScoreboardFile open(Path path) throws IOException {
        MappedByteBuffer map;
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            if (ch.size() < HEADER) {
                throw new IOException(path + " is not a loom-mpm scoreboard (too short)");
            }
            map = ch.map(FileChannel.MapMode.READ_WRITE, 0, ch.size());
        }
        if ((long) LONG.getAcquire(map, 0) != MAGIC) {
            throw new IOException(path + " is not a loom-mpm scoreboard (bad magic)");
        }
        int version = (int) INT.getOpaque(map, 8);
        int records = (int) INT.getOpaque(map, 12);
        int slots = (int) INT.getOpaque(map, 16);
        if (version != VERSION || (int) INT.getOpaque(map, 20) != CHILD_RECORD
                || (int) INT.getOpaque(map, 24) != SLOT_RECORD || map.capacity() < size(records, slots)) {
            throw new IOException(path + ": scoreboard version " + version + " or layout not understood (this jar "
                    + "writes version " + VERSION + ")");
        }
        return new ScoreboardFile(path, map, records, slots);
    }

    /** Where the file is. */
    public Path path() {
        return path;
    }

    /** Child records. */
    public int records() {
        return records;
    }

    /** Slot records per child. */
    public int slotsPerChild() {
        return slotsPerChild;
    }

    /** The supervisor's pid, from the header. */
    public long supervisorPid() {
        return (long) LONG.getOpaque(map, 32);
    }

    /** The supervisor's current generation, from the header. */
    public int generation() {
        return (int) INT.getOpaque(map, 40);
    }

    /** Sets the current generation. Supervisor only. */
    public void generation(int g) {
        INT.setOpaque(map, 40, g);
    }

    /** When the supervisor started (epoch ms). */
    public long startMillis() {
        return (long) LONG.getOpaque(map, 48);
    }

    /** The totals of exited children: requests, bytes, connections accepted, connections closed. */
    public long[] exitedTotals() {
        return new long[] {(long) LONG.getOpaque(map, 56), (long) LONG.getOpaque(map, 64),
            (long) LONG.getOpaque(map, 72), (long) LONG.getOpaque(map, 80)};
    }

    /**
     * Adds an exited child's last counts to the header's totals, then clears its record (the
     * totals first: a reader may count it twice for a moment, never lose it). Supervisor only.
     */
    public void retire(int i) {
        Child c = read(i);
        if (c != null) {
            Counts n = c.counts();
            long closed = 0;
            for (long r : n.closed()) {
                closed += r;
            }
            LONG.setOpaque(map, 56, (long) LONG.getOpaque(map, 56) + n.requests());
            LONG.setOpaque(map, 64, (long) LONG.getOpaque(map, 64) + n.bytes());
            LONG.setOpaque(map, 72, (long) LONG.getOpaque(map, 72) + n.accepted());
            LONG.setOpaque(map, 80, (long) LONG.getOpaque(map, 80) + closed);
        }
        clear(i);
    }

    // ---- child records ----

    private int child(int i) {
        if (i < 0 || i >= records) {
            throw new IndexOutOfBoundsException("child record " + i + " of " + records);
        }
        return HEADER + i * CHILD_RECORD;
    }

    /** Zeroes record {@code i} and its slots (state FREE). Supervisor, while no process owns it. */
    public void clear(int i) {
        int c = child(i);
        for (int o = 0; o < CHILD_RECORD; o += 8) {
            LONG.setOpaque(map, c + o, 0L);
        }
        for (int s = 0; s < slotsPerChild; s++) {
            int p = slot(i, s);
            for (int o = 0; o < SLOT_RECORD; o += 8) {
                LONG.setOpaque(map, p + o, 0L);
            }
        }
    }

    /** Claims record {@code i} for this process (STARTING). The child process, at start-up. */
    public void claim(int i, long pid, int childId, int generation, int slotsInUse, long nowMillis) {
        int c = child(i);
        INT.setOpaque(map, c + 8, childId);
        INT.setOpaque(map, c + 12, generation);
        INT.setOpaque(map, c + 36, Math.min(slotsInUse, slotsPerChild));
        LONG.setOpaque(map, c + 64, nowMillis);
        LONG.setOpaque(map, c + 72, nowMillis);
        INT.setOpaque(map, c + 16, ProcState.STARTING.ordinal());
        LONG.setRelease(map, c, pid);
    }

    /**
     * Records that the child's engine answered liveness ping {@code n} (see {@link Control}).
     * Its owner (the child process's publisher thread, carrying what a worker task reported).
     */
    public void pingAnswered(int i, int n) {
        INT.setOpaque(map, child(i) + 124, n);
    }

    /** The last liveness ping record {@code i}'s child answered (0: none yet). Any process. */
    public int pingAnswered(int i) {
        return (int) INT.getOpaque(map, child(i) + 124);
    }

    /** Sets the state of record {@code i}. Its owner. */
    public void state(int i, ProcState s) {
        INT.setRelease(map, child(i) + 16, s.ordinal());
    }

    /** Publishes the counts of record {@code i}. Its owner (the child process). */
    public void publish(int i, Counts counts, long nowMillis) {
        int c = child(i);
        for (int r = 0; r < REASONS; r++) {
            LONG.setOpaque(map, c + 80 + 8 * r, counts.closed()[r]);
        }
        INT.setOpaque(map, c + 112, counts.keepAlive());
        INT.setOpaque(map, c + 116, counts.lingering());
        INT.setOpaque(map, c + 120, counts.pending());
        INT.setOpaque(map, c + 20, counts.accepting() ? 1 : 0);
        INT.setOpaque(map, c + 24, counts.open());
        INT.setOpaque(map, c + 28, counts.active());
        INT.setOpaque(map, c + 32, counts.idle());
        LONG.setOpaque(map, c + 40, counts.accepted());
        LONG.setOpaque(map, c + 48, counts.requests());
        LONG.setOpaque(map, c + 56, counts.bytes());
        LONG.setRelease(map, c + 64, nowMillis);
    }

    /**
     * The per-child counts a record carries.
     *
     * @param closed connections closed, by {@code CloseReason} ordinal ({@value #REASONS} entries)
     */
    public record Counts(boolean accepting, int open, int active, int idle, long accepted, long requests,
                         long bytes, long[] closed, int keepAlive, int lingering, int pending) {
    }

    /** What a reader sees of one child record. */
    public record Child(int record, long pid, int id, int generation, ProcState state, int slotsInUse,
                        Counts counts, long heartbeatMillis, long startMillis) {
    }

    /** Reads record {@code i}; null if it is free. Any process. */
    public Child read(int i) {
        int c = child(i);
        long pid = (long) LONG.getAcquire(map, c);
        ProcState st = ProcState.of((int) INT.getAcquire(map, c + 16));
        if (pid == 0 || st == ProcState.FREE) {
            return null;
        }
        long[] closed = new long[REASONS];
        for (int r = 0; r < REASONS; r++) {
            closed[r] = (long) LONG.getOpaque(map, c + 80 + 8 * r);
        }
        Counts counts = new Counts((int) INT.getOpaque(map, c + 20) != 0, (int) INT.getOpaque(map, c + 24),
                (int) INT.getOpaque(map, c + 28), (int) INT.getOpaque(map, c + 32), (long) LONG.getOpaque(map, c + 40),
                (long) LONG.getOpaque(map, c + 48), (long) LONG.getOpaque(map, c + 56), closed,
                (int) INT.getOpaque(map, c + 112), (int) INT.getOpaque(map, c + 116), (int) INT.getOpaque(map, c + 120));
        return new Child(i, pid, (int) INT.getOpaque(map, c + 8), (int) INT.getOpaque(map, c + 12), st,
                (int) INT.getOpaque(map, c + 36), counts, (long) LONG.getOpaque(map, c + 64),
                (long) LONG.getOpaque(map, c + 72));
    }

    // ---- slot records ----

    private int slot(int i, int s) {
        if (s < 0 || s >= slotsPerChild) {
            throw new IndexOutOfBoundsException("slot " + s + " of " + slotsPerChild);
        }
        return HEADER + records * CHILD_RECORD + (i * slotsPerChild + s) * SLOT_RECORD;
    }

    /**
     * Publishes slot {@code s} of record {@code i}. The child process owning the record.
     *
     * @param line the request line shown (truncated to {@value #LINE} bytes; non-ASCII becomes '?')
     */
    public void slot(int i, int s, char letter, long requests, long bytes, long startedMillis, String line) {
        int p = slot(i, s);
        INT.setOpaque(map, p, (int) letter);
        LONG.setOpaque(map, p + 8, requests);
        LONG.setOpaque(map, p + 16, bytes);
        LONG.setOpaque(map, p + 24, startedMillis);
        int n = line == null ? 0 : Math.min(LINE, line.length());
        for (int k = 0; k < LINE; k++) {
            char ch = k < n ? line.charAt(k) : 0;
            map.put(p + 32 + k, (byte) (ch < 0x80 ? ch : '?'));
        }
    }

    /**
     * What a reader sees of one slot.
     *
     * @param startedMillis when its current (or last) request started, epoch ms
     * @param line its current (or last) request, "" if none
     */
    public record Slot(char letter, long requests, long bytes, long startedMillis, String line) {
    }

    /** Reads slot {@code s} of record {@code i}. Any process. */
    public Slot readSlot(int i, int s) {
        int p = slot(i, s);
        int letter = (int) INT.getOpaque(map, p);
        byte[] line = new byte[LINE];
        int n = 0;
        while (n < LINE && map.get(p + 32 + n) != 0) {
            line[n] = map.get(p + 32 + n);
            n++;
        }
        return new Slot(letter == 0 ? ' ' : (char) letter, (long) LONG.getOpaque(map, p + 8),
                (long) LONG.getOpaque(map, p + 16), (long) LONG.getOpaque(map, p + 24),
                new String(line, 0, n, StandardCharsets.US_ASCII));
    }
}
