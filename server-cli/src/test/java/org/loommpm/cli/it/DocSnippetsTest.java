package org.loommpm.cli.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingReceiverTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingSenderTracingObservationHandler;
import io.micrometer.tracing.otel.bridge.OtelBaggageManager;
import io.micrometer.tracing.otel.bridge.OtelCurrentTraceContext;
import io.micrometer.tracing.otel.bridge.OtelPropagator;
import io.micrometer.tracing.otel.bridge.OtelTracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import java.io.BufferedReader;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.api.Application;
import org.loommpm.api.EventStream;
import org.loommpm.api.Handler;
import org.loommpm.api.Headers;
import org.loommpm.api.HttpException;
import org.loommpm.api.Problem;
import org.loommpm.api.Router;
import org.loommpm.api.ServerSentEvent;
import org.loommpm.form.FormData;
import org.loommpm.multipart.MultipartLimits;
import org.loommpm.multipart.MultipartReader;
import org.loommpm.multipart.Part;
import org.loommpm.api.SuspendedResponse;
import org.loommpm.api.TlsInfo;
import org.loommpm.compress.CompressionFilter;
import org.loommpm.compress.CompressionSettings;
import org.loommpm.compress.ContentCoding;
import org.loommpm.cookie.SetCookie;
import org.loommpm.config.TlsSettings;
import org.loommpm.cors.Cors;
import org.loommpm.metrics.MetricsFeature;
import org.loommpm.metrics.MetricsHandler;
import org.loommpm.server.LoomServer;
import org.loommpm.staticfiles.StaticFiles;
import org.loommpm.status.StatusHandler;
import org.loommpm.testsupport.RawHttp;
import org.loommpm.tracing.TracingFeature;
import org.loommpm.websocket.WebSocketHandler;
import org.loommpm.websocket.WebSocketSession;

/**
 * The Java examples of README.md and docs/*.md, compiled here against the current API and, where
 * cheap, run against a server on 127.0.0.1:0. {@link #everyDocumentedLineIsHere} holds the docs to
 * this file: a line of an example that is not here (edited in the docs alone) fails, so an example
 * cannot drift from what compiles. Examples that bind fixed ports or need files are compiled only.
 */
class DocSnippetsTest {
    private static final Path HERE = Path.of("src", "test", "java", "org", "loommpm", "cli", "it", "DocSnippetsTest.java");
    /** README's loom-mpm-testing example is compiled and run by server-h2, whose h2c it needs. */
    private static final Path TESTING = Path.of("..", "server-h2", "src", "test", "java", "org", "loommpm", "http2",
            "it", "HelloTest.java");
    private static final Pattern JAVA_BLOCK = Pattern.compile("(?s)```java\n(.*?)```");

    private final HttpClient client = HttpClient.newHttpClient();
    private LoomServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void everyDocumentedLineIsHere() throws IOException {
        Set<String> here = new HashSet<>();
        for (Path p : List.of(HERE, TESTING)) {
            Files.readAllLines(p).forEach(l -> here.add(normal(l)));
        }
        List<String> missing = new ArrayList<>();
        List<Path> docs = new ArrayList<>(List.of(Path.of("..", "README.md")));
        try (Stream<Path> s = Files.list(Path.of("..", "docs"))) {
            s.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
        }
        int lines = 0;
        for (Path doc : docs) {
            Matcher block = JAVA_BLOCK.matcher(Files.readString(doc));
            while (block.find()) {
                for (String line : block.group(1).split("\n")) {
                    // "…" stands for code the reader fills in: such a line is not Java as it is.
                    if (!line.isBlank() && !line.contains("…")) {
                        lines++;
                        if (!here.contains(normal(line))) {
                            missing.add(doc.getFileName() + ": " + line.strip());
                        }
                    }
                }
            }
        }
        assertEquals(List.of(), missing, "lines of the docs' Java examples that DocSnippetsTest does not compile");
        assertTrue(lines > 100, "the examples were found: " + lines);
    }

    private static String normal(String line) {
        return line.strip().replaceAll("\\s+", " ");
    }

    // README.md, "Embedded"

    static Router readmeRouter() {
        Router router = new Router()
                .get("/hello", (req, res) -> res.send("Hello, World!"))
                .get("/users/{id}", (req, res) -> res.send("user " + req.pathParam("id")))
                .post("/echo", (req, res) -> res.send(req.bodyBytes()))
                .websocket("/ws", new WebSocketHandler() {      // RFC 6455, permessage-deflate offered
                    @Override
                    public void onText(WebSocketSession session, String text) {
                        session.sendText("echo: " + text);    // any thread may send, without blocking
                    }
                });
        return router;
    }

    /** Compiled only: it binds 8080 and waits for a stop. */
    static void readmeMain(Router router) throws Exception {
        try (LoomServer server = LoomServer.builder().listen("0.0.0.0", 8080)
                .configure(c -> c.threadsPerChild(256).keepAliveTimeout(java.time.Duration.ofSeconds(5)))
                .handler(router).start()) {
            server.awaitStop();
        }
    }

    @Test
    void readmeRouterAnswers() throws Exception {
        start(readmeRouter());
        assertEquals("Hello, World!", get("/hello").body());
        assertEquals("user 7", get("/users/7").body());
        HttpResponse<String> echo = client.send(HttpRequest.newBuilder(uri("/echo"))
                .POST(HttpRequest.BodyPublishers.ofString("ping")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals("ping", echo.body());
        assertEquals("echo: hi", webSocketAnswer("/ws", "hi"));
    }

    // README.md, "A small web application"

    record Note(String text) { }

    static Router readmeWebApplication(Path publicDir) {
        List<Note> notes = new CopyOnWriteArrayList<>();
        Map<String, String> sessions = new ConcurrentHashMap<>();
        Router app = new Router()
                .post("/login", (req, res) -> {
                    String name = req.form().first("name");            // an HTML form's POST, read once, limited
                    String sid = UUID.randomUUID().toString();
                    sessions.put(sid, name == null ? "anonymous" : name);
                    res.cookie(SetCookie.builder("sid", sid).path("/").httpOnly(true)
                            .sameSite(SetCookie.SameSite.LAX).build());
                    res.status(303).header("Location", "/").send(new byte[0]);
                })
                .get("/api/me", (req, res) -> res.json(Map.of("user",
                        sessions.getOrDefault(String.valueOf(req.cookie("sid")), "nobody"))))
                .get("/api/notes", (req, res) -> res.json(notes))
                .post("/api/notes", (req, res) -> {
                    Note note = req.json(Note.class);                  // not JSON: 400 with a problem document
                    notes.add(note);
                    res.status(201).json(note);
                });
        return app.get("/files/*", StaticFiles.from(publicDir));
    }

    /** Compiled only: it needs the directory. */
    static Router readmeWebApplicationFiles(Router app) {
        return app
                .get("/*", StaticFiles.from(Path.of("public")));       // ETag/304, Range, index.html, .gz/.br
    }

    @Test
    void readmeWebApplicationAnswers(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("index.html"), "<h1>notes</h1>");
        start(readmeWebApplication(dir));
        HttpClient browser = HttpClient.newBuilder().cookieHandler(new java.net.CookieManager()).build();
        HttpResponse<String> login = browser.send(HttpRequest.newBuilder(uri("/login"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("name=Ada+L")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(303, login.statusCode());
        assertEquals("{\"user\":\"Ada L\"}", browser.send(HttpRequest.newBuilder(uri("/api/me")).build(),
                HttpResponse.BodyHandlers.ofString()).body());
        HttpResponse<String> created = browser.send(HttpRequest.newBuilder(uri("/api/notes"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"text\":\"hi\"}")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(201, created.statusCode());
        assertEquals("[{\"text\":\"hi\"}]", get("/api/notes").body());
        HttpResponse<String> bad = browser.send(HttpRequest.newBuilder(uri("/api/notes"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"text\":")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(400, bad.statusCode());
        assertEquals("application/problem+json", bad.headers().firstValue("Content-Type").orElse(""));
        assertEquals("<h1>notes</h1>", get("/files/").body());
    }

    // docs/tutorial.md

    /** The tutorial's first program; compiled only (it binds 8080 and waits for a stop). */
    public class Hello {
        public static void main(String[] args) throws Exception {
            Router router = new Router()
                    .get("/hello", (req, res) -> res.send("Hello, World!"))
                    .get("/users/{id}", (req, res) -> res.send("user " + req.pathParam("id")));
            try (LoomServer server = LoomServer.builder().listen("127.0.0.1", 8080).handler(router).start()) {
                System.out.println("listening on " + server.port());
                server.awaitStop();
            }
        }
    }

    /** The tutorial's second router: a filter, a status of the handler's choosing, a header. */
    static Router tutorialRouter() {
        Router router = new Router()
                .get("/hello", (req, res) -> res.send("Hello, World!"))
                .get("/users/{id}", (req, res) -> {
                    String id = req.pathParam("id");
                    if (!id.chars().allMatch(Character::isDigit)) {
                        throw new HttpException(400, "not a user id: " + id);
                    }
                    res.header("Content-Type", "application/json").send("{\"id\":" + id + "}");
                })
                .filter((req, res, next) -> {
                    res.header("Cache-Control", "no-store");
                    next.handle(req, res);
                });
        return router;
    }

    @Test
    void tutorialRouterAnswers() throws Exception {
        start(tutorialRouter());
        HttpResponse<String> user = get("/users/42");
        assertEquals("{\"id\":42}", user.body());
        assertEquals("application/json", user.headers().firstValue("Content-Type").orElse(null));
        assertEquals("no-store", user.headers().firstValue("Cache-Control").orElse(null));
        assertEquals(400, get("/users/abc").statusCode());
    }

    /** The tutorial's application; the jar would find it with ServiceLoader, the test calls it. */
    public final class HelloApplication implements Application {
        @Override
        public void routes(Router router, Context context) {
            String greeting = context.parameter("greeting", "Hello");
            router.get("/app/hello", (req, res) -> res.send(greeting + ", World!"));
        }
    }

    @Test
    void tutorialApplicationAnswers() throws Exception {
        Router router = new Router();
        new HelloApplication().routes(router, new Application.Context("hello", Map.of("greeting", "Bonjour")));
        start(router);
        assertEquals("Bonjour, World!", get("/app/hello").body());
    }

    // docs/configuration.md; docs/tls.md (compiled only: fixed ports, certificate files)

    static void configurationBuilder(Router router) throws IOException {
        LoomServer.builder()
                .listen("0.0.0.0", 8080)
                .configure(c -> c.threadsPerChild(128).keepAliveTimeout(Duration.ofSeconds(10)))
                .handler(router)
                .start();
    }

    static void tlsBuilder(Router router) throws IOException {
        LoomServer.builder()
                .listen("0.0.0.0", 8080)
                .https("0.0.0.0", 8443)
                .tls(t -> t.certificateFile(Path.of("chain.pem")).keyFile(Path.of("key.pem")))
                .handler(router)
                .start();
    }

    // docs/configuration-site.md, "Compression on the fly"

    @Test
    void compressionFilterCodesAConfiguredType() throws Exception {
        Router router = new Router().get("/data", (req, res) ->
                res.header("Content-Type", "application/json").send("[" + "1,".repeat(300) + "1]"));
        CompressionFilter compress = new CompressionFilter(CompressionSettings.builder()
                .types(ContentCoding.BROTLI, "application/json", "text/html")
                .types(ContentCoding.GZIP, "application/json", "text/html")
                .gzipLevel(6).brotliQuality(5).minimumSize(256).build());
        Handler aroundForm = compress.around(router);
        server = LoomServer.builder().listen("127.0.0.1", 0).handler(router.filter(compress)).start();
        HttpResponse<byte[]> r = client.send(HttpRequest.newBuilder(uri("/data")).header("Accept-Encoding", "gzip")
                .build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals("gzip", r.headers().firstValue("Content-Encoding").orElse(null));
        assertTrue(aroundForm != null);
    }

    // docs/observability.md, the status page, metrics and tracing

    @Test
    void statusPageAndMetrics() throws Exception {
        LoomServer.Builder builder = LoomServer.builder();
        Router router = new Router().get("/server-status", new StatusHandler(builder.stats()));
        PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        router.get("/metrics", new MetricsHandler(prometheus));
        prometheus.config().meterFilter(new MeterFilter() {
            @Override
            public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
                return id.getName().equals("loom.http.requests")
                        ? DistributionStatisticConfig.builder().percentilesHistogram(true).build().merge(config)
                        : config;
            }
        });
        builder.listen("127.0.0.1", 0).feature(new MetricsFeature(prometheus));
        LoomServer server = builder.handler(router).start();
        this.server = server;
        assertTrue(get("/server-status?auto").body().contains("BusyWorkers"));
        get("/server-status?auto"); // a request counted before the scrape
        // The request is counted as its exchange completes, which may follow the client's read of
        // the answer: scrape until it shows (a few tries), not once.
        long deadline = System.nanoTime() + 10_000_000_000L;
        String metrics = get("/metrics").body();
        while (!metrics.contains("loom_http_requests_seconds_bucket") && System.nanoTime() - deadline < 0) {
            Thread.onSpinWait();
            metrics = get("/metrics").body();
        }
        assertTrue(metrics.contains("loom_http_requests_seconds_bucket"), "the histogram is on");
    }

    /** The observability.md form of the metrics example; compiled only (the port is the default). */
    static void metricsExample() throws IOException {
        PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        Router router = new Router().get("/metrics", new MetricsHandler(prometheus));
        LoomServer.builder().feature(new MetricsFeature(prometheus)).handler(router).start();
    }

    /** Compiled only: a tracer needs an OpenTelemetry SDK set up around it. */
    static void tracingExample(io.opentelemetry.api.trace.Tracer otelTracer, Router router) throws IOException {
        OtelCurrentTraceContext current = new OtelCurrentTraceContext();
        OtelTracer tracer = new OtelTracer(otelTracer, current, event -> { },
                new OtelBaggageManager(current, List.of(), List.of()));
        OtelPropagator propagator = new OtelPropagator(
                ContextPropagators.create(W3CTraceContextPropagator.getInstance()), otelTracer);
        ObservationRegistry registry = ObservationRegistry.create();
        registry.observationConfig().observationHandler(new ObservationHandler.FirstMatchingCompositeObservationHandler(
                new PropagatingSenderTracingObservationHandler<>(tracer, propagator),
                new PropagatingReceiverTracingObservationHandler<>(tracer, propagator),
                new DefaultTracingObservationHandler(tracer)));
        LoomServer server = LoomServer.builder().feature(new TracingFeature(registry)).handler(router).start();
        server.close();
    }

    // docs/streaming.md

    @Test
    void suspendedResponseAnsweredFromAnotherThread() throws Exception {
        Router router = new Router();
        String json = "{\"n\":1}";
        Queue<SuspendedResponse> waiting = new ConcurrentLinkedQueue<>();

        router.get("/updates", (req, res) -> {
            SuspendedResponse later = res.suspend();          // SuspendTimeout (60 s) applies
            later.onTimeout(() -> later.status(204).complete()); // "nothing new": the client polls again
            waiting.add(later);
        });                                                   // returns: slot and thread are free
        start(router);
        CompletableFuture<HttpResponse<String>> pending = client.sendAsync(HttpRequest.newBuilder(uri("/updates"))
                .build(), HttpResponse.BodyHandlers.ofString());
        while (waiting.isEmpty()) {
            Thread.sleep(5);
        }

        // any thread, later:
        for (SuspendedResponse r; (r = waiting.poll()) != null; ) {
            r.header("Content-Type", "application/json").send(json);
        }
        assertEquals(json, pending.get(10, TimeUnit.SECONDS).body());
    }

    @Test
    void earlyHintsThenThePage() throws Exception {
        Router router = new Router();
        router.get("/", (req, res) -> {
            res.sendInterim(103, new Headers().add("Link", "</app.css>; rel=preload; as=style"));
            res.header("Content-Type", "text/html").send(renderPage()); // the slow part
        });
        start(router);
        HttpResponse<String> r = get("/");
        assertEquals(200, r.statusCode());
        assertEquals(renderPage(), r.body());
    }

    private static String renderPage() {
        return "<!doctype html><title>page</title>";
    }

    @Test
    void eventStreamBroadcast() throws Exception {
        Router router = new Router();
        List<EventStream> subscribers = new CopyOnWriteArrayList<>();
        String json = "{\"price\":1}";
        long seq = 1;
        router.get("/events", (req, res) -> {
            EventStream events = res.eventStream();   // head sent now: 200 text/event-stream
            long from = events.lastEventId() == null ? 0 : Long.parseLong(events.lastEventId()) + 1;
            subscribers.add(events);
            events.closed().thenRun(() -> subscribers.remove(events));
            assertEquals(0, from);
        });
        start(router);
        HttpResponse<InputStream> r = client.send(HttpRequest.newBuilder(uri("/events")).build(),
                HttpResponse.BodyHandlers.ofInputStream());
        while (subscribers.isEmpty()) {
            Thread.sleep(5);
        }

        // a broadcaster thread:
        for (EventStream s : subscribers) {
            if (!s.send(ServerSentEvent.data(json).id(Long.toString(seq)).name("price"))) {
                // full: this client reads too slowly. Skip it (it catches up with Last-Event-ID),
                // wait with s.whenWritable(), or s.close().
                s.close();
            }
        }
        Set<String> event = new HashSet<>();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(r.body(), StandardCharsets.UTF_8))) {
            for (String line; !(line = in.readLine()).isEmpty(); ) {
                event.add(line);
            }
        }
        assertEquals(Set.of("id: 1", "event: price", "data: " + json), event);
    }

    // docs/websocket.md

    /** The example's application objects. */
    private final Database database = text -> "found " + text;
    private final Rooms rooms = s -> { };

    interface Database {
        String lookUp(String key) throws Exception;
    }

    interface Rooms {
        void leave(WebSocketSession s);
    }

    @Test
    void webSocketChatRoute() throws Exception {
        Router router = new Router()
                .get("/", (req, res) -> res.send("hello"))
                .websocket("/chat/{room}", new WebSocketHandler() {
                    @Override
                    public void onOpen(WebSocketSession s) {
                        s.attachment(s.pathParam("room"));          // per-socket state
                    }

                    @Override
                    public void onText(WebSocketSession s, String text) throws Exception {
                        String answer = database.lookUp(text);      // may block: this runs on a worker
                        s.sendText(answer);
                    }

                    @Override
                    public void onClose(WebSocketSession s, int code, String reason) {
                        rooms.leave(s);
                    }
                });
        start(router);
        assertEquals("found x", webSocketAnswer("/chat/lobby", "x"));
    }

    // docs/api.md, "Trailers", "gRPC" and "TLS details"

    static Router trailersRouter() {
        Router router = new Router()
                .post("/upload", (req, res) -> {
                    byte[] body = req.bodyBytes();                          // read to its end: the trailers are in
                    String checksum = req.trailers().first("X-Checksum");   // null when the client sent none
                    res.send(body.length + " bytes, checksum " + checksum);
                })
                .get("/report", (req, res) -> {
                    MessageDigest sha = MessageDigest.getInstance("SHA-256");
                    res.header("Trailer", "X-Sha256")                       // announced: optional, the handler's choice
                            .trailers(() -> new Headers().add("X-Sha256", HexFormat.of().formatHex(sha.digest())));
                    try (OutputStream out = res.outputStream()) {
                        for (String line : List.of("first\n", "second\n")) {
                            byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
                            sha.update(bytes);
                            out.write(bytes);
                        }
                    }                                                       // closed: the supplier runs, the trailers follow
                });
        return router;
    }

    @Test
    void trailersExampleSendsAndReadsTrailers() throws Exception {
        start(trailersRouter());
        try (RawHttp c = new RawHttp(server.port())) {
            RawHttp.Response r = c.send("GET /report HTTP/1.1\r\nHost: x\r\n\r\n").read();
            assertEquals("first\nsecond\n", r.text());
            assertEquals(HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest("first\nsecond\n".getBytes(StandardCharsets.UTF_8))), c.trailers().get("x-sha256"));
            r = c.send("POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "3\r\nabc\r\n0\r\nX-Checksum: 42\r\n\r\n").read();
            assertEquals("3 bytes, checksum 42", r.text());
        }
    }

    /** Compiled only here; GrpcOverH2cTest (server-h2) calls such a handler with grpc-java's client. */
    static Router grpcRouter() {
        Router router = new Router()
                .post("/helloworld.Greeter/SayHello", (req, res) -> {
                    DataInputStream in = new DataInputStream(req.body());
                    in.readUnsignedByte();                                  // compressed flag: 0
                    byte[] request = in.readNBytes(in.readInt());           // one length-prefixed message
                    byte[] reply = greeter.sayHello(request);               // protobuf bytes in, protobuf bytes out
                    res.header("content-type", "application/grpc")
                            .trailers(() -> new Headers().add("grpc-status", "0"));
                    try (DataOutputStream out = new DataOutputStream(res.outputStream())) {
                        out.writeByte(0);
                        out.writeInt(reply.length);
                        out.write(reply);
                    }
                });
        return router;
    }

    /** The gRPC example's service, as the application would have it. */
    interface Greeter {
        byte[] sayHello(byte[] request);
    }

    private static final Greeter greeter = request -> request;

    /** Compiled only: it binds 8443 and needs key files. */
    static LoomServer clientCertificates() throws IOException {
        return LoomServer.builder().https("0.0.0.0", 8443)
                .tls(t -> t.certificateFile(Path.of("server.p12")).password("changeit")
                        .verifyClient(TlsSettings.VerifyClient.REQUIRE).caCertificateFile(Path.of("clients-ca.pem")))
                .handler((req, res) -> {
                    TlsInfo tls = req.tls().orElseThrow();
                    X509Certificate client = tls.peerCertificate();         // verified against clients-ca.pem
                    res.send("hello " + client.getSubjectX500Principal().getName() + " over " + tls.protocol());
                })
                .start();
    }

    // docs/api.md, "Typed parameters and content negotiation", "CORS", "Static files"

    /** The example's application object. */
    private final Orders orders = (id, limit, type) -> type + " " + id + " " + limit;

    interface Orders {
        String render(long id, Integer limit, String type);
    }

    static Router apiToolkit(Router router, Orders orders) {
        router.get("/orders/{id}", (req, res) -> {
            long id = req.pathParam("id", long.class);                  // /orders/abc: 400 (LM2760)
            Integer limit = req.queryParam("limit", Integer.class);     // null when absent
            String type = req.negotiateType("application/json", "text/csv");   // 406 when neither is accepted
            res.header("Content-Type", type).send(orders.render(id, limit, type));
        });
        Cors cors = Cors.builder()
                .allowOrigins("https://app.example.com", "https://*.example.com")
                .allowMethods("GET", "POST", "PUT", "DELETE")
                .allowHeaders("Content-Type", "Authorization")
                .exposeHeaders("Location")
                .allowCredentials(true)
                .maxAge(Duration.ofMinutes(10))
                .build();
        router.filter(cors);
        return router;
    }

    /** Compiled only: it needs the directories. */
    static Router apiStaticFiles(Router router) {
        router.get("/assets/*", StaticFiles.from(Path.of("web/assets")))
                .get("/*", StaticFiles.builder(Path.of("web/public"))
                        .cacheControl("no-cache")                     // revalidate by ETag every time
                        .mimeType("webmanifest", "application/manifest+json")
                        .build());
        return router;
    }

    @Test
    void apiToolkitAnswers() throws Exception {
        start(apiToolkit(new Router(), orders));
        assertEquals("application/json 7 null", get("/orders/7").body());
        HttpResponse<String> csv = client.send(HttpRequest.newBuilder(uri("/orders/7?limit=2"))
                .header("Accept", "text/csv").header("Origin", "https://shop.example.com").build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals("text/csv 7 2", csv.body());
        assertEquals("https://shop.example.com", csv.headers().firstValue("Access-Control-Allow-Origin").orElseThrow());
        assertEquals(400, get("/orders/abc").statusCode());
    }

    // docs/api.md, "JSON, problem details and cookies" (loom-mpm-jackson is a test dependency here)

    record Item(String name, int quantity) { }
    record Receipt(int pieces) { }

    /** A type token: the type argument of its anonymous subclass. */
    abstract static class TypeOf<T> {
        java.lang.reflect.Type type() {
            return ((java.lang.reflect.ParameterizedType) getClass().getGenericSuperclass()).getActualTypeArguments()[0];
        }
    }

    static Router jsonAndCookiesRouter() {
        return new Router()
                .post("/orders", (req, res) -> {
                    List<Item> items = req.json(new TypeOf<List<Item>>() { }.type());   // 400 problem if it does not fit
                    res.status(201).json(new Receipt(items.stream().mapToInt(Item::quantity).sum()));
                })
                .get("/orders/{id}", (req, res) -> {
                    throw HttpException.problem(Problem.of(404, "no order " + req.pathParam("id")), "LM0000 no such order");
                })
                .post("/login", (req, res) -> {
                    res.cookie(SetCookie.builder("sid", "opaque-token").path("/").httpOnly(true)
                            .sameSite(SetCookie.SameSite.LAX).maxAge(Duration.ofHours(8)).build());
                    res.send("welcome");
                })
                .get("/me", (req, res) -> res.send("sid " + req.cookie("sid")));
    }

    @Test
    void jsonAndCookiesRouterAnswers() throws Exception {
        start(jsonAndCookiesRouter());
        HttpResponse<String> created = client.send(HttpRequest.newBuilder(uri("/orders"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("[{\"name\":\"pen\",\"quantity\":2},{\"name\":\"pad\",\"quantity\":3}]"))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(201, created.statusCode());
        assertEquals("{\"pieces\":5}", created.body());
        HttpResponse<String> missing = get("/orders/7");
        assertEquals(404, missing.statusCode());
        assertEquals("application/problem+json", missing.headers().firstValue("Content-Type").orElseThrow());
        assertEquals("{\"type\":\"about:blank\",\"title\":\"Not Found\",\"status\":404,\"detail\":\"no order 7\"}",
                missing.body());
        HttpResponse<String> login = client.send(HttpRequest.newBuilder(uri("/login"))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals("sid=opaque-token; Max-Age=28800; Path=/; HttpOnly; SameSite=Lax",
                login.headers().firstValue("Set-Cookie").orElseThrow());
        assertEquals("sid opaque-token", client.send(HttpRequest.newBuilder(uri("/me")).header("Cookie", "sid=opaque-token")
                .build(), HttpResponse.BodyHandlers.ofString()).body());
    }

    // docs/api.md, "Forms and file uploads"

    static Router formsAndUploads(Path uploads) {
        return new Router()
                .filter((req, res, next) -> {
                    req.attributes().put("user", "alice");    // handed to the handlers after this filter
                    next.handle(req, res);
                })
                .post("/login", (req, res) -> {
                    FormData form = req.form();               // read once, then cached in attributes()
                    res.send("hello " + form.first("name") + " from " + req.attributes().get("user"));
                })
                .post("/upload", (req, res) -> {
                    StringBuilder out = new StringBuilder();
                    MultipartReader parts = req.multipart();  // streaming: one part at a time, nothing held
                    for (Part part; (part = parts.next()) != null; ) {
                        if (part.filename() == null) {
                            out.append(part.name()).append('=').append(part.text()).append('\n');
                        } else {                              // the client's file name is never a path
                            long size = part.saveTo(uploads.resolve(UUID.randomUUID() + ".upload"));
                            out.append(part.name()).append(": ").append(size).append(" bytes\n");
                        }
                    }
                    res.send(out.toString());
                })
                .post("/attachments", (req, res) -> {
                    List<Part> stored = req.multipart(MultipartLimits.DEFAULTS.withMaxPartSize(100 << 20)
                            .withSpoolDirectory(uploads)).readAll();  // any order, read again; big ones on disk
                    res.send(stored.size() + " parts");
                });
    }

    @Test
    void formsAndUploadsAnswer(@TempDir Path uploads) throws Exception {
        start(formsAndUploads(uploads));
        HttpResponse<String> login = client.send(HttpRequest.newBuilder(uri("/login"))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("name=Ada+L")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals("hello Ada L from alice", login.body());
        String b = "XyZ";
        String body = "--" + b + "\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nHi\r\n--" + b
                + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"../../etc/passwd\"\r\n\r\n12345\r\n--"
                + b + "--\r\n";
        for (String path : new String[] {"/upload", "/attachments"}) {
            HttpResponse<String> r = client.send(HttpRequest.newBuilder(uri(path))
                    .header("Content-Type", "multipart/form-data; boundary=" + b)
                    .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(path.equals("/upload") ? "title=Hi\nfile: 5 bytes\n" : "2 parts", r.body());
        }
        try (Stream<Path> files = Files.list(uploads)) {
            assertEquals(1, files.count(), "the saved upload; nothing left of the stored parts");
        }
    }

    private void start(Router router) throws IOException {
        server = LoomServer.builder().listen("127.0.0.1", 0).handler(router).start();
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.port() + path);
    }

    private HttpResponse<String> get(String path) throws Exception {
        return client.send(HttpRequest.newBuilder(uri(path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Opens a WebSocket at {@code path}, sends {@code text}, returns the first text message back. */
    private String webSocketAnswer(String path, String text) throws Exception {
        CompletableFuture<String> answer = new CompletableFuture<>();
        WebSocket ws = client.newWebSocketBuilder()
                .buildAsync(URI.create("ws://127.0.0.1:" + server.port() + path), new WebSocket.Listener() {
                    @Override
                    public CompletionStage<?> onText(WebSocket w, CharSequence data, boolean last) {
                        answer.complete(data.toString());
                        return null;
                    }
                }).get(10, TimeUnit.SECONDS);
        ws.sendText(text, true);
        String got = answer.get(10, TimeUnit.SECONDS);
        ws.abort();
        return got;
    }
}
