package org.loommpm.staticfiles.internal;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.loommpm.negotiation.QualityList;

/**
 * What a URL path resolved to when it was last looked up on disk, for small files: the
 * representations (the file and its {@code .br}/{@code .gz} siblings, with their bytes and
 * formatted validators) and until when that lookup is trusted ({@code FileCacheValid} after it
 * was made). A hit costs no system call; after the window the next request resolves the path
 * again (symlink checks included) and replaces the entry. Only {@link StaticFileHandler} fills
 * it, and only from a lookup whose every check was made at or after the entry's start.
 *
 * <p>Shared by every worker: entries are immutable and replaced whole in a concurrent map, so a
 * reader sees an old entry or a new one, never a mix. Two workers missing at once both resolve
 * and the later put wins (the same answer, twice the work, once per window). Bounded in entries
 * and bytes; when full it is simply emptied (rare, and cheaper than tracking recency on every
 * hit).
 */
final class FileCache {
    /**
     * A resolved URL path.
     *
     * @param validUntil {@link System#nanoTime()} until which it is served without looking again
     * @param plain the file as it is
     * @param br its {@code .br} sibling, or null when there is none
     * @param gzip its {@code .gz} sibling, or null when there is none
     */
    record Entry(long validUntil, Representation plain, Representation br, Representation gzip) {
        /** The variant to send for a request's {@code Accept-Encoding} (null: the plain file). */
        Representation choose(String acceptEncoding) {
            if (acceptEncoding == null || br == null && gzip == null) {
                return plain;
            }
            QualityList accepted = QualityList.parse(acceptEncoding);
            if (br != null && accepted.quality("br") > 0) {
                return br;
            }
            if (gzip != null && accepted.quality("gzip") > 0) {
                return gzip;
            }
            return plain;
        }

        /** Whether it may still be served without looking at the disk at {@code now} (nanoTime). */
        boolean fresh(long now) {
            return now - validUntil < 0;
        }

        long bytes() {
            return plain.size() + (br != null ? br.size() : 0) + (gzip != null ? gzip.size() : 0);
        }
    }

    private final ConcurrentHashMap<String, Entry> entries = new ConcurrentHashMap<>();
    private final AtomicLong bytes = new AtomicLong();
    private final int maxEntries;
    private final long maxBytes;

    FileCache(int maxEntries, long maxBytes) {
        this.maxEntries = maxEntries;
        this.maxBytes = maxBytes;
    }

    /** The entry last stored for {@code urlPath}, within its window or not; null when none. */
    Entry get(String urlPath) {
        return entries.get(urlPath);
    }

    /** Stores {@code e}, first emptying the cache if it would grow beyond its bounds. */
    void put(String urlPath, Entry e) {
        long size = e.bytes();
        if (entries.size() >= maxEntries || bytes.get() + size > maxBytes) {
            entries.clear();
            bytes.set(0);
        }
        Entry old = entries.put(urlPath, e);
        bytes.addAndGet(size - (old != null ? old.bytes() : 0));
    }

    /** Forgets {@code urlPath} (it no longer resolves to a small file, or it is changing). */
    void remove(String urlPath) {
        Entry old = entries.remove(urlPath);
        if (old != null) {
            bytes.addAndGet(-old.bytes());
        }
    }
}
