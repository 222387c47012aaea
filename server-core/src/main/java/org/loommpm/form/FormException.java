package org.loommpm.form;

/**
 * A form body that cannot be decoded: malformed percent-encoding (400), more bytes or fields than
 * the limits allow (413), a charset the JDK does not know or a Content-Type that is not a form's
 * (415). The message starts with the log id (LM2700-LM2704) and is meant for the log, not for the
 * client. {@code Request.form()} turns it into an {@code HttpException} with the same status and
 * message; the server does the same for one a handler lets escape.
 */
public class FormException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    /** The HTTP status the request is answered with. */
    private final int status;

    /**
     * A decoding failure answered with {@code status}.
     *
     * @param status the HTTP status to answer with: 400, 413 or 415
     * @param message why, starting with the log id
     */
    public FormException(int status, String message) {
        // No stack trace: it is a client's error, thrown per bad request, logged by its message.
        super(message, null, false, false);
        this.status = status;
    }

    /** {@return the HTTP status the request is answered with (400, 413 or 415)} */
    public int status() {
        return status;
    }
}
