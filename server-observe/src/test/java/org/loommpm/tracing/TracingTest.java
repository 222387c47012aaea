package org.loommpm.tracing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingReceiverTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingSenderTracingObservationHandler;
import io.micrometer.tracing.otel.bridge.OtelBaggageManager;
import io.micrometer.tracing.otel.bridge.OtelCurrentTraceContext;
import io.micrometer.tracing.otel.bridge.OtelPropagator;
import io.micrometer.tracing.otel.bridge.OtelTracer;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.loommpm.api.Handler;
import org.loommpm.api.HttpException;
import org.loommpm.health.HealthFeature;
import org.loommpm.server.LoomServer;
import org.loommpm.api.Router;

/**
 * Tracing end to end with a real tracer: OpenTelemetry's SDK behind micrometer-tracing's bridge,
 * registered on the {@link ObservationRegistry} the builder is given, spans kept by the SDK's
 * in-memory exporter; requests from the JDK's HTTP client (HTTP/1.1).
 */
class TracingTest {
    private static final String TRACE_ID = "0af7651916cd43dd8448eb211c80319c";
    private static final String PARENT_ID = "b7ad6b7169203331";

    private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
    private SdkTracerProvider provider;
    private OtelTracer tracer;
    private ObservationRegistry registry;
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeEach
    void tracer() {
        provider = SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter)).build();
        io.opentelemetry.api.trace.Tracer otel = provider.get("loom-mpm-test");
        OtelCurrentTraceContext current = new OtelCurrentTraceContext();
        tracer = new OtelTracer(otel, current, event -> { }, new OtelBaggageManager(current, List.of(), List.of()));
        OtelPropagator propagator = new OtelPropagator(
                ContextPropagators.create(W3CTraceContextPropagator.getInstance()), otel);
        registry = ObservationRegistry.create();
        registry.observationConfig().observationHandler(new ObservationHandler.FirstMatchingCompositeObservationHandler(
                new PropagatingSenderTracingObservationHandler<>(tracer, propagator),
                new PropagatingReceiverTracingObservationHandler<>(tracer, propagator),
                new DefaultTracingObservationHandler(tracer)));
    }

    @AfterEach
    void close() {
        provider.close();
    }

    private LoomServer start(Handler handler) throws Exception {
        return LoomServer.builder().listen("127.0.0.1", 0).feature(new TracingFeature(registry)).feature(new HealthFeature("/health"))
                .handler(handler).start();
    }

    private HttpResponse<String> get(LoomServer server, String path, String traceparent) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .header("User-Agent", "tracing-test");
        if (traceparent != null) {
            b.header("traceparent", traceparent);
        }
        return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    /**
     * The one span the request made. The handler's {@code send} writes the response before the
     * observation stops, so the client may see the answer a moment before the span ends.
     */
    private SpanData onlySpan() throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (exporter.getFinishedSpanItems().isEmpty() && System.nanoTime() < end) {
            Thread.sleep(5);
        }
        List<SpanData> spans = exporter.getFinishedSpanItems();
        assertEquals(1, spans.size(), spans.toString());
        return spans.get(0);
    }

    private static String attr(SpanData span, String key) {
        return span.getAttributes().get(AttributeKey.stringKey(key));
    }

    @Test
    void aRequestWithTraceparentGetsAChildServerSpanWithHttpAttributes() throws Exception {
        AtomicReference<String> traceSeenByHandler = new AtomicReference<>();
        Router router = new Router().get("/users/{id}", (req, res) -> {
            traceSeenByHandler.set(tracer.currentSpan().context().traceId());
            res.send("user " + req.pathParam("id"));
        });
        try (LoomServer server = start(router)) {
            HttpResponse<String> r = get(server, "/users/42", "00-" + TRACE_ID + "-" + PARENT_ID + "-01");
            assertEquals(200, r.statusCode());
            assertEquals("user 42", r.body());
            SpanData span = onlySpan();
            assertEquals(TRACE_ID, span.getTraceId());
            assertEquals(PARENT_ID, span.getParentSpanId());
            assertTrue(span.getParentSpanContext().isRemote());
            assertEquals(TRACE_ID, traceSeenByHandler.get(), "the handler runs in the span's scope");
            assertEquals(SpanKind.SERVER, span.getKind());
            assertEquals("GET /users/{id}", span.getName());
            assertEquals("GET", attr(span, "http.request.method"));
            assertEquals("/users/{id}", attr(span, "http.route"));
            assertEquals("200", attr(span, "http.response.status_code"));
            assertEquals("http", attr(span, "url.scheme"));
            assertEquals("/users/42", attr(span, "url.path"));
            assertEquals("127.0.0.1", attr(span, "server.address"));
            assertEquals(Integer.toString(server.port()), attr(span, "server.port"));
            assertEquals("127.0.0.1", attr(span, "client.address"));
            assertEquals("1.1", attr(span, "network.protocol.version"));
            assertEquals("tracing-test", attr(span, "user_agent.original"));
            assertEquals("none", attr(span, "error.type"));
            assertNotEquals(StatusCode.ERROR, span.getStatus().getStatusCode());
        }
    }

    @Test
    void withoutTraceparentTheSpanIsARoot() throws Exception {
        try (LoomServer server = start(new Router().get("/a", (req, res) -> res.send("a")))) {
            assertEquals(200, get(server, "/a", null).statusCode());
            SpanData span = onlySpan();
            assertFalse(span.getParentSpanContext().isValid());
            assertNotEquals(TRACE_ID, span.getTraceId());
        }
    }

    @Test
    void aFailureIsTheSpansErrorWithTheStatusAnswered() throws Exception {
        Router router = new Router()
                .get("/boom", (req, res) -> {
                    throw new IllegalStateException("boom");
                })
                .get("/teapot", (req, res) -> {
                    throw new HttpException(418, "no coffee");
                });
        try (LoomServer server = start(router)) {
            assertEquals(500, get(server, "/boom", "00-" + TRACE_ID + "-" + PARENT_ID + "-01").statusCode());
            SpanData span = onlySpan();
            assertEquals(StatusCode.ERROR, span.getStatus().getStatusCode());
            assertEquals("500", attr(span, "http.response.status_code"));
            assertEquals(IllegalStateException.class.getName(), attr(span, "error.type"));
            exporter.reset();
            assertEquals(418, get(server, "/teapot", null).statusCode());
            assertEquals("418", attr(onlySpan(), "http.response.status_code"));
        }
    }

    @Test
    void unmatchedPathsAndOtherMethodsStayLowCardinality() throws Exception {
        try (LoomServer server = start(new Router().get("/a", (req, res) -> res.send("a")))) {
            assertEquals(404, get(server, "/nowhere/7", null).statusCode());
            SpanData span = onlySpan();
            assertEquals("GET", span.getName());
            assertEquals("UNKNOWN", attr(span, "http.route"));
            assertEquals("404", attr(span, "http.response.status_code"));
            exporter.reset();
            HttpResponse<String> r = client.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + server.port() + "/a")).method("BREW",
                    HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(405, r.statusCode());
            assertEquals("_OTHER", attr(onlySpan(), "http.request.method"));
        }
    }

    @Test
    void healthProbesAreNotTraced() throws Exception {
        try (LoomServer server = start(new Router())) {
            assertEquals(200, get(server, "/health/ready", null).statusCode());
            assertEquals(404, get(server, "/other", null).statusCode());
            assertEquals("/other", attr(onlySpan(), "url.path")); // the probe made none
        }
    }

    @Test
    void offMeansTheHandlerItself() {
        Handler h = (req, res) -> res.send("x");
        assertSame(h, ObservedHandler.wrap(null, h));
        assertSame(h, ObservedHandler.wrap(ObservationRegistry.NOOP, h));
        assertNotEquals(h, ObservedHandler.wrap(ObservationRegistry.create(), h));
    }

    @Test
    void protocolVersions() {
        assertEquals("2", ServerRequestConvention.version("HTTP/2.0"));
        assertEquals("2", ServerRequestConvention.version("HTTP/2"));
        assertEquals("1.1", ServerRequestConvention.version("HTTP/1.1"));
    }
}
