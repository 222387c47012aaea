/**
 * A reverse proxy as a {@link org.loommpm.api.Handler}: {@link org.loommpm.proxy.ProxyHandler}
 * sends requests under a path prefix to an HTTP/1.1 backend or to the members of a
 * {@link org.loommpm.proxy.Balancer} (weighted or least-busy choice, hot standbys, error state
 * with retry, sticky sessions, active {@link org.loommpm.proxy.HealthCheck}s), over pooled
 * keep-alive connections, streaming bodies both ways with back-pressure. The jar's
 * {@code ProxyPass}, {@code <Proxy balancer://>} and {@code BalancerMember} directives build
 * these same objects. A request the poller that read it may serve is proxied there, with backend
 * connections that poller owns ({@code LoopExchange}); everything else runs on the exchange's
 * virtual thread with the JDK's blocking socket I/O (see docs/architecture.md, "The reverse
 * proxy").
 */
package org.loommpm.proxy;
