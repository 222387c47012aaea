package org.loommpm.cli.config;

/**
 * A configuration error, located like httpd's: {@code Syntax error on line 12 of
 * /etc/loom/loom.conf: Invalid command 'Listne'}. Errors found outside any file (a {@code -C}
 * or {@code -c} option) name the option instead.
 */
public final class ConfigException extends Exception {
    private static final long serialVersionUID = 1L;
    private final String source;
    private final int line;

    /**
     * @param source the file (or option) the error is in
     * @param line the 1-based line number
     * @param message the problem, without location
     */
    public ConfigException(String source, int line, String message) {
        super(message, null, false, false);
        this.source = source;
        this.line = line;
    }

    /** The file or option the error is in. */
    public String source() {
        return source;
    }

    /** The 1-based line number. */
    public int line() {
        return line;
    }

    /** The httpd-style one-line report. */
    public String report() {
        return "Syntax error on line " + line + " of " + source + ": " + getMessage();
    }
}
