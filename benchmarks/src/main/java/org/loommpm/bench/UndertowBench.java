package org.loommpm.bench;

import io.undertow.Undertow;
import io.undertow.UndertowOptions;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.handlers.form.FormData;
import io.undertow.server.handlers.form.FormDataParser;
import io.undertow.server.handlers.form.FormParserFactory;
import io.undertow.server.handlers.form.MultiPartParserDefinition;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import io.undertow.util.Methods;
import io.undertow.util.StatusCodes;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.util.ArrayList;
import java.util.List;
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
 * dispatched {@code /slow} and {@code /upload} tasks.
 *
 * <p>toolkit.sh's rows: {@code GET /json} serialises a new {@link Toolkit.Message} per request with
 * the shared Jackson mapper on the I/O thread (no blocking: the docs' non-blocking case) and sends
 * the bytes. {@code POST /upload}: the documented form parsing, a {@link FormParserFactory} with a
 * {@link MultiPartParserDefinition} (temporary files in {@link Toolkit#uploadDir()}, parts up to
 * 16 KiB in memory, {@link Toolkit}'s per-part limit; the request limit is the exchange's
 * {@code setMaxEntitySize} and the part count {@code MAX_PARAMETERS}), parsed without blocking
 * ({@code parse(next)}: the parser reads and writes its files in tasks on the worker pool);
 * {@code next} dispatches to the worker pool, as reading the parts back for their SHA-256 blocks. The parser is closed, and its files
 * deleted, when the exchange completes.
 */
final class UndertowBench {
    private static final HttpString CONTENT_TYPE = Headers.CONTENT_TYPE;
    private static final ByteBuffer BODY =
            ByteBuffer.allocateDirect(BenchServer.HELLO.length).put(BenchServer.HELLO).flip().asReadOnlyBuffer();

    private static final FormParserFactory FORMS = FormParserFactory.builder(false)
            .addParser(multipart())
            .withDefaultCharset("UTF-8")
            .build();

    private UndertowBench() {
    }

    private static MultiPartParserDefinition multipart() {
        MultiPartParserDefinition d = new MultiPartParserDefinition(Toolkit.uploadDir());
        d.setFileSizeThreshold(Toolkit.MEMORY_THRESHOLD_BYTES);
        d.setFieldSizeThreshold(Toolkit.MEMORY_THRESHOLD_BYTES);
        d.setMaxIndividualFileSize(Toolkit.MAX_PART_BYTES);
        d.setDefaultEncoding("UTF-8");
        return d;
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
                .setServerOption(UndertowOptions.MAX_PARAMETERS, Toolkit.MAX_PARTS)
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
        if (path.equals(Toolkit.JSON_PATH) && method.equals(Methods.GET)) {
            exchange.getResponseHeaders().put(CONTENT_TYPE, Toolkit.JSON_TYPE);
            exchange.getResponseSender().send(ByteBuffer.wrap(Toolkit.helloJson()));
        } else if (path.equals(Toolkit.UPLOAD_PATH) && method.equals(Methods.POST)) {
            // The exchange's limit (MAX_ENTITY_SIZE, 2 MiB by default) wins over
            // MULTIPART_MAX_ENTITY_SIZE, which the parser applies only to an exchange without one.
            exchange.setMaxEntitySize(Toolkit.MAX_REQUEST_BYTES);
            FormDataParser parser = FORMS.createParser(exchange);
            if (parser == null) {
                exchange.setStatusCode(StatusCodes.UNSUPPORTED_MEDIA_TYPE).endExchange();
                return;
            }
            try {
                parser.parse(ex -> ex.dispatch(UndertowBench::uploaded));
            } catch (Exception e) {
                exchange.setStatusCode(StatusCodes.BAD_REQUEST).endExchange();
            }
        } else if (path.equals(BenchServer.SLOW_PATH) && method.equals(Methods.GET)) {
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

    /** On a worker: each part read back for its SHA-256, the answer as JSON. */
    private static void uploaded(HttpServerExchange exchange) {
        FormData form = exchange.getAttachment(FormDataParser.FORM_DATA);
        List<Toolkit.PartDigest> parts = new ArrayList<>();
        try {
            for (String name : form) {
                for (FormData.FormValue v : form.get(name)) {
                    if (v.isFileItem()) {
                        try (InputStream in = v.getFileItem().getInputStream()) {
                            parts.add(Toolkit.digest(name, v.getFileName(), in));
                        }
                    } else {
                        byte[] b = v.getValue().getBytes(Charset.forName(v.getCharset() == null ? "UTF-8" : v.getCharset()));
                        parts.add(Toolkit.digest(name, v.getFileName(), new java.io.ByteArrayInputStream(b)));
                    }
                }
            }
        } catch (IOException e) {
            exchange.setStatusCode(StatusCodes.INTERNAL_SERVER_ERROR).endExchange();
            return;
        }
        exchange.getResponseHeaders().put(CONTENT_TYPE, Toolkit.JSON_TYPE);
        exchange.getResponseSender().send(ByteBuffer.wrap(Toolkit.partsJson(parts)));
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
