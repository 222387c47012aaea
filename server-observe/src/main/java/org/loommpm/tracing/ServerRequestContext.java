package org.loommpm.tracing;

import io.micrometer.observation.transport.Kind;
import io.micrometer.observation.transport.RequestReplyReceiverContext;
import org.loommpm.api.Request;
import org.loommpm.api.Response;

/**
 * One server request as an observation sees it: the request is the carrier (its header getter
 * is what a tracing bridge's propagator reads {@code traceparent} and {@code tracestate}
 * through), the response is set when the handler is done, with the status answered, the
 * {@code Router} template that matched (if any) and the failure (if any).
 *
 * <p>Created and filled by the worker serving the request; observation handlers read it on that
 * worker, at start and at stop.
 */
public final class ServerRequestContext extends RequestReplyReceiverContext<Request, Response> {
    private String route;
    private int status;

    /**
     * A context for one request.
     *
     * @param request the request, the carrier of the trace context
     */
    public ServerRequestContext(Request request) {
        super(HeaderGetter.INSTANCE, Kind.SERVER);
        setCarrier(request);
    }

    /**
     * The matched {@code Router} template.
     *
     * @return e.g. {@code /users/{id}}, or null when none matched
     */
    public String route() {
        return route;
    }

    void route(String template) {
        route = template;
    }

    /**
     * The status answered.
     *
     * @return the response's, or what the server answers for the handler's failure; 0 before the handler ended
     */
    public int status() {
        return status;
    }

    void status(int s) {
        status = s;
    }

    /** Reads a request header for the propagator (field names are case-insensitive). */
    private enum HeaderGetter implements io.micrometer.observation.transport.Propagator.Getter<Request> {
        INSTANCE;

        @Override
        public String get(Request carrier, String key) {
            return carrier.header(key);
        }
    }
}
