package org.loommpm.engine;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.InetSocketAddress;
import org.loommpm.spi.SlotBoard;

/**
 * One child's worker slots: what each is doing (Apache's scoreboard letters), how many requests
 * and response bytes it has served, and the request it is serving now.
 *
 * <p><b>Writers and readers.</b> Each slot is written only by the worker holding it (the slot is
 * the worker's permit, and the {@link SlotStack} CAS that hands a slot from one worker to the
 * next orders their writes), so a slot's counters are plain single-writer increments published
 * with opaque stores: no atomic read-modify-write on the request path. Readers (the status page,
 * metrics) load with opaque (counters, letters) or acquire (current request) semantics and see
 * each slot's recent state. A reader's view is racy by design, as in httpd: the letter, the
 * counters and the current request of one slot may belong to consecutive requests. The current
 * request is published last with a release store, so a reader that sees it also sees the client
 * address and start time written before it (possibly of a later request, never a torn value).
 *
 * <p><b>Layout.</b> Every slot's fields sit in their own 128-byte stride of the backing arrays:
 * two busy slots run on different carriers and write on every request, so they must not share
 * a cache line.
 */
public final class Scoreboard implements SlotBoard {
    /** The request a slot is serving (or served last), as a reader saw it. */
    public record CurrentRequest(RequestInfo request, InetSocketAddress client, long startNanos) {
    }

    /** Longs per slot: 16 x 8 = 128 bytes, two cache lines (adjacent-line prefetch included). */
    private static final int LONG_STRIDE = 16;
    /** References per slot: 32 x 4 bytes (compressed oops) or 32 x 8 = 128 or 256 bytes. */
    private static final int REF_STRIDE = 32;
    private static final int STATE = 0;
    private static final int ACCESSES = 1;
    private static final int BYTES = 2;
    private static final int STARTED = 3;
    private static final int CLIENT = 0;
    private static final int REQUEST = 1;

    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle REFS = MethodHandles.arrayElementVarHandle(Object[].class);

    private final int size;
    private final long[] longs;
    private final Object[] refs;

    Scoreboard(int size) {
        this.size = size;
        this.longs = new long[size * LONG_STRIDE];
        this.refs = new Object[size * REF_STRIDE];
        for (int i = 0; i < size; i++) {
            longs[i * LONG_STRIDE + STATE] = WAITING;
        }
    }

    /**
     * A scoreboard attached to no worker pool, for showing another process's slots (the child
     * processes of the jar's {@code ChildProcesses On}): filled with {@link #load} by the one thread
     * that builds it, then only read.
     */
    public static Scoreboard detached(int size) {
        return new Scoreboard(size);
    }

    /**
     * Sets all a slot shows at once. Detached scoreboards only (their builder is the one writer).
     *
     * @param request the request shown for the slot, or null
     */
    public void load(int slot, char letter, long accesses, long bytesSent, RequestInfo request, long startNanos) {
        int l = slot * LONG_STRIDE;
        LONGS.setOpaque(longs, l + STATE, (long) letter);
        LONGS.setOpaque(longs, l + ACCESSES, accesses);
        LONGS.setOpaque(longs, l + BYTES, bytesSent);
        LONGS.setOpaque(longs, l + STARTED, startNanos);
        REFS.setRelease(refs, slot * REF_STRIDE + REQUEST, request);
    }

    /** Number of worker slots. */
    public int size() {
        return size;
    }

    /** Records what the worker in {@code slot} is doing. Worker owning the slot only. */
    @Override
    public void set(int slot, byte state) {
        LONGS.setOpaque(longs, slot * LONG_STRIDE + STATE, (long) state);
    }

    /** The state letter of {@code slot}. Any thread. */
    public char state(int slot) {
        return (char) (long) LONGS.getOpaque(longs, slot * LONG_STRIDE + STATE);
    }

    /** Every slot's letter, in slot order (mod_status's scoreboard line). Any thread. */
    public String render() {
        char[] out = new char[size];
        for (int i = 0; i < out.length; i++) {
            out[i] = state(i);
        }
        return new String(out);
    }

    /**
     * Records the request the worker in {@code slot} starts serving. Worker owning the slot only.
     *
     * @param startNanos when the request began arriving, in {@link System#nanoTime()} units
     */
    @Override
    public void requestStarted(int slot, RequestInfo request, InetSocketAddress client, long startNanos) {
        int l = slot * LONG_STRIDE;
        int r = slot * REF_STRIDE;
        LONGS.setOpaque(longs, l + STARTED, startNanos);
        REFS.setOpaque(refs, r + CLIENT, client);
        REFS.setRelease(refs, r + REQUEST, request);
    }

    /**
     * Counts one completed request and the bytes its response put on the wire. Worker owning the
     * slot only: a plain single-writer increment, published opaquely.
     */
    @Override
    public void requestDone(int slot, long bytesSent) {
        int l = slot * LONG_STRIDE;
        LONGS.setOpaque(longs, l + ACCESSES, (long) LONGS.getOpaque(longs, l + ACCESSES) + 1);
        LONGS.setOpaque(longs, l + BYTES, (long) LONGS.getOpaque(longs, l + BYTES) + bytesSent);
    }

    /** Requests completed in {@code slot} since the child started. Any thread. */
    public long accesses(int slot) {
        return (long) LONGS.getOpaque(longs, slot * LONG_STRIDE + ACCESSES);
    }

    /** Response bytes written by {@code slot} since the child started. Any thread. */
    public long bytesSent(int slot) {
        return (long) LONGS.getOpaque(longs, slot * LONG_STRIDE + BYTES);
    }

    /** Requests completed by every slot. Any thread. */
    public long totalAccesses() {
        long n = 0;
        for (int i = 0; i < size; i++) {
            n += accesses(i);
        }
        return n;
    }

    /** Response bytes written by every slot. Any thread. */
    public long totalBytesSent() {
        long n = 0;
        for (int i = 0; i < size; i++) {
            n += bytesSent(i);
        }
        return n;
    }

    /**
     * The request {@code slot} is serving, or served last; {@code null} if it never served one.
     * Any thread; racy (see the class comment): check {@link #state} to know whether it is current.
     */
    public CurrentRequest current(int slot) {
        int r = slot * REF_STRIDE;
        RequestInfo request = (RequestInfo) REFS.getAcquire(refs, r + REQUEST);
        if (request == null) {
            return null;
        }
        InetSocketAddress client = (InetSocketAddress) REFS.getOpaque(refs, r + CLIENT);
        long started = (long) LONGS.getOpaque(longs, slot * LONG_STRIDE + STARTED);
        return new CurrentRequest(request, client, started);
    }
}
