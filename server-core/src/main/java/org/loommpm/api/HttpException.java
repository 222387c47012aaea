package org.loommpm.api;

/**
 * Thrown by a handler (or by the server while reading a request body) to answer with a given
 * status. The message goes to the log, not to the client; the client sees the status line and
 * the standard reason phrase.
 */
public class HttpException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    /** The status the client is answered with. */
    private final int status;

    /**
     * An exception that answers with {@code status}.
     *
     * @param status the HTTP status to answer with (400-599; another is answered as a handler
     *               failure, 500)
     * @param message why, for the log
     */
    public HttpException(int status, String message) {
        super(message, null, false, false);
        this.status = status;
    }

    /** {@return the status the client gets} */
    public int status() {
        return status;
    }
}
