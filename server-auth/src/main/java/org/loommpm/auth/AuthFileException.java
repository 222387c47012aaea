package org.loommpm.auth;

import java.nio.file.Path;

/** An htpasswd or group file that cannot be read, or a line of it that is wrong, with where. */
public final class AuthFileException extends Exception {
    /** Serialization version. */
    private static final long serialVersionUID = 1L;

    private final transient Path file;
    /** The 1-based line, or 0 when the file as a whole is at fault. */
    private final int line;

    /**
     * Makes the exception.
     *
     * @param file the file
     * @param line the 1-based line, or 0 when the file as a whole is at fault
     * @param message what is wrong
     * @param cause the I/O failure, or null
     */
    public AuthFileException(Path file, int line, String message, Throwable cause) {
        super(file + (line > 0 ? ":" + line : "") + ": " + message, cause);
        this.file = file;
        this.line = line;
    }

    /** {@return the file} */
    public Path file() {
        return file;
    }

    /** {@return the 1-based line, or 0 when the file as a whole is at fault} */
    public int line() {
        return line;
    }
}
