package org.loommpm.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.loommpm.api.Router;
import org.loommpm.config.InputBudgetSettings;
import org.loommpm.engine.EngineStats;
import org.loommpm.server.LoomServer;
import org.loommpm.spi.InputBudget;
import org.loommpm.testsupport.TestServers;

/**
 * A body read whole ({@code Request.bodyBytes()}) is charged to the child's input budget as it is
 * read and stays charged until its exchange ends: one that does not fit is answered 413 (well
 * within LimitRequestBody), and what a finished or refused exchange held comes back.
 */
class BodyBudgetTest {
    private static LoomServer server;
    private static final CountDownLatch release = new CountDownLatch(1);
    private static final HttpClient client = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        Router r = new Router()
                .post("/size", (req, res) -> res.send(Integer.toString(req.bodyBytes().length)))
                .post("/hold", (req, res) -> {
                    int n = req.bodyBytes().length;
                    release.await(10, TimeUnit.SECONDS); // the handler keeps the array meanwhile
                    res.send(Integer.toString(n));
                });
        server = TestServers.start(r, c -> c.inputBudget(InputBudgetSettings.DEFAULTS.withBytes(1 << 20)));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static InputBudget budget() {
        return EngineStats.of(server.stats()).children().getFirst().inputBudget();
    }

    private static HttpResponse<String> post(String path, int bytes) throws Exception {
        return client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[bytes])).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aBodyOverTheBudgetIs413AndHeldBodiesAreReleasedWithTheirExchange() throws Exception {
        assertEquals("100000", post("/size", 100_000).body());
        TestServers.waitFor("a finished exchange's body released", 5, () -> budget().used() == 0);

        var held = client.sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/hold"))
                .POST(HttpRequest.BodyPublishers.ofByteArray(new byte[700_000])).build(), HttpResponse.BodyHandlers.ofString());
        TestServers.waitFor("the held body charged", 10, () -> budget().used() == 700_000);

        long refusedBefore = budget().refusals(InputBudget.Consumer.REQUEST_BODY);
        HttpResponse<String> refused = post("/size", 500_000);
        assertEquals(413, refused.statusCode(), "over what is left of the budget, far under LimitRequestBody");
        assertEquals(refusedBefore + 1, budget().refusals(InputBudget.Consumer.REQUEST_BODY));
        assertEquals(700_000, budget().used(), "the refused read gave back what it had taken");

        release.countDown();
        assertEquals("700000", held.get(10, TimeUnit.SECONDS).body());
        TestServers.waitFor("everything released", 5, () -> budget().used() == 0);
        assertEquals("200000", post("/size", 200_000).body(), "served again once there is room");
        assertTrue(budget().highWater() <= budget().limit());
    }
}
