package org.loommpm.bench;

import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionException;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.MultiPart;
import org.eclipse.jetty.http.MultiPartConfig;
import org.eclipse.jetty.http.MultiPartFormData;
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
 *
 * <p>toolkit.sh's rows: {@code GET /json} serialises a new {@link Toolkit.Message} per request with
 * the shared Jackson mapper and writes it with its Content-Length, as the programming guide's
 * "content length" handler writes JSON bytes. {@code POST /upload} parses with
 * {@link MultiPartFormData#getParts(Content.Source, org.eclipse.jetty.util.Attributes, String, MultiPartConfig)}
 * (the blocking form of the guide's {@code MultiPartFormData.onParts}: this handler runs on a
 * virtual thread) and a {@link MultiPartConfig} with {@link Toolkit}'s limits: parts above 16 KiB
 * are spooled to {@link Toolkit#uploadDir()}. {@code MultiPartFormData} hands over whole parts, so
 * each part's SHA-256 is computed reading it back (64 KiB at a time, from the spooled file); closing
 * the {@link MultiPartFormData.Parts} deletes the files.
 */
final class JettyBench {
    private static final PreEncodedHttpField CONTENT_TYPE =
            new PreEncodedHttpField(HttpHeader.CONTENT_TYPE, BenchServer.CONTENT_TYPE);
    private static final PreEncodedHttpField CONTENT_LENGTH =
            new PreEncodedHttpField(HttpHeader.CONTENT_LENGTH, String.valueOf(BenchServer.HELLO.length));
    private static final ByteBuffer BODY =
            ByteBuffer.allocateDirect(BenchServer.HELLO.length).put(BenchServer.HELLO).flip().asReadOnlyBuffer();

    private static final PreEncodedHttpField JSON_TYPE =
            new PreEncodedHttpField(HttpHeader.CONTENT_TYPE, Toolkit.JSON_TYPE);

    private JettyBench() {
    }

    /** The same limits as every peer's (Toolkit), spooling above 16 KiB. */
    static MultiPartConfig multiPartConfig() {
        return new MultiPartConfig.Builder()
                .location(Toolkit.uploadDir())
                .maxMemoryPartSize(Toolkit.MEMORY_THRESHOLD_BYTES)
                .maxPartSize(Toolkit.MAX_PART_BYTES)
                .maxSize(Toolkit.MAX_REQUEST_BYTES)
                .maxParts(Toolkit.MAX_PARTS)
                .maxHeadersSize(Toolkit.MAX_PART_HEADER_BYTES)
                .build();
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
        MultiPartConfig multiPart = multiPartConfig();
        ws.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                String path = request.getHttpURI().getPath();
                if (path.equals(Toolkit.JSON_PATH) && request.getMethod().equals("GET")) {
                    json(response, callback);
                    return true;
                } else if (path.equals(Toolkit.UPLOAD_PATH) && request.getMethod().equals("POST")) {
                    upload(request, response, callback, multiPart);
                    return true;
                } else if (path.equals(BenchServer.SLOW_PATH)) {
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

    /** {@code {"message":"Hello, World!"}}, serialised now, with its Content-Length. */
    private static void json(Response response, Callback callback) {
        byte[] body = Toolkit.helloJson();
        response.setStatus(200);
        response.getHeaders().put(JSON_TYPE);
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
        response.write(true, ByteBuffer.wrap(body), callback);
    }

    /**
     * The parts, each read back for its SHA-256, as JSON; a parser failure (a limit, a malformed
     * body) is answered with the status Jetty gives it (400, 413).
     */
    private static void upload(Request request, Response response, Callback callback, MultiPartConfig config) {
        String contentType = request.getHeaders().get(HttpHeader.CONTENT_TYPE);
        if (contentType == null || !contentType.regionMatches(true, 0, "multipart/form-data", 0, 19)) {
            Response.writeError(request, response, callback, 415);
            return;
        }
        List<Toolkit.PartDigest> digests = new ArrayList<>();
        try (MultiPartFormData.Parts parts = MultiPartFormData.getParts(request, request, contentType, config)) {
            for (MultiPart.Part part : parts) {
                try (InputStream in = Content.Source.asInputStream(part.getContentSource())) {
                    digests.add(Toolkit.digest(part.getName(), part.getFileName(), in));
                }
            }
        } catch (Throwable t) {
            Response.writeError(request, response, callback, t instanceof CompletionException && t.getCause() != null ? t.getCause() : t);
            return;
        }
        byte[] body = Toolkit.partsJson(digests);
        response.setStatus(200);
        response.getHeaders().put(JSON_TYPE);
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
        response.write(true, ByteBuffer.wrap(body), callback);
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
