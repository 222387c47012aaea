package org.loommpm.staticfiles.internal;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keeps symlinks from leading out of a root, DocumentRoot or an {@code Alias} target (unless
 * {@code FollowSymLinks}), and reads the attributes of what is served, in as few system calls as
 * it can.
 *
 * <p>The file itself is checked exactly on every call: one {@code lstat}; a symlink is resolved
 * and must land under the root's real path. The directories above it are checked by resolving
 * their real path, and that verdict is kept for {@code FileCacheValid} per directory: resolving
 * every component on every request costs a {@code lstat} per path component, more than the rest
 * of serving a small file. The window only matters to someone who can replace a directory inside
 * DocumentRoot with a symlink, and closes after that time; with {@code FileCacheValid 0} every
 * call resolves. Like httpd's, these checks are made before the file is opened, so someone
 * swapping links at that very moment can race them: they keep a careless link out, they are no
 * barrier against a hostile local user.
 */
final class RootGuard {
    private static final System.Logger LOG = System.getLogger("org.loommpm.staticfiles");
    private static final int MAX_DIRS = 10_000;

    private final Path root;
    private final boolean followSymLinks;
    /** How long a directory's verdict is trusted, in nanoseconds; 0: not at all. */
    private final long ttlNanos;
    /** Directory to the nanoTime until which it is known to resolve inside the root. */
    private final ConcurrentHashMap<Path, Long> insideUntil = new ConcurrentHashMap<>();

    /**
     * @param root DocumentRoot or an alias's target (a directory, or one file), a real path
     * @param ttlNanos how long a directory's verdict is trusted (0: it is resolved on every call)
     */
    RootGuard(Path root, boolean followSymLinks, long ttlNanos) {
        this.root = root;
        this.followSymLinks = followSymLinks;
        this.ttlNanos = ttlNanos;
    }

    /**
     * The attributes of what {@code path} names (a symlink's target), or null when it is a way
     * out of the root that may not be followed.
     *
     * @throws IOException if it does not exist or cannot be read
     */
    BasicFileAttributes attributes(Path path) throws IOException {
        if (followSymLinks) {
            return Files.readAttributes(path, BasicFileAttributes.class);
        }
        BasicFileAttributes a = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (a.isSymbolicLink()) {
            Path real = path.toRealPath();
            if (!real.startsWith(root)) {
                refused(path, real);
                return null;
            }
            a = Files.readAttributes(real, BasicFileAttributes.class);
        }
        if (path.equals(root)) {
            return a;
        }
        Path dir = path.getParent();
        return dir == null || directoryInside(dir) ? a : null;
    }

    private boolean directoryInside(Path dir) throws IOException {
        long now = System.nanoTime();
        Long until = insideUntil.get(dir);
        return until != null && now - until < 0 || directoryInsideNow(dir, now);
    }

    /**
     * Whether {@code dir} (under the root) resolves inside the root right now: always resolved,
     * never from a kept verdict; the verdict is kept from {@code now} on, and a refusal drops a
     * verdict kept from before. True when symlinks
     * may be followed anywhere.
     *
     * @param now {@link System#nanoTime()} at or before this call
     */
    boolean directoryInsideNow(Path dir, long now) throws IOException {
        if (followSymLinks || dir.equals(root)) {
            return true;
        }
        Path real = dir.toRealPath();
        if (!real.startsWith(root)) {
            insideUntil.remove(dir); // a verdict kept from before the change no longer stands
            refused(dir, real);
            return false;
        }
        if (ttlNanos > 0) {
            if (insideUntil.size() >= MAX_DIRS) {
                insideUntil.clear();
            }
            insideUntil.put(dir, now + ttlNanos);
        }
        return true;
    }

    private static void refused(Path path, Path real) {
        LOG.log(Level.DEBUG, "LM1102 symlink leaves its root (DocumentRoot or an Alias target), refused "
                + "(FollowSymLinks is off): {0} -> {1}",
                path, real);
    }
}
