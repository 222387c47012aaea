package org.loommpm.cookie;

/**
 * A {@code Cookie} field the server will not process (more cookies than allowed): carries the
 * status to answer and a message, for the log, that starts with a stable log id.
 */
public class CookieException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    /** The status to answer with. */
    private final int status;

    /**
     * An exception that answers with {@code status}.
     *
     * @param status the HTTP status to answer (431)
     * @param message why, starting with the log id
     */
    public CookieException(int status, String message) {
        super(message, null, false, false);
        this.status = status;
    }

    /** {@return the HTTP status to answer with} */
    public int status() {
        return status;
    }
}
