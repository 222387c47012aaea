package org.loommpm.multipart;

/**
 * A {@code multipart/form-data} body that cannot be read: a missing or invalid boundary, broken
 * framing or part headers (400), a limit passed (413), a Content-Type that is not
 * {@code multipart/form-data} or a charset the JDK does not know (415). The message starts with
 * the log id (LM2720-LM2733) and is meant for the log, not for the client. The server answers one
 * that a handler lets escape with its status, as it answers an {@code HttpException}.
 */
public class MultipartException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    /** The HTTP status the request is answered with. */
    private final int status;

    /**
     * A failure answered with {@code status}.
     *
     * @param status the HTTP status to answer with: 400, 413 or 415
     * @param message why, starting with the log id
     */
    public MultipartException(int status, String message) {
        // No stack trace: it is a client's error, thrown per bad request, logged by its message.
        super(message, null, false, false);
        this.status = status;
    }

    /** {@return the HTTP status the request is answered with (400, 413 or 415)} */
    public int status() {
        return status;
    }
}
