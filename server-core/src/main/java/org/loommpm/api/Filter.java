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
}
