package org.loommpm.json;

/**
 * A {@link JsonCodec} could not read or write a value: the input is not JSON or does not fit the
 * type asked for (the client's fault when it is a request body), or a value cannot be written (the
 * application's). Unchecked, so that a handler need not catch it: {@code Request.json} answers
 * it with 400.
 *
 * <p>The message is the codec's own (a position, the field that failed): it is for the log, never
 * for the client, which is answered a generic problem document.
 */
public class JsonCodecException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * An exception with the codec's message and its cause.
     *
     * @param message what failed, for the log
     * @param cause the codec's own exception, or {@code null}
     */
    public JsonCodecException(String message, Throwable cause) {
        super(message, cause);
    }
}
