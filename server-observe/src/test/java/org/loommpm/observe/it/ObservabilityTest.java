package org.loommpm.observe.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.loommpm.config.AdmissionSettings;
import org.loommpm.metrics.MetricsFeature;
import org.loommpm.server.LoomServer;
import org.loommpm.api.Router;
import org.loommpm.config.ServerConfig;
import org.loommpm.engine.ChildStats;
import org.loommpm.metrics.MetricsHandler;
import org.loommpm.status.StatusHandler;
import org.loommpm.engine.EngineStats;
import org.loommpm.testsupport.TestServers;

/**
 * Known traffic against a server with ThreadsPerChild 4 and one poller, then the exact counts,
 * gauges and scoreboard letters in {@code ?auto}, {@code ?json} and the Prometheus exposition
 * (parsed strictly by {@link PrometheusText}).
 *
 * <p>Exactness needs quiescence: a request is counted when its handler returns, after the client
 * may already have its response, and a worker frees its slot after that. So between steps the
 * tests wait until no worker is active; then each new request runs alone and (the free-slot
 * stack being LIFO) always in slot 0.
 */
class ObservabilityTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final CountDownLatch release = new CountDownLatch(1);
    private final AtomicInteger blocked = new AtomicInteger();
    private LoomServer server;
    private PrometheusMeterRegistry prometheus;
    private StatusHandler status;

    private void start(boolean metrics, Consumer<ServerConfig.Builder> directives) throws Exception {
        LoomServer.Builder builder = LoomServer.builder().listen("127.0.0.1", 0)
                .configure(c -> c.threadsPerChild(4).pollersPerChild(1).gracefulShutdownTimeout(Duration.ofSeconds(5)))
                .configure(directives);
        status = new StatusHandler(builder.stats());
        Router router = new Router()
                .get("/hello", (req, res) -> res.send("Hello, World!"))
                .post("/echo", (req, res) -> res.send(req.bodyString()))
                .get("/block/{rest...}", (req, res) -> {
                    blocked.incrementAndGet();
                    release.await();
                    res.send("released");
                })
                .get("/broken", (req, res) -> {
                    res.outputStream().write(new byte[100_000]); // commits a chunked response
                    throw new IllegalStateException("fails after the head went out");
                })
                // Mounted blocking, so that the page's own requests take a worker slot as the exact
                // counts below expect (dispatches, recycling, its W); the page itself is non-blocking
                // and served by the poller where it is mounted as it is (HealthTest).
                .get("/server-status", (req, res) -> status.handle(req, res));
        if (metrics) {
            prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
            router.get("/metrics", new MetricsHandler(prometheus));
            builder.feature(new MetricsFeature(prometheus));
        }
        server = builder.handler(router).start();
    }

    @AfterEach
    void stop() {
        release.countDown();
        if (server != null) {
            server.close();
        }
    }

    private ChildStats child() {
        return EngineStats.of(server.stats()).children().get(0);
    }

    private void quiesce() throws InterruptedException {
        TestServers.waitFor("no active worker", 10, () -> child().activeWorkers() == 0
                && child().scoreboard().render().chars().allMatch(ch -> ch == '_'));
    }

    /** The {@code ?auto} text as a map (first line under "name"; LoomChild lines in order under "LoomChild#i"). */
    static Map<String, String> auto(String text) {
        Map<String, String> m = new LinkedHashMap<>();
        String[] lines = text.split("\n");
        m.put("name", lines[0]);
        int child = 0;
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(": ");
            assertTrue(colon > 0, "Key: value line: " + lines[i]);
            String key = lines[i].substring(0, colon);
            if (key.equals("LoomChild")) {
                key += "#" + child++;
            }
            assertEquals(null, m.put(key, lines[i].substring(colon + 2)), "duplicate key " + key);
        }
        return m;
    }

    @Test
    void knownTrafficGivesExactCountsInAutoJsonAndPrometheus() throws Exception {
        start(true, c -> { });
        long responseBytes = 0;
        long requestBytes = 0;
        try (CountingClient a = new CountingClient(server.port())) {
            for (int i = 0; i < 5; i++) {
                assertEquals("Hello, World!", a.get("/hello").body());
                quiesce();
            }
            assertEquals("0123456789", a.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\n0123456789")
                    .read().body());
            quiesce();
            assertEquals(404, a.get("/missing").status());
            quiesce();
            responseBytes += a.received;
            requestBytes += a.sent;
        }
        // Each connection ends before the next starts, so one context serves them all in turn.
        TestServers.waitFor("a closed", 10, () -> server.stats().connectionsClosed() == 1);
        quiesce();
        try (CountingClient b = new CountingClient(server.port())) {
            assertEquals(200, b.send("GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").read().status());
            assertTrue(b.closedByServer());
            responseBytes += b.received;
            requestBytes += b.sent;
        }
        TestServers.waitFor("b closed", 10, () -> server.stats().connectionsClosed() == 2);
        quiesce();
        try (CountingClient c = new CountingClient(server.port())) {
            c.send("GARBAGE\r\n\r\n");
            assertEquals(400, c.read().status());
        }
        TestServers.waitFor("3 connections closed", 10, () -> server.stats().connectionsClosed() == 3);
        quiesce();

        try (CountingClient d = new CountingClient(server.port())) {
            CountingClient.Response autoPage = d.get("/server-status?auto");
            assertEquals("text/plain; charset=UTF-8", autoPage.header("Content-Type"));
            Map<String, String> auto = auto(autoPage.body());
            assertEquals("x", auto.get("name"));
            assertEquals("loom", auto.get("ServerMPM"));
            assertEquals("1", auto.get("ParentServerConfigGeneration"));
            assertEquals("8", auto.get("Total Accesses"), "5 hello + echo + 404 + hello with close; not the 400");
            assertEquals(Long.toString(responseBytes), auto.get("LoomTotalBytes"));
            assertEquals(Long.toString(responseBytes / 1024), auto.get("Total kBytes"));
            assertEquals("1", auto.get("BusyWorkers"), "this status request");
            assertEquals("3", auto.get("IdleWorkers"));
            assertEquals("0", auto.get("GracefulWorkers"));
            assertEquals("0", auto.get("LoomPendingWorkers"));
            assertEquals("W___", auto.get("Scoreboard"));
            assertEquals("1", auto.get("Processes"));
            assertEquals("0", auto.get("Stopping"));
            assertEquals("1", auto.get("ConnsTotal"));
            assertEquals("0", auto.get("ConnsAsyncKeepAlive"));
            assertEquals("4", auto.get("LoomConnsAccepted"));
            assertEquals("2", auto.get("LoomConnsClosedNormal"));
            assertEquals("0", auto.get("LoomConnsClosedTimeout"));
            assertEquals("1", auto.get("LoomConnsClosedError"));
            assertEquals("0", auto.get("LoomConnsClosedAbort"));
            assertEquals("0", auto.get("LoomAdmissionOff"));
            assertEquals("0", auto.get("LoomAdmissionTransitions"));
            // Dispatches: a 7 requests + its EOF, b 1, c 1, this one. One context, allocated by the
            // first dispatch and recycled by every later one.
            assertEquals("id=1 generation=1 state=ready accepting=1 admission=on transitions=0 bound="
                    + child().connectionBound() + " pausedms=0 conns=1 keepalive=0 "
                    + "accepted=4 closed=3 requests=8 bytes=" + responseBytes + " busy=1 idle=3 pending=0 newcomers=0 recycle=0 "
                    + "recyclehits=10 recyclemisses=1 scoreboard=W___", auto.get("LoomChild#0"));
            assertFalse(auto.containsKey("LoomChild#1"));
            responseBytes += autoPage.wireBytes();
            requestBytes += d.sent;
            quiesce();

            long sentBefore = d.sent;
            CountingClient.Response jsonPage = d.get("/server-status?json");
            assertEquals("application/json", jsonPage.header("Content-Type"));
            JsonNode json = JSON.readTree(jsonPage.body());
            assertEquals(9, json.at("/totals/accesses").asLong());
            assertEquals(responseBytes, json.at("/totals/bytes").asLong());
            assertEquals(1, json.at("/workers/busy").asInt());
            assertEquals(3, json.at("/workers/idle").asInt());
            assertEquals(0, json.at("/workers/pending").asInt());
            assertEquals("W___", json.at("/scoreboard").asText());
            assertEquals(1, json.at("/connections/open").asInt());
            assertEquals(4, json.at("/connections/accepted").asInt());
            assertEquals(2, json.at("/connections/closed/normal").asInt());
            assertEquals(1, json.at("/connections/closed/error").asInt());
            JsonNode c0 = json.at("/children/0");
            assertEquals(1, c0.at("/id").asInt());
            assertEquals("ready", c0.at("/state").asText());
            assertTrue(c0.at("/admission/open").asBoolean());
            assertEquals(9, c0.at("/requests").asInt());
            assertEquals(11, c0.at("/recycle/hits").asInt());
            assertEquals(1, c0.at("/recycle/misses").asInt());
            assertEquals(12, c0.at("/pollers/0/dispatches").asInt());
            assertEquals(1, json.at("/requests").size());
            JsonNode cur = json.at("/requests/0");
            assertEquals("W", cur.at("/state").asText());
            assertEquals(0, cur.at("/slot").asInt());
            assertEquals("127.0.0.1", cur.at("/client").asText());
            assertEquals("x", cur.at("/vhost").asText());
            assertEquals("GET", cur.at("/method").asText());
            assertEquals("/server-status", cur.at("/path").asText());
            responseBytes += jsonPage.wireBytes();
            requestBytes += d.sent - sentBefore;
            quiesce();

            CountingClient.Response metrics = d.get("/metrics");
            assertEquals(MetricsHandler.PROMETHEUS_TEXT, metrics.header("Content-Type"));
            List<PrometheusText.Sample> p = PrometheusText.parse(metrics.body());
            String[] h11 = {"protocol", "HTTP/1.1"};
            assertEquals(8, PrometheusText.value(p, "loom_http_requests_seconds_count",
                    "protocol", "HTTP/1.1", "method", "GET", "status", "2xx"), "6 hello + 2 status pages");
            assertEquals(1, PrometheusText.value(p, "loom_http_requests_seconds_count",
                    "protocol", "HTTP/1.1", "method", "POST", "status", "2xx"));
            assertEquals(1, PrometheusText.value(p, "loom_http_requests_seconds_count",
                    "protocol", "HTTP/1.1", "method", "GET", "status", "4xx"));
            assertEquals(responseBytes, PrometheusText.value(p, "loom_http_sent_bytes_total", h11));
            assertEquals(requestBytes, PrometheusText.value(p, "loom_http_received_bytes_total", h11));
            assertEquals(1, PrometheusText.value(p, "loom_generation"));
            assertEquals(1, PrometheusText.value(p, "loom_children"));
            assertEquals(4, PrometheusText.value(p, "loom_connections_accepted_total"));
            assertEquals(2, PrometheusText.value(p, "loom_connections_closed_total", "reason", "normal"));
            assertEquals(0, PrometheusText.value(p, "loom_connections_closed_total", "reason", "timeout"));
            assertEquals(1, PrometheusText.value(p, "loom_connections_closed_total", "reason", "error"));
            assertEquals(0, PrometheusText.value(p, "loom_connections_closed_total", "reason", "abort"));
            assertEquals(1, PrometheusText.value(p, "loom_connections_open"));
            assertEquals(0, PrometheusText.value(p, "loom_connections_keepalive"));
            String[] c1 = {"child", "1", "generation", "1"};
            assertEquals(4, PrometheusText.value(p, "loom_workers_max", c1));
            assertEquals(1, PrometheusText.value(p, "loom_workers_active", c1));
            assertEquals(3, PrometheusText.value(p, "loom_workers_idle", c1));
            assertEquals(0, PrometheusText.value(p, "loom_workers_pending", c1));
            assertEquals(1, PrometheusText.value(p, "loom_admission_open", c1));
            assertEquals(0, PrometheusText.value(p, "loom_admission_transitions_total", c1));
            assertEquals(1, PrometheusText.value(p, "loom_child_accepting", c1));
            assertEquals(0, PrometheusText.value(p, "loom_child_draining", c1));
            assertEquals(1, PrometheusText.value(p, "loom_child_connections_open", c1));
            String[] p0 = {"child", "1", "generation", "1", "poller", "0"};
            assertEquals(13, PrometheusText.value(p, "loom_poller_dispatches_total", p0));
            assertEquals(0, PrometheusText.value(p, "loom_poller_inline_requests_total", p0), "no handler is non-blocking");
            assertEquals(12, PrometheusText.value(p, "loom_recycle_hits_total", p0));
            assertEquals(1, PrometheusText.value(p, "loom_recycle_misses_total", p0));
            assertEquals(0, PrometheusText.value(p, "loom_recycle_drops_total", p0));
            assertEquals(0, PrometheusText.value(p, "loom_recycle_size", p0));
            assertEquals(0, PrometheusText.value(p, "loom_poller_keepalive", p0));
            assertTrue(PrometheusText.value(p, "loom_poller_wakeups_total", p0) > 0);
        }
    }

    @Test
    void saturationTurnsAdmissionOffAndBackOnWithExactCounts() throws Exception {
        // The bound at five connections: the keep-alive one and the four that block every slot.
        start(true, c -> c.admission(new AdmissionSettings(5)));
        try (CountingClient e = new CountingClient(server.port())) {
            assertEquals(200, e.get("/hello").status());
            quiesce();
            List<CountingClient> slow = new ArrayList<>();
            try {
                for (int i = 0; i < 4; i++) {
                    CountingClient s = new CountingClient(server.port());
                    slow.add(s);
                    s.send("GET /block/" + i + " HTTP/1.1\r\nHost: slow" + i + "\r\n\r\n");
                }
                TestServers.waitFor("4 handlers blocked", 10, () -> blocked.get() == 4);
                TestServers.waitFor("admission off", 10, () -> !child().admissionOpen());
                // A keep-alive connection already accepted sends its next request: no slot, so it waits.
                e.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n");
                TestServers.waitFor("one pending task", 10, () -> child().pendingWorkers() == 1);

                Map<String, String> auto = auto(FakeExchange.get(status, "/server-status?auto"));
                assertEquals("1", auto.get("Total Accesses"));
                assertEquals("4", auto.get("BusyWorkers"));
                assertEquals("0", auto.get("IdleWorkers"));
                assertEquals("1", auto.get("LoomPendingWorkers"));
                assertEquals("WWWW", auto.get("Scoreboard"));
                assertEquals("5", auto.get("ConnsTotal"));
                assertEquals("0", auto.get("ConnsAsyncKeepAlive"));
                assertEquals("5", auto.get("LoomConnsAccepted"));
                assertEquals("1", auto.get("LoomAdmissionOff"));
                assertEquals("1", auto.get("LoomAdmissionTransitions"));
                assertTrue(auto.get("LoomChild#0").startsWith("id=1 generation=1 state=ready accepting=0 "
                        + "admission=off transitions=1 bound=5 pausedms="), auto.get("LoomChild#0"));
                assertTrue(auto.get("LoomChild#0").contains(" conns=5 keepalive=0 accepted=5 closed=0 requests=1 "),
                        auto.get("LoomChild#0"));

                JsonNode json = JSON.readTree(FakeExchange.get(status, "/server-status?json"));
                assertEquals(4, json.at("/requests").size());
                for (JsonNode r : json.at("/requests")) {
                    assertEquals("GET", r.at("/method").asText());
                    int n = Integer.parseInt(r.at("/path").asText().substring("/block/".length()));
                    assertEquals("slow" + n, r.at("/vhost").asText());
                    assertEquals("W", r.at("/state").asText());
                }
                assertFalse(json.at("/children/0/accepting").asBoolean());

                List<PrometheusText.Sample> p = PrometheusText.parse(prometheus.scrape());
                String[] c1 = {"child", "1", "generation", "1"};
                assertEquals(4, PrometheusText.value(p, "loom_workers_active", c1));
                assertEquals(0, PrometheusText.value(p, "loom_workers_idle", c1));
                assertEquals(1, PrometheusText.value(p, "loom_workers_pending", c1));
                assertEquals(0, PrometheusText.value(p, "loom_admission_open", c1));
                assertEquals(1, PrometheusText.value(p, "loom_admission_transitions_total", c1));
                assertEquals(5, PrometheusText.value(p, "loom_admission_bound", c1));
                assertEquals(0, PrometheusText.value(p, "loom_child_accepting", c1));
                assertEquals(5, PrometheusText.value(p, "loom_connections_open"));

                release.countDown();
                for (CountingClient s : slow) {
                    assertEquals("released", s.read().body());
                }
                assertEquals("Hello, World!", e.read().body());
            } finally {
                // One at a time: four EOFs dispatched at once could fill the pool and flip admission.
                for (CountingClient s : slow) {
                    long closed = server.stats().connectionsClosed();
                    s.close();
                    TestServers.waitFor("slow connection closed", 10,
                            () -> server.stats().connectionsClosed() == closed + 1);
                }
            }
            TestServers.waitFor("admission on", 10, () -> child().admissionOpen());
            quiesce();
            Map<String, String> auto = auto(e.get("/server-status?auto").body());
            assertEquals("6", auto.get("Total Accesses"));
            assertEquals("0", auto.get("LoomAdmissionOff"));
            assertEquals("2", auto.get("LoomAdmissionTransitions"), "off once, on once");
            assertEquals("1", auto.get("BusyWorkers"));
            assertEquals("0", auto.get("LoomPendingWorkers"));
            assertEquals(1, auto.get("Scoreboard").chars().filter(ch -> ch == 'W').count());
            assertEquals(3, auto.get("Scoreboard").chars().filter(ch -> ch == '_').count());
            assertEquals("4", auto.get("LoomConnsClosedNormal"));
            quiesce();
            TestServers.waitFor("e parked", 10, () -> child().keepAliveConnections() == 1);
            List<PrometheusText.Sample> p = PrometheusText.parse(prometheus.scrape());
            String[] c1 = {"child", "1", "generation", "1"};
            assertEquals(1, PrometheusText.value(p, "loom_admission_open", c1));
            assertEquals(2, PrometheusText.value(p, "loom_admission_transitions_total", c1));
            assertEquals(0, PrometheusText.value(p, "loom_workers_active", c1));
            assertEquals(1, PrometheusText.value(p, "loom_connections_keepalive"), "e is parked");
            assertEquals(7, PrometheusText.value(p, "loom_http_requests_seconds_count",
                    "protocol", "HTTP/1.1", "method", "GET", "status", "2xx"));
        }
    }

    @Test
    void everyCloseReasonIsCountedOnce() throws Exception {
        start(true, c -> c.keepAliveTimeout(Duration.ofMillis(300)).requestHeaderTimeout(Duration.ofMillis(300)));
        try (CountingClient idle = new CountingClient(server.port())) {
            assertEquals(200, idle.get("/hello").status());
            assertTrue(idle.closedByServer(), "KeepAliveTimeout: timeout");
        }
        try (CountingClient partial = new CountingClient(server.port())) {
            partial.send("GET /hello HTTP/1.1\r\nHo");
            assertEquals(408, partial.read().status(), "RequestReadTimeout: timeout");
        }
        CountingClient cut = new CountingClient(server.port());
        cut.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n0123456789");
        TestServers.waitFor("the body read is parked", 10, () -> child().activeWorkers() == 1);
        cut.reset(); // abort
        try (CountingClient broken = new CountingClient(server.port())) {
            broken.send("GET /broken HTTP/1.1\r\nHost: x\r\n\r\n");
            assertTrue(broken.closedByServer(), "a handler failing after commit: error");
        }
        try (CountingClient bad = new CountingClient(server.port())) {
            bad.send("GET /\u0001 HTTP/1.1\r\nHost: x\r\n\r\n");
            assertEquals(400, bad.read().status(), "a rejected head: error");
        }
        try (CountingClient polite = new CountingClient(server.port())) {
            assertEquals(200, polite.get("/hello").status());
        } // the client closes between requests: normal
        TestServers.waitFor("6 connections closed", 10, () -> server.stats().connectionsClosed() == 6);
        quiesce();
        Map<String, String> auto = auto(FakeExchange.get(status, "/server-status?auto"));
        assertEquals("6", auto.get("LoomConnsAccepted"));
        assertEquals("1", auto.get("LoomConnsClosedNormal"));
        assertEquals("2", auto.get("LoomConnsClosedTimeout"));
        assertEquals("2", auto.get("LoomConnsClosedError"));
        assertEquals("1", auto.get("LoomConnsClosedAbort"));
        assertEquals("3", auto.get("Total Accesses"), "hello, /broken, hello; not the cut POST nor the rejected heads");
        assertEquals("0", auto.get("ConnsTotal"));
        List<PrometheusText.Sample> p = PrometheusText.parse(prometheus.scrape());
        assertEquals(1, PrometheusText.value(p, "loom_connections_closed_total", "reason", "normal"));
        assertEquals(2, PrometheusText.value(p, "loom_connections_closed_total", "reason", "timeout"));
        assertEquals(2, PrometheusText.value(p, "loom_connections_closed_total", "reason", "error"));
        assertEquals(1, PrometheusText.value(p, "loom_connections_closed_total", "reason", "abort"));
        assertEquals(2, PrometheusText.value(p, "loom_poller_timers_fired_total",
                "child", "1", "generation", "1", "poller", "0"), "the keep-alive and the head deadline");
        assertEquals(3, PrometheusText.value(p, "loom_http_requests_seconds_count",
                "protocol", "HTTP/1.1", "method", "GET", "status", "2xx"), "hello, /broken (200 sent), hello");
    }
}
