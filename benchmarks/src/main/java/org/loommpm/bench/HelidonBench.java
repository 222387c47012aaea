package org.loommpm.bench;

import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Method;
import io.helidon.webserver.WebServer;
import io.helidon.common.buffers.BufferData;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.websocket.WsRouting;
import io.helidon.websocket.WsListener;
import io.helidon.websocket.WsSession;

/**
 * Helidon 4 WebServer (one virtual thread per connection by design), with its defaults, which
 * its performance guide calls self-tuning; only TCP_NODELAY (off by default) is turned on and
 * the idle-connection timeout set. No observe/access-log features are on the class path;
 * helidon-webserver-http2 is, so the same routing serves cleartext HTTP/2 (prior knowledge and
 * {@code Upgrade: h2c}).
 *
 * <p>toolkit.sh's JSON row: {@code GET /json} serialises a new {@link Toolkit.Message} per request
 * with the shared Jackson mapper in the handler and sends the bytes, as TechEmpower's Helidon
 * (Níma) app does with its serialiser (helidon-http-media-jackson is not served at 4.3.4, and the
 * same mapper in every peer keeps the row about the servers). No {@code POST /upload}: Helidon's
 * multipart support (helidon-http-media-multipart) is not in the registry at any 4.x version the
 * build can resolve, so the route answers 404 and toolkit.sh leaves Helidon out of that row.
 */
final class HelidonBench {
    private static final Header CONTENT_TYPE =
            HeaderValues.createCached(HeaderNames.CONTENT_TYPE, BenchServer.CONTENT_TYPE);

    private HelidonBench() {
    }

    static String start(int port) throws java.io.IOException {
        BenchTls tls = BenchTls.fromEnv();
        Handler hello = (req, res) -> {
            if (req.prologue().method() == Method.POST) {
                req.content().consume();
            }
            res.header(CONTENT_TYPE);
            res.send(BenchServer.HELLO);
        };
        Handler json = (req, res) -> {
            res.header(HeaderValues.CONTENT_TYPE_JSON);
            res.send(Toolkit.helloJson());
        };
        Handler slow = (req, res) -> {
            BenchServer.pause();
            hello.handle(req, res);
        };
        WebServer server = WebServer.builder()
                .host(BenchServer.bindAddress())
                .port(port)
                .connectionOptions(o -> o.tcpNoDelay(true))
                .idleConnectionTimeout(BenchServer.IDLE_TIMEOUT)
                .update(b -> {
                    if (tls != null) { // h2 or http/1.1 by ALPN
                        b.tls(t -> t.privateKey(tls.key()).privateKeyCertChain(java.util.List.of(tls.chain())));
                    }
                })
                .routing(r -> r
                        .get("/plaintext", hello).post("/plaintext", hello)
                        .get("/", hello).post("/", hello)
                        .get(BenchServer.SLOW_PATH, slow)
                        .get(Toolkit.JSON_PATH, json))
                // Helidon's WebSocket routing, as its guide shows: a WsListener echoing each part.
                .addRouting(WsRouting.builder().endpoint(BenchServer.WS_PATH, new WsListener() {
                    @Override
                    public void onMessage(WsSession session, String text, boolean last) {
                        session.send(text, last);
                    }

                    @Override
                    public void onMessage(WsSession session, BufferData buffer, boolean last) {
                        session.send(buffer, last);
                    }
                }))
                .build()
                .start();
        return "Helidon WebServer, bound port " + server.port() + (tls != null ? ", TLS" : "");
    }
}
