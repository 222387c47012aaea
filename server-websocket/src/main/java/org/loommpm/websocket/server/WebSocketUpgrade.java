package org.loommpm.websocket.server;

import java.util.Map;
import org.loommpm.api.Headers;
import org.loommpm.api.Request;
import org.loommpm.config.ServerConfig;
import org.loommpm.http.ProtocolUpgrade;
import org.loommpm.http.Tunnel;
import org.loommpm.spi.ProtocolConnection;
import org.loommpm.websocket.WebSocketHandler;
import org.loommpm.websocket.handshake.Handshake;

/**
 * What an accepted handshake hands the socket to. Over HTTP/1.1, once the 101 is written: it keeps
 * the little of the request a session shows (path, query, path variables, and the header fields
 * until {@code onOpen} returns), makes the socket's {@link WebSocketConnection}, switches the
 * connection to {@link WebSocketProtocol} and serves it. Over HTTP/2, {@link #overStream} makes
 * the socket of the accepted stream. Created by {@link UpgradeHandler} per handshake, used once
 * on the request's worker.
 */
final class WebSocketUpgrade implements ProtocolUpgrade {
    private final WebSocketHandler handler;
    private final Handshake.Result result;
    private final String path;
    private final String query;
    private final Map<String, String> pathParams;
    /** A copy: the request's own fields may be reused by the next request's parser. */
    private final Headers headers = new Headers();

    WebSocketUpgrade(WebSocketHandler handler, Handshake.Result result, Request req) {
        this.handler = handler;
        this.result = result;
        this.path = req.path();
        this.query = req.query();
        this.pathParams = req.pathParams();
        req.headers().forEach(headers::add);
    }

    /** Over HTTP/2 (RFC 8441): the accepted stream's socket, its endpoint. */
    Tunnel.Endpoint overStream(Tunnel stream) {
        return new WebSocketConnection(stream, handler, result.subprotocol(), result.deflate(),
                new WebSocketConnection.Origin(path, query, pathParams, headers));
    }

    @Override
    public void takeOver(ProtocolConnection c, int slot, ServerConfig config) {
        WebSocketConnection ws = new WebSocketConnection(c, config, handler, result.subprotocol(),
                result.deflate(), new WebSocketConnection.Origin(path, query, pathParams, headers));
        c.session(ws);
        c.switchProtocol(WebSocketProtocol.INSTANCE);
        ws.open(c, slot);
    }
}
