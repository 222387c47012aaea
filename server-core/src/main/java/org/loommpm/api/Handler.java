package org.loommpm.api;

/**
 * Application code that answers one request. Runs on a virtual thread owned by the child's
 * worker pool, so it may block (read a body, call a database, sleep): a blocked handler parks
 * its virtual thread, never a poller. A handler that throws gets a 500 with no internals shown
 * to the client (an {@link HttpException} gets its own status instead).
 */
@FunctionalInterface
public interface Handler {
    /**
     * Handles one exchange. The response is completed when this returns: anything not yet sent
     * is sent then (an untouched response becomes an empty 200).
     *
     * @param request the request (head parsed, body not yet read)
     * @param response the response to fill in and send
     * @throws Exception any failure; see the class comment for how it is answered
     */
    void handle(Request request, Response response) throws Exception;
}
