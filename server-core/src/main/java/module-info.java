/**
 * loom-mpm's engine, HTTP/1.1, TLS and the application API.
 *
 * <p>Applications use {@link org.loommpm.server} (the server and its builder),
 * {@link org.loommpm.api} (handlers, routers, filters; JSON bodies through the
 * {@link org.loommpm.json} codec SPI, cookies through {@link org.loommpm.cookie}),
 * {@link org.loommpm.form} and {@link org.loommpm.multipart} (form bodies and uploads),
 * {@link org.loommpm.websocket} (the
 * WebSocket API, served by module {@code org.loommpm.ws}) and {@link org.loommpm.config};
 * protocol implementations the {@link org.loommpm.spi}. Features plug in around it: HTTP/2
 * ({@code org.loommpm.h2}) and WebSocket ({@code org.loommpm.ws}) through
 * {@link java.util.ServiceLoader}, metrics, status, health and tracing ({@code org.loommpm.observe}),
 * compression ({@code org.loommpm.compress}) and the reverse proxy ({@code org.loommpm.proxy}) as
 * handlers and {@link org.loommpm.server.ServerFeature}s. Everything else is the implementation:
 * exported only to loom-mpm's own modules, which are built and released with this one.
 */
// "module": the qualified exports name modules compiled after this one.
@SuppressWarnings("module")
module org.loommpm.core {
    requires io.helidon.common.buffers;
    // GarbageCollectorMXBean: NonBlockingHandlerLimit tells a GC pause from a blocking handler.
    requires java.management;
    // UnixOperatingSystemMXBean: the file descriptor limit AdmissionSettings derives its bound from.
    requires jdk.management;

    exports org.loommpm.form;
    exports org.loommpm.multipart;
    exports org.loommpm.api;
    exports org.loommpm.config;
    exports org.loommpm.cookie;
    exports org.loommpm.json;
    exports org.loommpm.cors;
    exports org.loommpm.negotiation;
    exports org.loommpm.server;
    exports org.loommpm.spi;
    exports org.loommpm.staticfiles;
    exports org.loommpm.websocket;

    exports org.loommpm.engine to org.loommpm.observe, org.loommpm.cli;
    exports org.loommpm.http to org.loommpm.h2, org.loommpm.ws, org.loommpm.proxy, org.loommpm.observe,
            org.loommpm.cli;
    exports org.loommpm.http.syntax to org.loommpm.h2, org.loommpm.proxy, org.loommpm.cli;
    exports org.loommpm.protocol to org.loommpm.h2;
    exports org.loommpm.staticfiles.internal to org.loommpm.cli;
    exports org.loommpm.tls to org.loommpm.cli;

    // HTTP/2 is found on first need (protocol.Http2Lookup); server-h2 provides it.
    uses org.loommpm.protocol.Http2ProtocolProvider;
    // WebSocket routes are bound when a router freezes (api.Router); server-websocket provides it.
    uses org.loommpm.api.WebSocketBinding;
    // Request.json and Response.json (json.JsonCodecs); loom-mpm-jackson provides it.
    uses org.loommpm.json.JsonCodec;
}
