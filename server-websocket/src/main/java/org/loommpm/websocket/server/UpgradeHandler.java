package org.loommpm.websocket.server;

import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import org.loommpm.api.Handler;
import org.loommpm.api.Headers;
import org.loommpm.api.Request;
import org.loommpm.api.Response;
import org.loommpm.http.ResponseState;
import org.loommpm.websocket.WebSocketEndpoint;
import org.loommpm.websocket.handshake.Handshake;

/**
 * A WebSocket route's {@link Handler} ({@code Router.websocket}): it runs inside the router's
 * filters like any handler, so whatever they refuse (access rules, authentication) never opens a
 * socket. It checks the handshake ({@link Handshake}); a refusal is answered with its status
 * (426 with {@code Upgrade: websocket} or {@code Sec-WebSocket-Version: 13}, 400, 403) and logged
 * at DEBUG (LM1701); an accepted handshake is answered {@code 101} with the agreed subprotocol and
 * extensions, and the connection is handed to {@link WebSocketUpgrade} once the 101 is written.
 * Stateless: one per route, called on the request's worker.
 */
public final class UpgradeHandler implements Handler {
    private static final System.Logger LOG = System.getLogger("org.loommpm.websocket");

    private final WebSocketEndpoint endpoint;
    private final Handshake.Policy policy;
    /** The same without permessage-deflate, for a server with {@code WebSocketDeflate Off}. */
    private final Handshake.Policy policyNoDeflate;

    /** @param endpoint the route's handler and handshake policy */
    public UpgradeHandler(WebSocketEndpoint endpoint) {
        this.endpoint = endpoint;
        this.policy = new Handshake.Policy(endpoint.subprotocols(), endpoint.originCheck(), endpoint.deflate(),
                endpoint.contextTakeover());
        this.policyNoDeflate = new Handshake.Policy(endpoint.subprotocols(), endpoint.originCheck(), false, false);
    }

    /** The route's policy, less deflate when the server does not allow it. */
    private Handshake.Policy policy(Response res) {
        return res instanceof ResponseState own && !own.webSocketDeflate() ? policyNoDeflate : policy;
    }

    @Override
    public void handle(Request req, Response res) throws Exception {
        if ("HTTP/2.0".equals(req.protocol())) {
            handleHttp2(req, res);
            return;
        }
        Headers h = req.headers();
        boolean hasBody = req.contentLength() > 0 || h.contains("Transfer-Encoding");
        Handshake.Result r = Handshake.checkHttp1(req.method(), req.protocol(), hasBody, h, policy(res));
        if (r.accepted() && !(res instanceof ResponseState)) {
            // A filter wrapped the server's response: the connection cannot be handed over through it.
            r = new Handshake.Result(500, "the response is not the server's own (wrapped by a filter)", null, null, null);
        }
        if (!r.accepted()) {
            LOG.log(r.status() == 500 ? Level.ERROR : Level.DEBUG, "LM1701 WebSocket handshake for {0} from {1} refused with {2}: {3}",
                    req.path(), req.remoteAddress(), r.status(), r.problem());
            refuse(res, r);
            return;
        }
        res.status(101).header("Upgrade", "websocket").header("Sec-WebSocket-Accept", r.accept());
        if (r.subprotocol() != null) {
            res.header("Sec-WebSocket-Protocol", r.subprotocol());
        }
        if (r.deflate() != null) {
            res.header("Sec-WebSocket-Extensions", r.deflate().responseHeader());
        }
        ((ResponseState) res).upgrade(new WebSocketUpgrade(endpoint.handler(), r, req));
    }

    /**
     * RFC 8441: the WebSocket is an extended CONNECT on an HTTP/2 stream, accepted with {@code 200};
     * the stream becomes the socket's {@link org.loommpm.http.Tunnel} once the handler returns.
     */
    private void handleHttp2(Request req, Response res) throws Exception {
        ResponseState own = res instanceof ResponseState rs ? rs : null;
        Handshake.Result r = Handshake.checkHttp2(req.method(), own == null ? null : own.connectProtocol(),
                req.headers(), policy(res));
        if (r.accepted() && own == null) {
            r = new Handshake.Result(500, "the response is not the server's own (wrapped by a filter)", null, null, null);
        }
        if (!r.accepted()) {
            LOG.log(r.status() == 500 ? Level.ERROR : Level.DEBUG, "LM1701 WebSocket handshake (HTTP/2) for {0} from {1} "
                    + "refused with {2}: {3}", req.path(), req.remoteAddress(), r.status(), r.problem());
            refuse(res, r);
            return;
        }
        res.status(200);
        if (r.subprotocol() != null) {
            res.header("Sec-WebSocket-Protocol", r.subprotocol());
        }
        if (r.deflate() != null) {
            res.header("Sec-WebSocket-Extensions", r.deflate().responseHeader());
        }
        WebSocketUpgrade upgrade = new WebSocketUpgrade(endpoint.handler(), r, req);
        own.tunnel(upgrade::overStream);
    }

    /** Either protocol: over HTTP/2 the encoder leaves out {@code Upgrade} (a connection-specific field). */
    private static void refuse(Response res, Handshake.Result r) throws java.io.IOException {
        res.status(r.status()).header("Content-Type", "text/plain; charset=UTF-8");
        if (r.status() == 426) {
            res.header("Upgrade", "websocket").header("Sec-WebSocket-Version", "13");
        }
        res.send((r.problem() + "\n").getBytes(StandardCharsets.UTF_8));
    }
}
