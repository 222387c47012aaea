package org.loommpm.auth;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;

/**
 * A file of lines read again when it changes, as httpd (which reads it on every request) would
 * see the change: its modification time and size are looked at no more than once a second, on
 * the request path, and a changed file is parsed into a new immutable snapshot that replaces the
 * old one. A file that cannot be read any more leaves no snapshot ({@link #current} is null and
 * requests needing it get 500, as httpd answers); one that parses with errors keeps the lines
 * that parse and logs the rest.
 *
 * <p><b>Threads.</b> Any request thread calls {@link #current}; two that find the file changed
 * at once may both parse it, and the last to publish wins (both snapshots are of the same file).
 * The snapshot and the check time are volatile.
 *
 * @param <T> the parsed form
 */
abstract class WatchedFile<T> {
    private static final System.Logger LOG = System.getLogger("org.loommpm.auth");
    private static final long CHECK_INTERVAL_NANOS = 1_000_000_000L;

    private final Path file;
    private volatile T snapshot;
    private volatile long modified;
    private volatile long size;
    private volatile long nextCheck;

    /**
     * Reads the file the first time; every problem is an exception (what {@code -t} reports).
     *
     * @throws AuthFileException when it cannot be read or a line is wrong
     */
    WatchedFile(Path file) throws AuthFileException {
        this.file = file;
        BasicFileAttributes a = attributes(file);
        this.snapshot = parse(read(file), true);
        this.modified = a.lastModifiedTime().toMillis();
        this.size = a.size();
        this.nextCheck = System.nanoTime() + CHECK_INTERVAL_NANOS;
    }

    /** {@return the file} */
    public final Path file() {
        return file;
    }

    /** The parsed lines, strict (an exception at the first wrong line) or lenient (logged, skipped). */
    abstract T parse(List<String> lines, boolean strict) throws AuthFileException;

    /** {@return the newest snapshot, read again if the file changed; null while it cannot be read} */
    final T current() {
        long now = System.nanoTime();
        if (now - nextCheck < 0) {
            return snapshot;
        }
        nextCheck = now + CHECK_INTERVAL_NANOS;
        try {
            BasicFileAttributes a = attributes(file);
            long m = a.lastModifiedTime().toMillis();
            if (m != modified || a.size() != size || snapshot == null) {
                T fresh = parse(read(file), false);
                modified = m;
                size = a.size();
                snapshot = fresh;
                LOG.log(Level.INFO, "LM3001 {0} changed: read again", file);
            }
        } catch (AuthFileException e) {
            if (snapshot != null) {
                LOG.log(Level.ERROR, "LM3002 {0}; requests that need it get 500 until it can be read", e.getMessage());
            }
            snapshot = null;
        }
        return snapshot;
    }

    private static BasicFileAttributes attributes(Path file) throws AuthFileException {
        try {
            return Files.readAttributes(file, BasicFileAttributes.class);
        } catch (IOException e) {
            throw new AuthFileException(file, 0, "cannot be read: " + e, e);
        }
    }

    /** The lines as bytes (ISO-8859-1), so names and passwords compare byte for byte as in httpd. */
    private static List<String> read(Path file) throws AuthFileException {
        try {
            return Files.readAllLines(file, StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new AuthFileException(file, 0, "cannot be read: " + e, e);
        }
    }

    /** httpd's {@code ap_cfg_getline} view of a line: trimmed; null for a comment or a blank line. */
    static String content(String line) {
        String t = line.strip();
        return t.isEmpty() || t.charAt(0) == '#' ? null : t;
    }

    /** A line that does not parse, in lenient mode: logged with where it is. */
    static void skipped(AuthFileException e) {
        LOG.log(Level.WARNING, "LM3003 {0}", e.getMessage());
    }
}
