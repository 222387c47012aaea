/**
 * WebSocket for loom-mpm (RFC 6455 over HTTP/1.1, RFC 8441 over HTTP/2, RFC 7692
 * permessage-deflate): the API is {@code org.loommpm.websocket} in {@code org.loommpm.core};
 * {@code api.Router.websocket} routes are bound to this module's handler through
 * {@link java.util.ServiceLoader} when the router freezes. Exports only the handshake parsing,
 * to the reverse proxy (its WebSocket tunnels).
 */
// "module": the qualified export names a module compiled after this one.
@SuppressWarnings("module")
module org.loommpm.ws {
    requires org.loommpm.core;

    exports org.loommpm.websocket.handshake to org.loommpm.proxy;

    provides org.loommpm.api.WebSocketBinding with org.loommpm.websocket.server.UpgradeBinding;
}
