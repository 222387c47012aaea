package org.loommpm.cli.signals;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The {@code PidFile}, as httpd keeps it: written once the server is serving (after its
 * listeners are bound, so a second instance that fails to bind never overwrites the first's),
 * removed when it stops, read by {@code -k}. A file left by a server that did not stop cleanly is
 * <em>stale</em>: at start it is overwritten with a warning (LM1901), naming whether its process
 * is still alive; {@code -k} treats a process id that no longer runs as "not running".
 *
 * <p>Written by the control thread at start and removed by it at stop; read by other processes.
 * The file is replaced atomically (written beside it, then moved), so a reader never sees half a
 * number.
 */
public final class PidFile {
    private static final System.Logger LOG = System.getLogger("org.loommpm.cli.signals");

    /**
     * What a pid file says.
     *
     * @param pid the process id it names, or -1 when there is no file
     * @param running whether a process other than this one runs with that id
     */
    public record Status(long pid, boolean running) {
        /** No file. */
        static final Status NONE = new Status(-1, false);

        /** Whether the file existed. */
        public boolean exists() {
            return pid >= 0;
        }
    }

    private final Path path;
    private final long self = ProcessHandle.current().pid();

    /** @param path where the file is (absolute, as {@code PidFile} resolves it) */
    public PidFile(Path path) {
        this.path = path;
    }

    /** The file's path. */
    public Path path() {
        return path;
    }

    /**
     * Reads the file: {@link Status#NONE} when there is none; the process id and whether a
     * process other than this one runs with it.
     *
     * @throws IOException if the file cannot be read or does not hold a process id (corrupt:
     *         httpd too asks the operator to remove it)
     */
    public Status read() throws IOException {
        String text;
        try {
            text = Files.readString(path, StandardCharsets.US_ASCII).strip();
        } catch (NoSuchFileException e) {
            return Status.NONE;
        }
        long pid;
        try {
            pid = Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new IOException("does not hold a process id: '" + (text.length() > 40 ? text.substring(0, 40) : text)
                    + "'; remove it if it is corrupt");
        }
        if (pid <= 0) {
            throw new IOException("does not hold a process id: " + pid);
        }
        // A container's server often gets the same pid at each start: that is not "another one running".
        boolean running = pid != self && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
        return new Status(pid, running);
    }

    /**
     * Writes this process's id. A file already there is overwritten with LM1901 (a stale file
     * from an unclean stop, or another server configured with the same file).
     *
     * @throws IOException if it cannot be written (the caller does not serve without it, as httpd)
     */
    public void write() throws IOException {
        try {
            Status old = read();
            if (old.exists()) {
                LOG.log(Level.WARNING, "LM1901 PidFile {0} overwritten: it named process {1}, which is {2} (unclean "
                        + "shutdown of a previous run?)", path, Long.toString(old.pid()),
                        old.running() ? "still running" : "not running");
            }
        } catch (IOException e) {
            LOG.log(Level.WARNING, "LM1901 PidFile {0} overwritten: {1}", path, e.getMessage());
        }
        Path tmp = path.resolveSibling(path.getFileName() + "." + self + ".tmp");
        Files.writeString(tmp, self + "\n", StandardCharsets.US_ASCII);
        try {
            Files.move(tmp, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            Files.deleteIfExists(tmp);
            throw e;
        }
        LOG.log(Level.DEBUG, "LM1903 process id {0} written to {1}", Long.toString(self), path);
    }

    /**
     * Removes the file at stop, if it still names this process (a server started later with the
     * same file owns it now).
     */
    public void remove() {
        try {
            Status s = read();
            if (s.pid() == self) {
                Files.delete(path);
            } else if (s.exists()) {
                LOG.log(Level.WARNING, "LM1904 PidFile {0} names process {1} now, not this one: left in place", path,
                        Long.toString(s.pid()));
            }
        } catch (IOException e) {
            LOG.log(Level.WARNING, "LM1904 PidFile {0} not removed: {1}", path, e.getMessage());
        }
    }
}
