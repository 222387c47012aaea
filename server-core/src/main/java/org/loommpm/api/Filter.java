package org.loommpm.api;

/**
 * Code around a handler: logging, authentication, headers common to every response. A filter
 * calls {@code next.handle(request, response)} to continue, or answers on its own to stop.
 */
@FunctionalInterface
public interface Filter {
    /**
     * Runs this filter on one exchange.
     *
     * @param request the request
     * @param response the response
     * @param next the rest of the chain (further filters, then the handler)
     * @throws Exception any failure, answered as a handler's would be
     */
    void filter(Request request, Response response, Handler next) throws Exception;

    /**
     * Whether this filter may block (see {@link InvocationType}): a {@link Router} route runs
     * on a poller only when its handler and every filter of the router are
     * {@link InvocationType#NON_BLOCKING}. {@link InvocationType#BLOCKING} unless overridden.
     *
     * @return {@link InvocationType#BLOCKING} or {@link InvocationType#NON_BLOCKING}
     */
    default InvocationType invocationType() {
        return InvocationType.BLOCKING;
    }

    /**
     * This filter around {@code next}, as one handler (for use without a {@link Router}). When
     * this filter is {@link InvocationType#NON_BLOCKING} the result may run on the poller
     * wherever {@code next} may, asked per request when {@code next} is
     * {@link InvocationType#BY_REQUEST}; otherwise it is {@link InvocationType#BLOCKING}.
     *
     * @param next the handler to run inside this filter
     * @return the filter and the handler as one handler
     */
    default Handler around(Handler next) {
        return new FilteredHandler(this, java.util.Objects.requireNonNull(next, "next"));
    }
}
