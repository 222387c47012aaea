package org.loommpm.staticfiles.internal;

import org.loommpm.api.Request;
import org.loommpm.api.Response;

/**
 * What answers an error the static files (and the jar's site) are about to send, in place of
 * their one line of text: the jar's {@code ErrorDocument}. Called on the request's thread, before
 * anything of the answer is sent; the fields set so far ({@code Allow}, {@code WWW-Authenticate})
 * stay.
 */
@FunctionalInterface
public interface ErrorAnswer {
    /**
     * Answers {@code status} for this request, or leaves it to the default text.
     *
     * @param status the error status (400 to 599)
     * @return whether it answered (sent a response)
     */
    boolean answer(Request req, Response res, int status) throws Exception;
}
