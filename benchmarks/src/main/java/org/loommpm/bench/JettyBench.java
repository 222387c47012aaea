package org.loommpm.bench;

import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.PreEncodedHttpField;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.eclipse.jetty.util.thread.VirtualThreadPool;
import org.eclipse.jetty.websocket.api.Session;
import org.eclipse.jetty.websocket.server.WebSocketUpgradeHandler;

/**
 * Jetty 12 with virtual threads as its programming guide recommends: a {@link QueuedThreadPool}
 * (platform threads for selectors and non-blocking tasks) whose virtual-threads executor is a
 * {@link VirtualThreadPool}; a plain blocking {@link Handler.Abstract} therefore runs on a
 * virtual thread. No access log (none configured).
 */
final class JettyBench {
    private static final PreEncodedHttpField CONTENT_TYPE =
            new PreEncodedHttpField(HttpHeader.CONTENT_TYPE, BenchServer.CONTENT_TYPE);
    private static final PreEncodedHttpField CONTENT_LENGTH =
            new PreEncodedHttpField(HttpHeader.CONTENT_LENGTH, String.valueOf(BenchServer.HELLO.length));
    private static final ByteBuffer BODY =
            ByteBuffer.allocateDirect(BenchServer.HELLO.length).put(BenchServer.HELLO).flip().asReadOnlyBuffer();

    private JettyBench() {
    }

    static String start(int port) throws Exception {
        QueuedThreadPool threadPool = new QueuedThreadPool();
        threadPool.setName("jetty");
        VirtualThreadPool virtualThreads = new VirtualThreadPool();
        virtualThreads.setName("jetty-vt");
        threadPool.setVirtualThreadsExecutor(virtualThreads);

        Server server = new Server(threadPool);
        ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(new HttpConfiguration()));
        connector.setHost(BenchServer.bindAddress());
        connector.setPort(port);
        connector.setIdleTimeout(BenchServer.IDLE_TIMEOUT.toMillis());
        connector.setAcceptedTcpNoDelay(true);
        server.addConnector(connector);
        // WebSocket as the Jetty 12 programming guide shows it: a WebSocketUpgradeHandler mapping
        // /ws to a Session.Listener.AutoDemanding endpoint, wrapping the plain handler (which sees
        // every request that is not an upgrade to a mapped path).
        WebSocketUpgradeHandler ws = WebSocketUpgradeHandler.from(server, container -> {
            container.setIdleTimeout(BenchServer.IDLE_TIMEOUT);
            container.addMapping(BenchServer.WS_PATH, (rq, rs, cb) -> new EchoEndpoint());
        });
        server.setHandler(ws);
        ws.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                String path = request.getHttpURI().getPath();
                if (path.equals(BenchServer.SLOW_PATH)) {
                    BenchServer.pause(); // a virtual thread: the handler is blocking
                } else if (!BenchServer.servedPath(path)) {
                    return false; // Jetty answers 404
                }
                String method = request.getMethod();
                if (method.equals("POST")) {
                    Content.Source.consumeAll(request);
                } else if (!method.equals("GET") && !method.equals("HEAD")) {
                    Response.writeError(request, response, callback, 405);
                    return true;
                }
                response.setStatus(200);
                response.getHeaders().put(CONTENT_TYPE);
                response.getHeaders().put(CONTENT_LENGTH);
                response.write(true, BODY.slice(), callback);
                return true;
            }
        });
        server.start();
        return "Jetty " + Server.getVersion() + ", QueuedThreadPool + VirtualThreadPool, selectors="
                + connector.getSelectorManager().getSelectorCount() + " acceptors=" + connector.getAcceptors();
    }

    /** The guide's echo endpoint: what arrives is sent back; a binary buffer is released when its echo is written. */
    public static final class EchoEndpoint implements Session.Listener.AutoDemanding {
        private Session session;

        @Override
        public void onWebSocketOpen(Session session) {
            this.session = session;
        }

        @Override
        public void onWebSocketText(String message) {
            session.sendText(message, org.eclipse.jetty.websocket.api.Callback.NOOP);
        }

        @Override
        public void onWebSocketBinary(ByteBuffer payload, org.eclipse.jetty.websocket.api.Callback callback) {
            session.sendBinary(payload, callback);
        }
    }
}
