package org.loommpm.api;

import java.nio.charset.StandardCharsets;

/**
 * Thrown by a handler (or by the server while reading a request body) to answer with a given
 * status. The message goes to the log, not to the client. The client sees the status line and,
 * as the body, the standard reason phrase; or, when the exception carries a body of its own
 * ({@link #HttpException(int, String, String, byte[])}, {@link #problem(Problem, String)}), that
 * body with its content type (a HEAD request gets the head only, with the body's length). A
 * handler that fails after {@code suspend()} or {@code eventStream()} is answered with the status
 * alone: that exchange's head and framing belong to the suspended handle.
 */
public class HttpException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    /** The status the client is answered with. */
    private final int status;
    /** The body's Content-Type, or {@code null} when the reason phrase is answered. */
    private final String contentType;
    /** The body, or {@code null}. */
    private final byte[] body;

    /**
     * An exception that answers with {@code status} and its reason phrase.
     *
     * @param status the HTTP status to answer with (400-599; another is answered as a handler
     *               failure, 500)
     * @param message why, for the log
     */
    public HttpException(int status, String message) {
        super(message, null, false, false);
        this.status = status;
        this.contentType = null;
        this.body = null;
    }

    /**
     * An exception that answers with {@code status} and the given body in place of the reason
     * phrase: a problem document, a short explanation. The body is what the client sees, so it
     * must hold nothing the client should not (internals, a stack trace); the message stays in
     * the log.
     *
     * @param status the HTTP status to answer with (400-599; another is answered as a handler
     *               failure, 500, without this body)
     * @param message why, for the log
     * @param contentType the body's Content-Type, e.g. {@code application/problem+json}
     * @param body the body (copied)
     * @throws NullPointerException if {@code contentType} or {@code body} is {@code null}
     */
    public HttpException(int status, String message, String contentType, byte[] body) {
        super(message, null, false, false);
        if (contentType == null || body == null) {
            throw new NullPointerException("contentType and body");
        }
        this.status = status;
        this.contentType = contentType;
        this.body = body.clone();
    }

    /**
     * An exception that answers with the problem's status and the problem as an
     * {@code application/problem+json} body (RFC 9457).
     *
     * @param problem what the client is told
     * @param message why, for the log (start it with a log id)
     * @return the exception, to throw
     */
    public static HttpException problem(Problem problem, String message) {
        return new HttpException(problem.status(), message, Problem.MEDIA_TYPE,
                problem.toJson().getBytes(StandardCharsets.UTF_8));
    }

    /** {@return the status the client gets} */
    public int status() {
        return status;
    }

    /** {@return the Content-Type of the body the client gets, or {@code null} when it gets the reason phrase} */
    public String contentType() {
        return contentType;
    }

    /** {@return a copy of the body the client gets, or {@code null} when it gets the reason phrase} */
    public byte[] body() {
        return body == null ? null : body.clone();
    }
}
