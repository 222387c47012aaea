package org.loommpm.observe.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.loommpm.metrics.MetricsFeature;
import org.loommpm.server.LoomServer;
import org.loommpm.api.Router;
import org.loommpm.config.ChildPolicy;
import org.loommpm.engine.ChildHandle;
import org.loommpm.engine.ChildState;
import org.loommpm.engine.ChildStats;
import org.loommpm.engine.EngineStats;
import org.loommpm.metrics.MetricsHandler;
import org.loommpm.status.LogLineCounts;
import org.loommpm.status.StatusHandler;
import org.loommpm.testsupport.TestServers;

/**
 * The status page as people and scrapers see it: escaping of client-controlled values, the
 * refresh parameter, draining children's letters after a graceful restart, metrics off, and
 * the metrics endpoint's formats.
 */
class StatusPageTest {
    private final CountDownLatch release = new CountDownLatch(1);
    private final AtomicInteger blocked = new AtomicInteger();
    private LoomServer server;

    private Router router(StatusHandler status) {
        return new Router()
                .get("/hello", (req, res) -> res.send("Hello, World!"))
                .get("/block/{rest...}", (req, res) -> {
                    blocked.incrementAndGet();
                    release.await();
                    res.send("released");
                })
                .get("/logged", (req, res) -> {
                    res.send("logged");
                    res.logging(); // as the jar's access log does after the response
                    blocked.incrementAndGet();
                    release.await();
                })
                .get("/server-status", status);
    }

    /** A server without a meter registry: metrics off, status page on. */
    private StatusHandler startWithoutMetrics() throws Exception {
        LoomServer.Builder b = LoomServer.builder().listen("127.0.0.1", 0)
                .configure(c -> c.threadsPerChild(4).pollersPerChild(1).gracefulShutdownTimeout(Duration.ofSeconds(5)));
        StatusHandler status = new StatusHandler(b.stats());
        server = b.handler(router(status)).start();
        return status;
    }

    @AfterEach
    void stop() {
        release.countDown();
        if (server != null) {
            server.close();
        }
    }

    @Test
    void clientControlledValuesAreEscapedInHtmlAndJson() throws Exception {
        startWithoutMetrics();
        try (CountingClient evil = new CountingClient(server.port());
             CountingClient viewer = new CountingClient(server.port())) {
            // A path that decodes to markup and a Host made of legal reg-name characters & and '.
            evil.send("GET /block/%3Cimg%20src=x%20onerror=alert(1)%3E%22 HTTP/1.1\r\nHost: a&b'c\r\n\r\n");
            TestServers.waitFor("handler blocked", 10, () -> blocked.get() == 1);
            CountingClient.Response page = viewer.get("/server-status");
            assertEquals(200, page.status());
            assertEquals("text/html; charset=UTF-8", page.header("Content-Type"));
            String html = page.body();
            assertTrue(html.contains("/block/&lt;img src=x onerror=alert(1)&gt;&quot;"), html);
            assertFalse(html.contains("<img"), "no markup from the client");
            assertTrue(html.contains("a&amp;b&#39;c"), "the vhost, escaped");
            assertFalse(html.contains("http-equiv=\"refresh\""), "no refresh unless asked");

            String json = viewer.get("/server-status?json").body();
            assertFalse(json.contains("<img"), "JSON escapes < and > too");
            JsonNode parsed = new ObjectMapper().readTree(json);
            JsonNode cur = parsed.at("/requests/0");
            assertEquals("/block/<img src=x onerror=alert(1)>\"", cur.at("/path").asText());
            assertEquals("a&b'c", cur.at("/vhost").asText());
            release.countDown();
            assertEquals("released", evil.read().body());
        }
    }

    /** Given the error log's lines per id, every rendering shows them; without, none mentions them. */
    @Test
    void logLinesPerIdAreShownWhenGiven() throws Exception {
        LoomServer.Builder b = LoomServer.builder().listen("127.0.0.1", 0)
                .configure(c -> c.threadsPerChild(4).pollersPerChild(1).gracefulShutdownTimeout(Duration.ofSeconds(5)));
        LogLineCounts counts = () -> new TreeMap<>(Map.of("LM0401", 12L, "LM2001", 3L));
        server = b.handler(router(new StatusHandler(b.stats(), counts))
                .get("/plain-status", new StatusHandler(b.stats()))).start();
        try (CountingClient c = new CountingClient(server.port())) {
            assertTrue(c.get("/server-status?auto").body().contains("\nLoomLogLines: LM0401=12 LM2001=3\n"));
            JsonNode json = new ObjectMapper().readTree(c.get("/server-status?json").body());
            assertEquals(12, json.at("/logLines/LM0401").asLong());
            assertEquals(3, json.at("/logLines/LM2001").asLong());
            String html = c.get("/server-status").body();
            assertTrue(html.contains("<tr><td class=\"l\">LM0401</td><td>12</td></tr>"), html);

            assertFalse(c.get("/plain-status?auto").body().contains("LoomLogLines"));
            assertTrue(new ObjectMapper().readTree(c.get("/plain-status?json").body()).at("/logLines").isMissingNode());
            assertFalse(c.get("/plain-status").body().contains("Error log lines"));
        }
    }

    @Test
    void refreshParameterAddsAMetaRefreshWithinBounds() throws Exception {
        startWithoutMetrics();
        try (CountingClient c = new CountingClient(server.port())) {
            assertTrue(c.get("/server-status?refresh=5").body().contains("<meta http-equiv=\"refresh\" content=\"5\">"));
            assertTrue(c.get("/server-status?refresh").body().contains("<meta http-equiv=\"refresh\" content=\"1\">"));
            assertTrue(c.get("/server-status?refresh=99999").body()
                    .contains("<meta http-equiv=\"refresh\" content=\"3600\">"));
            assertFalse(c.get("/server-status?refresh=soon").body().contains("http-equiv"));
            assertEquals(405, c.send("POST /server-status HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
                    .read().status(), "the router answers methods it has no route for");
        }
    }

    @Test
    void slotWritingItsAccessLogLineShowsL() throws Exception {
        startWithoutMetrics();
        try (CountingClient logged = new CountingClient(server.port());
             CountingClient viewer = new CountingClient(server.port())) {
            logged.send("GET /logged HTTP/1.1\r\nHost: x\r\n\r\n");
            assertEquals("logged", logged.read().body(), "the response went out before the logging phase");
            TestServers.waitFor("handler logging", 10, () -> blocked.get() == 1);
            Map<String, String> auto = ObservabilityTest.auto(viewer.get("/server-status?auto").body());
            String board = auto.get("Scoreboard");
            assertEquals(1, board.chars().filter(ch -> ch == 'L').count(), board);
            assertEquals(0, board.chars().filter(ch -> ch == 'W').count(),
                    "the viewer's own request holds no slot (the poller serves the page): " + board);
            String json = viewer.get("/server-status?json").body();
            assertTrue(json.contains("\"/logged\""), "an L slot still shows its request: " + json);
            release.countDown();
        }
    }

    @Test
    void childRetiredAsIdleShowsIForItsFreeSlotsAndGForItsBusyOne() throws Exception {
        StatusHandler status = startWithoutMetrics();
        try (CountingClient slow = new CountingClient(server.port())) {
            slow.send("GET /block/1 HTTP/1.1\r\nHost: x\r\n\r\n");
            TestServers.waitFor("handler blocked", 10, () -> blocked.get() == 1);
            // What the dynamic policy (worker or spamd scaling) does to a child above MaxSpareThreads.
            ChildStats only = EngineStats.of(server.stats()).children().get(0);
            ((ChildHandle) only).drain(ChildState.IDLE_KILLED, "test: free slots above MaxSpareThreads");
            Map<String, String> auto = ObservabilityTest.auto(FakeExchange.get(status, "/server-status?auto"));
            assertEquals("GIII", auto.get("Scoreboard"));
            assertTrue(auto.get("LoomChild#0").contains("state=idle-killed"), auto.get("LoomChild#0"));
            release.countDown();
            assertEquals("released", slow.read().body());
        }
    }

    @Test
    void dynamicPoolShowsTheSlotsItMayStillStartAsDots() throws Exception {
        LoomServer.Builder b = LoomServer.builder().listen("127.0.0.1", 0)
                .configure(c -> c.threadsPerChild(4).pollersPerChild(1).childPolicy(ChildPolicy.DYNAMIC)
                        .minSpareThreads(1).maxSpareThreads(8).maxRequestWorkers(12)
                        .gracefulShutdownTimeout(Duration.ofSeconds(5)));
        StatusHandler status = new StatusHandler(b.stats());
        server = b.handler(router(status)).start();
        try (CountingClient viewer = new CountingClient(server.port())) {
            Map<String, String> auto = ObservabilityTest.auto(viewer.get("/server-status?auto").body());
            // One child of 4 free slots (the poller serves the viewer's request), room for two more children.
            assertEquals("____........", auto.get("Scoreboard"));
        }
    }

    @Test
    void drainingChildShowsGracefulLettersAfterRestart() throws Exception {
        StatusHandler status = startWithoutMetrics();
        try (CountingClient slow = new CountingClient(server.port())) {
            slow.send("GET /block/1 HTTP/1.1\r\nHost: x\r\n\r\n");
            TestServers.waitFor("handler blocked", 10, () -> blocked.get() == 1);
            server.restart(server.config(), router(status));
            try (CountingClient viewer = new CountingClient(server.port())) {
                Map<String, String> auto = ObservabilityTest.auto(viewer.get("/server-status?auto").body());
                assertEquals("2", auto.get("ParentServerConfigGeneration"));
                assertEquals("2", auto.get("Processes"));
                assertEquals("1", auto.get("Stopping"));
                assertEquals("1", auto.get("GracefulWorkers"));
                assertEquals("1", auto.get("BusyWorkers"), "the blocked one (the poller serves this one)");
                assertEquals("4", auto.get("IdleWorkers"), "only the running child's free slots");
                assertEquals("G...____", auto.get("Scoreboard"));
                assertTrue(auto.get("LoomChild#0").startsWith("id=1 generation=1 state=finishing accepting=0 "),
                        auto.get("LoomChild#0"));
                assertTrue(auto.get("LoomChild#1").startsWith("id=2 generation=2 state=ready accepting=1 "),
                        auto.get("LoomChild#1"));
                String html = viewer.get("/server-status").body();
                assertTrue(html.contains("graceful restart to generation 2"), "the drain reason is shown");
            }
            release.countDown();
            assertEquals("released", slow.read().body());
        }
    }

    @Test
    void metricsEndpointServesPrometheusTextOrOpenMetrics() throws Exception {
        PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        server = LoomServer.builder().listen("127.0.0.1", 0).feature(new MetricsFeature(prometheus))
                .configure(c -> c.gracefulShutdownTimeout(Duration.ofSeconds(5)))
                .handler(new Router().get("/metrics", new MetricsHandler(prometheus))
                        .get("/hello", (req, res) -> res.send("hi")))
                .start();
        try (CountingClient c = new CountingClient(server.port())) {
            assertEquals(200, c.get("/hello").status());
            CountingClient.Response text = c.get("/metrics");
            assertEquals("text/plain; version=0.0.4; charset=utf-8", text.header("Content-Type"));
            List<PrometheusText.Sample> samples = PrometheusText.parse(text.body());
            assertTrue(samples.size() > 20, "engine and request meters: " + samples.size());
            CountingClient.Response om = c.send("GET /metrics HTTP/1.1\r\nHost: x\r\n"
                    + "Accept: application/openmetrics-text; version=1.0.0\r\n\r\n").read();
            assertEquals("application/openmetrics-text; version=1.0.0; charset=utf-8", om.header("Content-Type"));
            assertTrue(om.body().endsWith("# EOF\n"), "OpenMetrics ends with # EOF");
        }
    }
}
