package org.loommpm.cli.staticfiles;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The contents of small files, so that serving one costs a {@code stat} rather than an
 * open/read/close and the formatting of its validators. An entry is used only while the file's
 * size, modification time (to the nanosecond where the file system keeps it) and identity
 * (inode) are what they were when it was read, so a changed or replaced file is read again on
 * its next request. Filled lazily, bounded in entries and bytes; when full it is simply emptied
 * (rare, and cheaper than tracking recency on every hit).
 */
final class SmallFileCache {
    /** A cached file: its bytes and the header values derived from its attributes. */
    record Entry(long size, FileTime modified, Object fileKey, byte[] bytes, String etag, String lastModified) {
        boolean fresh(BasicFileAttributes a) {
            return a.size() == size && a.lastModifiedTime().equals(modified) && Objects.equals(a.fileKey(), fileKey);
        }
    }

    private final ConcurrentHashMap<Path, Entry> entries = new ConcurrentHashMap<>();
    private final AtomicLong bytes = new AtomicLong();
    private final int maxEntries;
    private final long maxBytes;

    SmallFileCache(int maxEntries, long maxBytes) {
        this.maxEntries = maxEntries;
        this.maxBytes = maxBytes;
    }

    /** The entry for {@code file} if it is still current, else null. */
    Entry get(Path file, BasicFileAttributes attrs) {
        Entry e = entries.get(file);
        return e != null && e.fresh(attrs) ? e : null;
    }

    /**
     * Reads the file and remembers it. A file that changed size while being read is returned but
     * not kept (its attributes no longer describe the bytes).
     */
    Entry load(Path file, BasicFileAttributes attrs, String etag, String lastModified) throws IOException {
        byte[] content = Files.readAllBytes(file);
        Entry e = new Entry(attrs.size(), attrs.lastModifiedTime(), attrs.fileKey(), content, etag, lastModified);
        if (content.length != attrs.size()) {
            return e;
        }
        if (entries.size() >= maxEntries || bytes.get() + content.length > maxBytes) {
            entries.clear();
            bytes.set(0);
        }
        Entry old = entries.put(file, e);
        bytes.addAndGet(content.length - (old != null ? old.bytes().length : 0));
        return e;
    }
}
