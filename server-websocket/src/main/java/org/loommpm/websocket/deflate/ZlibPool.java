package org.loommpm.websocket.deflate;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * Idle raw-deflate compressors and decompressors, lent for one message to sockets without
 * context takeover, so that an idle socket holds no zlib state (each holds native memory: about
 * 300 KB for a compressor, 40 KB for a decompressor). Bounded: a full pool ends what comes back.
 *
 * <p>Lock-free: any worker polls and offers ({@link ConcurrentLinkedQueue}, MPMC); the count is
 * a reservation taken before an offer, so the pool never holds more than its bound.
 */
public final class ZlibPool {
    /** The process-wide pool (zlib state is per process, not per server). */
    public static final ZlibPool SHARED = new ZlibPool(Math.max(4, 2 * Runtime.getRuntime().availableProcessors()));

    private final int max;
    private final ConcurrentLinkedQueue<Deflater> deflaters = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Inflater> inflaters = new ConcurrentLinkedQueue<>();
    private final AtomicInteger idleDeflaters = new AtomicInteger();
    private final AtomicInteger idleInflaters = new AtomicInteger();

    ZlibPool(int max) {
        this.max = max;
    }

    /** A reset raw compressor at the default level. */
    public Deflater deflater() {
        Deflater d = deflaters.poll();
        if (d == null) {
            return new Deflater(Deflater.DEFAULT_COMPRESSION, true);
        }
        idleDeflaters.decrementAndGet();
        return d;
    }

    /** A reset raw decompressor. */
    public Inflater inflater() {
        Inflater i = inflaters.poll();
        if (i == null) {
            return new Inflater(true);
        }
        idleInflaters.decrementAndGet();
        return i;
    }

    /** Takes back a compressor its borrower no longer uses (reset here), or ends it when full. */
    public void release(Deflater d) {
        if (reserve(idleDeflaters)) {
            d.reset();
            deflaters.offer(d);
        } else {
            d.end();
        }
    }

    /** Takes back a decompressor its borrower no longer uses (reset here), or ends it when full. */
    public void release(Inflater i) {
        if (reserve(idleInflaters)) {
            i.reset();
            inflaters.offer(i);
        } else {
            i.end();
        }
    }

    private boolean reserve(AtomicInteger idle) {
        for (;;) {
            int n = idle.get();
            if (n >= max) {
                return false;
            }
            if (idle.compareAndSet(n, n + 1)) {
                return true;
            }
        }
    }

    /** Idle compressors held (for tests). */
    int idleDeflaters() {
        return idleDeflaters.get();
    }

    /** Idle decompressors held (for tests). */
    int idleInflaters() {
        return idleInflaters.get();
    }
}
