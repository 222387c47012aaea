package org.loommpm.http2.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.api.Router;
import org.loommpm.metrics.MetricsFeature;
import org.loommpm.proxy.ProxyHandler;
import org.loommpm.server.LoomServer;
import org.loommpm.testsupport.EchoSocket;
import org.loommpm.testsupport.TestCertificates;

/**
 * Every meter a server registers once it has used each of its protocols (TLS, HTTP/2, a
 * WebSocket, a proxy tunnel, a suspended exchange and an event stream): name, tags, type and
 * description, compared with the documented catalogue (docs/operations.md) as it stands, so a
 * change to how the counts are kept cannot rename, retag or redescribe a meter unnoticed.
 */
class MeterCatalogueTest {
    private static final String EXPECTED = """
            loom.admission.bound{child=1,generation=1} GAUGE Open connections at which admission control stops accepting (OpenConnectionsPerChild)
            loom.admission.open{child=1,generation=1} GAUGE 1 while admission control lets the listener accept
            loom.admission.transitions{child=1,generation=1} COUNTER Admission control state changes (on to off, off to on)
            loom.child.accepting{child=1,generation=1} GAUGE 1 while the child takes new connections (admission open, not draining)
            loom.child.connections.open{child=1,generation=1} GAUGE Connections open in the child
            loom.child.draining{child=1,generation=1} GAUGE 1 once the child has stopped accepting for good (retiring, restart, stop)
            loom.children{} GAUGE Children alive (running or draining)
            loom.connections.accepted{} COUNTER Connections accepted
            loom.connections.closed{reason=abort} COUNTER Connections ended, by reason (normal, timeout, error, abort)
            loom.connections.closed{reason=error} COUNTER Connections ended, by reason (normal, timeout, error, abort)
            loom.connections.closed{reason=normal} COUNTER Connections ended, by reason (normal, timeout, error, abort)
            loom.connections.closed{reason=timeout} COUNTER Connections ended, by reason (normal, timeout, error, abort)
            loom.connections.detached{} GAUGE Connections detached (no worker, thread or buffer): suspended exchanges, event streams
            loom.connections.keepalive{} GAUGE Connections parked in keep-alive (idle: no worker, thread or buffer)
            loom.connections.lingering{} GAUGE Connections in a lingering close
            loom.connections.open{} GAUGE Connections open
            loom.eventstreams.open{} GAUGE Server-Sent Events streams open
            loom.eventstreams.total{} COUNTER Server-Sent Events streams started
            loom.generation{} GAUGE Current generation (1 at start, +1 per graceful restart)
            loom.http.received{protocol=HTTP/1.1} COUNTER Request bytes read: heads and bodies as framed on the wire
            loom.http.received{protocol=HTTP/2} COUNTER Request bytes read: heads and bodies as framed on the wire
            loom.http.requests{method=GET,protocol=HTTP/1.1,status=1xx} TIMER Completed HTTP exchanges, from the first byte of the request head to the end of the response
            loom.http.requests{method=GET,protocol=HTTP/2,status=2xx} TIMER Completed HTTP exchanges, from the first byte of the request head to the end of the response
            loom.http.requests{method=GET,protocol=HTTP/2,status=5xx} TIMER Completed HTTP exchanges, from the first byte of the request head to the end of the response
            loom.http.sent{protocol=HTTP/1.1} COUNTER Response bytes written: status lines, headers and bodies
            loom.http.sent{protocol=HTTP/2} COUNTER Response bytes written: status lines, headers and bodies
            loom.http2.connections{} COUNTER HTTP/2 connections started (prior knowledge, Upgrade, ALPN)
            loom.http2.goaway{direction=received} COUNTER HTTP/2 GOAWAY frames by direction (sent: stop, idle timeout, error)
            loom.http2.goaway{direction=sent} COUNTER HTTP/2 GOAWAY frames by direction (sent: stop, idle timeout, error)
            loom.http2.guards.tripped{} COUNTER HTTP/2 connections ended by an abuse guard (ENHANCE_YOUR_CALM)
            loom.http2.streams.completed{} COUNTER HTTP/2 responses written to their last frame
            loom.http2.streams.refused{} COUNTER HTTP/2 streams refused by H2MaxConcurrentStreams
            loom.http2.streams.reset{} COUNTER HTTP/2 streams the client reset (RST_STREAM)
            loom.http2.streams.stalled{} COUNTER HTTP/2 streams reset after H2StallTimeout without flow-control window
            loom.http2.streams.started{} COUNTER HTTP/2 streams whose handler started
            loom.input.budget.high.water{child=1,generation=1} GAUGE Most bytes the child held for its clients at once
            loom.input.budget.max{child=1,generation=1} GAUGE Bytes clients may make the child hold at once (InputBudget)
            loom.input.budget.refusals{child=1,consumer=header-block,generation=1} COUNTER Reservations the input budget refused (the client was answered 1009, 413, RST_STREAM or GOAWAY)
            loom.input.budget.refusals{child=1,consumer=request-body,generation=1} COUNTER Reservations the input budget refused (the client was answered 1009, 413, RST_STREAM or GOAWAY)
            loom.input.budget.refusals{child=1,consumer=stream-buffer,generation=1} COUNTER Reservations the input budget refused (the client was answered 1009, 413, RST_STREAM or GOAWAY)
            loom.input.budget.refusals{child=1,consumer=websocket,generation=1} COUNTER Reservations the input budget refused (the client was answered 1009, 413, RST_STREAM or GOAWAY)
            loom.input.budget.used{child=1,generation=1} GAUGE Bytes clients make the child hold now (InputBudget)
            loom.poller.dispatches{child=1,generation=1,poller=0} COUNTER Connections dispatched to workers
            loom.poller.inline.requests{child=1,generation=1,poller=0} COUNTER Requests served on the poller (non-blocking handlers)
            loom.poller.keepalive{child=1,generation=1,poller=0} GAUGE Connections parked in keep-alive on this poller
            loom.poller.timers.fired{child=1,generation=1,poller=0} COUNTER Deadlines that expired (keep-alive, head, Timeout, linger)
            loom.poller.wakeups{child=1,generation=1,poller=0} COUNTER Poller loop iterations (select returns)
            loom.proxy.tunnels.opened{} COUNTER Proxied upgrades switched to a tunnel (the backend answered 101)
            loom.proxy.tunnels.open{} GAUGE Proxied upgrades (WebSocket...) relayed now; an idle one holds no worker
            loom.recycle.drops{child=1,generation=1,poller=0} COUNTER Contexts left to the GC because the recycle list was full
            loom.recycle.hits{child=1,generation=1,poller=0} COUNTER Contexts reused from the recycle list
            loom.recycle.misses{child=1,generation=1,poller=0} COUNTER Contexts allocated because the recycle list was empty
            loom.recycle.size{child=1,generation=1,poller=0} GAUGE Connection contexts waiting in the recycle list
            loom.suspended.exchanges{} GAUGE Suspended exchanges waiting for their answer (HTTP/1.1 and HTTP/2)
            loom.suspended.timeouts{} COUNTER Suspended exchanges that passed their deadline
            loom.suspended.total{} COUNTER Exchanges suspended
            loom.tls.handshakes.dropped{reason=client-charge} COUNTER New TLS connections closed before their handshake (queue-timeout: TlsHandshakeQueueTimeout; client-charge: the address over its ClientChargeRate)
            loom.tls.handshakes.dropped{reason=queue-timeout} COUNTER New TLS connections closed before their handshake (queue-timeout: TlsHandshakeQueueTimeout; client-charge: the address over its ClientChargeRate)
            loom.tls.handshakes{outcome=completed} COUNTER TLS handshakes by outcome (completed, failed, plaintext: an HTTP request on a TLS port)
            loom.tls.handshakes{outcome=failed} COUNTER TLS handshakes by outcome (completed, failed, plaintext: an HTTP request on a TLS port)
            loom.tls.handshakes{outcome=plaintext} COUNTER TLS handshakes by outcome (completed, failed, plaintext: an HTTP request on a TLS port)
            loom.websocket.inflate.refused{} COUNTER WebSockets closed 1008 for what they made the server inflate (WebSocketMaxInflateRatio, ClientChargeRate)
            loom.websocket.messages{direction=received} COUNTER WebSocket messages by direction (received: whole messages from clients; sent: queued)
            loom.websocket.messages{direction=sent} COUNTER WebSocket messages by direction (received: whole messages from clients; sent: queued)
            loom.websocket.opened{} COUNTER WebSockets opened (handshakes accepted)
            loom.websocket.open{} GAUGE WebSockets open (an idle one holds no worker, thread or buffer)
            loom.workers.active{child=1,generation=1} GAUGE Worker slots busy (running or parked on I/O)
            loom.workers.idle{child=1,generation=1} GAUGE Worker slots free
            loom.workers.max{child=1,generation=1} GAUGE Worker slots (ThreadsPerChild)
            loom.workers.pending.newcomers{child=1,generation=1} GAUGE Pending tasks that are a connection's first work (the newcomer lane)
            loom.workers.pending{child=1,generation=1} GAUGE Dispatched tasks waiting for a worker slot
            loom.workers.slotless{child=1,generation=1} GAUGE Tasks waiting on a client without a worker slot (MaxSlotlessWaits)
            """;

    @TempDir
    Path dir;

    @Test
    void everyProtocolsMetersAsDocumented() throws Exception {
        TestCertificates keys = TestCertificates.create(dir);
        LinkedBlockingQueue<String> backendEvents = new LinkedBlockingQueue<>();
        LoomServer backend = LoomServer.builder().listen("127.0.0.1", 0)
                .handler(new Router().websocket("/echo", new EchoSocket(backendEvents))).start();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        LoomServer server = LoomServer.builder()
                .listen("127.0.0.1", 0)
                .https("127.0.0.1", 0)
                .tls(t -> t.certificateFile(keys.p12).password(TestCertificates.PASSWORD))
                .configure(c -> c.startServers(1).pollersPerChild(1))
                .feature(new MetricsFeature(registry))
                .handler(new Router()
                        .get("/hello", (req, res) -> res.send("hi"))
                        .get("/poll", (req, res) -> res.suspend(Duration.ofMillis(50)))
                        .get("/events", (req, res) -> res.eventStream().close())
                        .get("/tunnel", ProxyHandler.builder("/tunnel", "http://127.0.0.1:" + backend.port() + "/echo")
                                .upgrade("websocket").build())
                        .websocket("/ws", new EchoSocket(new LinkedBlockingQueue<>())))
                .start();
        int plain = server.addresses().get(0).getPort();
        int tls = server.addresses().get(1).getPort();
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2)
                .sslContext(TestCertificates.clientContext(keys.chainPem)).build();
        try {
            // TLS with h2 by ALPN: a stream, a suspended exchange that times out, an event stream.
            for (String path : List.of("/hello", "/poll", "/events")) {
                HttpResponse<String> r = client.send(HttpRequest.newBuilder(
                        URI.create("https://127.0.0.1:" + tls + path)).build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(HttpClient.Version.HTTP_2, r.version());
            }
            // h2c by prior knowledge, ended by the client's GOAWAY; a plaintext request and a
            // garbage ClientHello on the TLS port.
            ProtocolTraffic.h2cStreamThenGoaway(plain);
            ProtocolTraffic.plaintextAndGarbageHelloOnTls(tls);
            // A WebSocket served here, and one proxied to the backend through a tunnel.
            echo(plain, "/ws");
            echo(plain, "/tunnel");
            TestWait.until("sockets and tunnels ended", 10, () -> gauge(registry, "loom.websocket.open") == 0
                    && gauge(registry, "loom.proxy.tunnels.open") == 0);
            assertEquals(EXPECTED, catalogue(registry));
        } finally {
            client.close();
            server.close();
            backend.close();
        }
    }

    /** One text message there and back over a WebSocket to {@code path}, then a normal close. */
    private static void echo(int port, String path) throws Exception {
        LinkedBlockingQueue<String> got = new LinkedBlockingQueue<>();
        CompletableFuture<Void> closed = new CompletableFuture<>();
        try (HttpClient http = HttpClient.newHttpClient()) {
            WebSocket ws = http.newWebSocketBuilder().buildAsync(URI.create("ws://127.0.0.1:" + port + path),
                    new WebSocket.Listener() {
                        @Override
                        public CompletionStage<?> onText(WebSocket w, CharSequence data, boolean last) {
                            got.add(data.toString());
                            w.request(1);
                            return null;
                        }

                        @Override
                        public CompletionStage<?> onClose(WebSocket w, int code, String reason) {
                            closed.complete(null);
                            return null;
                        }
                    }).get(10, TimeUnit.SECONDS);
            ws.sendText("ping", true).get(10, TimeUnit.SECONDS);
            assertEquals("ping", got.poll(10, TimeUnit.SECONDS));
            ws.sendClose(WebSocket.NORMAL_CLOSURE, "").get(10, TimeUnit.SECONDS);
            closed.get(10, TimeUnit.SECONDS);
        }
    }

    private static double gauge(SimpleMeterRegistry registry, String name) {
        var g = registry.find(name).gauge();
        return g == null ? -1 : g.value();
    }

    /** One line per meter, sorted: name, tags, type, description. */
    private static String catalogue(SimpleMeterRegistry registry) {
        return registry.getMeters().stream().map(MeterCatalogueTest::line).sorted()
                .collect(Collectors.joining("\n", "", "\n"));
    }

    private static String line(Meter m) {
        Meter.Id id = m.getId();
        String tags = id.getTags().stream().map(t -> t.getKey() + "=" + t.getValue())
                .collect(Collectors.joining(",", "{", "}"));
        return id.getName() + tags + " " + id.getType() + " " + id.getDescription();
    }
}
