package org.loommpm.bench;

import io.undertow.Undertow;
import io.undertow.UndertowOptions;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import io.undertow.util.Methods;
import io.undertow.util.StatusCodes;
import java.nio.ByteBuffer;
import java.security.KeyStore;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.xnio.Options;

/**
 * Undertow 2.3 ({@code undertow-core}, no servlet layer) configured as its documentation
 * recommends for the cores the process may use: {@code ioThreads} = the available processors
 * ({@link BenchServer#ioThreads()})
 * (Undertow's own default is {@code max(cores, 2)}, which on a one-core pin would mean two
 * selector threads sharing it), {@code workerThreads} left at the documented default of
 * 8 per I/O thread. The hello handler does not block, so it answers on the I/O thread that read
 * the request, as the docs advise for non-blocking handlers; a POST body is read with the
 * asynchronous receiver, still on that thread; only {@code GET /slow}, which sleeps,
 * {@linkplain HttpServerExchange#dispatch(Runnable) dispatches} to the worker pool.
 * {@code ENABLE_HTTP2}: the same listener serves cleartext HTTP/2 by prior knowledge (and
 * {@code Upgrade: h2c}); with {@code BENCH_TLS} an HTTPS listener offers h2 by ALPN through
 * the JDK's SSLEngine.
 *
 * <p>Threads: Undertow's XNIO I/O threads own the connections; the worker pool runs only the
 * dispatched {@code /slow} tasks.
 */
final class UndertowBench {
    private static final HttpString CONTENT_TYPE = Headers.CONTENT_TYPE;
    private static final ByteBuffer BODY =
            ByteBuffer.allocateDirect(BenchServer.HELLO.length).put(BenchServer.HELLO).flip().asReadOnlyBuffer();

    private UndertowBench() {
    }

    static String start(int port) throws Exception {
        int ioThreads = BenchServer.ioThreads();
        int workerThreads = ioThreads * 8; // Undertow's documented default ratio
        Undertow.Builder builder = Undertow.builder()
                .setIoThreads(ioThreads)
                .setWorkerThreads(workerThreads)
                .setServerOption(UndertowOptions.ENABLE_HTTP2, true)
                .setServerOption(UndertowOptions.IDLE_TIMEOUT, (int) BenchServer.IDLE_TIMEOUT.toMillis())
                .setServerOption(UndertowOptions.NO_REQUEST_TIMEOUT, (int) BenchServer.IDLE_TIMEOUT.toMillis())
                .setSocketOption(Options.TCP_NODELAY, true)
                .setSocketOption(Options.BACKLOG, 1024)
                .setHandler(UndertowBench::handle);
        BenchTls tls = BenchTls.fromEnv();
        if (tls != null) {
            builder.addHttpsListener(port, BenchServer.bindAddress(), sslContext(tls));
        } else {
            builder.addHttpListener(port, BenchServer.bindAddress());
        }
        builder.build().start();
        return "Undertow " + io.undertow.Version.getVersionString() + ", ioThreads=" + ioThreads
                + " workerThreads=" + workerThreads + (tls != null ? ", TLS (JDK SSLEngine)" : "");
    }

    private static void handle(HttpServerExchange exchange) {
        String path = exchange.getRequestPath();
        HttpString method = exchange.getRequestMethod();
        if (path.equals(BenchServer.SLOW_PATH) && method.equals(Methods.GET)) {
            if (exchange.isInIoThread()) {
                // Sleeping blocks: the one case the docs say to dispatch to a worker thread.
                exchange.dispatch((HttpHandler) UndertowBench::slow);
                return;
            }
            slow(exchange);
        } else if (!BenchServer.servedPath(path)) {
            exchange.setStatusCode(StatusCodes.NOT_FOUND).endExchange();
        } else if (method.equals(Methods.POST)) {
            exchange.getRequestReceiver().receiveFullBytes((ex, body) -> hello(ex));
        } else if (method.equals(Methods.GET) || method.equals(Methods.HEAD)) {
            hello(exchange);
        } else {
            exchange.setStatusCode(StatusCodes.METHOD_NOT_ALLOWED).endExchange();
        }
    }

    private static void slow(HttpServerExchange exchange) {
        BenchServer.pause();
        hello(exchange);
    }

    private static void hello(HttpServerExchange exchange) {
        exchange.getResponseHeaders().put(CONTENT_TYPE, BenchServer.CONTENT_TYPE);
        exchange.getResponseSender().send(BODY.duplicate());
    }

    private static SSLContext sslContext(BenchTls tls) throws Exception {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        ks.load(null, null);
        char[] pw = tls.password().toCharArray();
        ks.setKeyEntry("bench", tls.key(), pw, tls.chain());
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, pw);
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(kmf.getKeyManagers(), null, null);
        return ctx;
    }
}
