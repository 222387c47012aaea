/**
 * The reverse proxy and balancer for loom-mpm: {@link org.loommpm.proxy.ProxyHandler} (httpd's
 * mod_proxy semantics: ProxyPass, balancer members, health checks, sticky sessions, WebSocket and
 * CONNECT tunnels), a handler like any other.
 */
module org.loommpm.proxy {
    requires transitive org.loommpm.core;
    requires org.loommpm.ws;

    exports org.loommpm.proxy;
}
