package org.loommpm.api;

/**
 * A filter around a handler as one handler ({@link Filter#around}), which may run on the poller
 * where the handler may: when the filter is {@link InvocationType#NON_BLOCKING}, its type is the
 * handler's, asked per request for a {@link InvocationType#BY_REQUEST} one.
 */
final class FilteredHandler implements Handler {
    private final Filter filter;
    private final Handler next;

    FilteredHandler(Filter filter, Handler next) {
        this.filter = filter;
        this.next = next;
    }

    @Override
    public void handle(Request request, Response response) throws Exception {
        filter.filter(request, response, next);
    }

    @Override
    public InvocationType invocationType() {
        return filter.invocationType() == InvocationType.NON_BLOCKING ? next.invocationType() : InvocationType.BLOCKING;
    }

    @Override
    public InvocationType invocationType(String method, String path) {
        return nonBlockingHandler(method, path) != null ? InvocationType.NON_BLOCKING : InvocationType.BLOCKING;
    }

    @Override
    public Handler nonBlockingHandler(String method, String path) {
        if (filter.invocationType() != InvocationType.NON_BLOCKING) {
            return null;
        }
        Handler nb = next.nonBlockingHandler(method, path);
        if (nb == null) {
            return null;
        }
        return nb == next ? this : new FilteredHandler(filter, nb);
    }
}
