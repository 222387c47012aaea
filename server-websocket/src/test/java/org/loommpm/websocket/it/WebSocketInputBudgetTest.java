package org.loommpm.websocket.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.loommpm.websocket.frame.ClientFrames.frame;
import static org.loommpm.websocket.frame.ClientFrames.text;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.loommpm.api.Router;
import org.loommpm.config.InputBudgetSettings;
import org.loommpm.engine.EngineStats;
import org.loommpm.server.LoomServer;
import org.loommpm.spi.InputBudget;
import org.loommpm.testsupport.TestServers;
import org.loommpm.websocket.WebSocketHandler;
import org.loommpm.websocket.WebSocketSession;

/**
 * The input budget and the message deadline on real sockets: unfinished fragmented messages hold
 * their share of a small budget until it is spent, the next ones are refused with 1009 while the
 * server goes on serving, and the budget is back at 0 once the sockets are gone; a message whose
 * fragments keep coming (one byte every 100 ms) or stop is closed 1008 at
 * {@code WebSocketMessageTimeout}, though the idle timeout (5 minutes) never passes.
 */
class WebSocketInputBudgetTest {
    /** 300 KiB: a 1 MiB budget holds two or three such messages (the reader's array grows by doubling). */
    private static final int FRAGMENT = 300 * 1024;

    private static LoomServer budgeted;
    private static LoomServer timed;

    private static final WebSocketHandler ECHO = new WebSocketHandler() {
        @Override
        public void onText(WebSocketSession s, String t) {
            s.sendText(t);
        }
    };

    @BeforeAll
    static void start() throws Exception {
        Router r = new Router().get("/", (req, res) -> res.send("up")).websocket("/echo", ECHO);
        budgeted = TestServers.start(r, c -> c.inputBudget(InputBudgetSettings.DEFAULTS.withBytes(1 << 20)));
        timed = TestServers.start(new Router().websocket("/echo", ECHO),
                c -> c.inputBudget(InputBudgetSettings.DEFAULTS.withWebSocketMessageTimeout(Duration.ofSeconds(1))));
    }

    @AfterAll
    static void stop() {
        budgeted.close();
        timed.close();
    }

    private static InputBudget budget(LoomServer server) {
        return EngineStats.of(server.stats()).children().getFirst().inputBudget();
    }

    private static RawWebSocket open(LoomServer server) throws IOException {
        RawWebSocket ws = new RawWebSocket(server.port());
        assertEquals(101, ws.handshake("/echo", "").status());
        return ws;
    }

    @Test
    void unfinishedMessagesSpendTheBudgetThenAreRefused() throws Exception {
        InputBudget b = budget(budgeted);
        long refusedBefore = b.refusals(InputBudget.Consumer.WEBSOCKET_MESSAGE);
        List<RawWebSocket> holders = new ArrayList<>();
        int refused = 0;
        try {
            while (refused < 2) {
                assertTrue(holders.size() < 8, "a 1 MiB budget holds at most three 300 KiB messages");
                long before = b.used();
                long refusals = b.refusals(InputBudget.Consumer.WEBSOCKET_MESSAGE);
                RawWebSocket ws = open(budgeted);
                ws.send(frame(0x02, new byte[FRAGMENT])); // a binary message's first fragment; FIN never comes
                TestServers.waitFor("the fragment held or refused", 10, () -> b.used() >= before + FRAGMENT
                        || b.refusals(InputBudget.Consumer.WEBSOCKET_MESSAGE) > refusals);
                if (b.refusals(InputBudget.Consumer.WEBSOCKET_MESSAGE) == refusals) {
                    holders.add(ws);
                    continue;
                }
                try (ws) {
                    RawWebSocket.Frame f = ws.frame();
                    assertEquals(0x8, f.opcode());
                    assertEquals(1009, f.closeCode(), "over the budget: message too big");
                    assertTrue(ws.closedByServer());
                }
                refused++;
            }
            assertTrue(holders.size() >= 2, "held before the budget ran out: " + holders.size());
            assertEquals(refusedBefore + 2, b.refusals(InputBudget.Consumer.WEBSOCKET_MESSAGE));
            assertTrue(b.used() <= b.limit() && b.used() >= holders.size() * (long) FRAGMENT, "held: " + b.used());

            HttpClient http = HttpClient.newHttpClient();
            HttpResponse<String> page = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + budgeted.port() + "/"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertEquals("up", page.body(), "the server goes on serving");

            long held = b.used();
            holders.removeFirst().close(); // a holder goes away mid-message: its share comes back
            TestServers.waitFor("the gone socket's share released", 10, () -> b.used() <= held - FRAGMENT);
            try (RawWebSocket normal = open(budgeted)) {
                normal.send(text("hello"));
                assertEquals("hello", normal.frame().text(), "a normal client is served again");
            }
        } finally {
            for (RawWebSocket ws : holders) {
                ws.close();
            }
        }
        TestServers.waitFor("every share released", 10, () -> b.used() == 0);
        assertTrue(b.highWater() <= b.limit());
    }

    @Test
    void fragmentsDoNotKeepAMessageAlivePastItsDeadline() throws Exception {
        try (RawWebSocket ws = new RawWebSocket(timed.port(), 10_000)) {
            assertEquals(101, ws.handshake("/echo", "").status());
            ws.send(frame(0x01, "a".repeat(10).getBytes()));
            long start = System.nanoTime();
            Thread dribble = Thread.ofVirtual().start(() -> {
                try {
                    for (int i = 0; i < 100; i++) {
                        Thread.sleep(100);
                        ws.send(frame(0x00, new byte[] {'b'})); // a continuation, never the last
                    }
                } catch (IOException | InterruptedException e) {
                    // closed by the server: expected
                }
            });
            RawWebSocket.Frame f = ws.frame();
            long seconds = (System.nanoTime() - start) / 1_000_000_000L;
            dribble.interrupt();
            assertEquals(0x8, f.opcode());
            assertEquals(1008, f.closeCode(), "policy: the message was not finished in time");
            assertTrue(seconds < 8, "closed near the 1 s deadline, not at the idle timeout: " + seconds + " s");
        }
        TestServers.waitFor("the message's share released", 10, () -> budget(timed).used() == 0);
    }

    @Test
    void aSilentUnfinishedMessageEndsAtItsDeadline() throws Exception {
        try (RawWebSocket ws = new RawWebSocket(timed.port(), 10_000)) {
            assertEquals(101, ws.handshake("/echo", "").status());
            ws.send(frame(0x02, new byte[1000]));
            RawWebSocket.Frame f = ws.frame();
            assertEquals(1008, f.closeCode());
            assertTrue(ws.closedByServer());
        }
        TestServers.waitFor("the message's share released", 10, () -> budget(timed).used() == 0);
    }
}
