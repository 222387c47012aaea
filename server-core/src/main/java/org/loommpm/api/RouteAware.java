package org.loommpm.api;

/**
 * A request that wants to know which {@link Router} template it was routed by: tracing records
 * it as {@code http.route}. A router tells it on every match (a nested router after the one
 * around it, so the innermost template is the last word); other requests cost the router one
 * type check.
 */
public interface RouteAware {
    /**
     * Told on every match, before the route's handler runs.
     *
     * @param template the matched template as registered, e.g. {@code /users/{id}}
     */
    void routeMatched(String template);
}
