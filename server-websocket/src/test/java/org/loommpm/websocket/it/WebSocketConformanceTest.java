package org.loommpm.websocket.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.loommpm.websocket.frame.ClientFrames.close;
import static org.loommpm.websocket.frame.ClientFrames.concat;
import static org.loommpm.websocket.frame.ClientFrames.deflate;
import static org.loommpm.websocket.frame.ClientFrames.frame;
import static org.loommpm.websocket.frame.ClientFrames.text;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Level;
import java.util.zip.Inflater;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.loommpm.server.LoomServer;
import org.loommpm.api.Router;
import org.loommpm.config.WebSocketSettings;
import org.loommpm.engine.ChildStats;
import org.loommpm.engine.EngineStats;
import org.loommpm.testsupport.LogCapture;
import org.loommpm.testsupport.RawHttp;
import org.loommpm.testsupport.TestServers;
import org.loommpm.websocket.WebSocketEndpoint;
import org.loommpm.websocket.WebSocketHandler;
import org.loommpm.websocket.WebSocketSession;
import org.loommpm.websocket.deflate.ZlibPoolAccess;

/**
 * RFC 6455 / RFC 7692 conformance over a real connection, with a raw-socket client: the handshake
 * and its refusals, echo, fragmentation with control frames in between, automatic pongs, UTF-8,
 * reserved bits and opcodes, limits, the close handshake from either side, a handler failure,
 * sending from another thread, permessage-deflate both ways and a compression bomb; and what an
 * idle socket holds (no worker, no buffer). Every connection is gone after each test.
 */
class WebSocketConformanceTest {
    static final Queue<String> events = new ConcurrentLinkedQueue<>();
    static final List<WebSocketSession> sessions = new CopyOnWriteArrayList<>();
    private static LoomServer server;

    static final WebSocketHandler ECHO = new WebSocketHandler() {
        @Override
        public void onOpen(WebSocketSession s) {
            sessions.add(s);
            events.add("open " + s.path() + " ua=" + s.requestHeader("User-Agent"));
        }

        @Override
        public void onText(WebSocketSession s, String text) {
            if (text.startsWith("close:")) {
                s.close(Integer.parseInt(text.substring(6)), "asked");
            } else if (text.equals("throw")) {
                throw new IllegalStateException("handler bug (expected by the test)");
            } else {
                s.sendText(text);
            }
        }

        @Override
        public void onBinary(WebSocketSession s, byte[] data) {
            s.sendBinary(data);
        }

        @Override
        public void onClose(WebSocketSession s, int code, String reason) {
            events.add("close " + code + " " + reason);
            sessions.remove(s); // after the event: a test that waits for no session sees every close event
        }
    };

    @BeforeAll
    static void start() throws Exception {
        Router r = new Router()
                .filter((req, res, next) -> {
                    if (req.path().startsWith("/denied")) {
                        res.status(403).send("Forbidden"); // what a Require rule does
                    } else {
                        next.handle(req, res);
                    }
                })
                .websocket("/echo", ECHO)
                .websocket("/denied/ws", ECHO)
                .websocket("/room/{name}", new WebSocketHandler() {
                    @Override
                    public void onOpen(WebSocketSession s) {
                        s.sendText("room " + s.pathParam("name") + " " + s.subprotocol());
                    }
                })
                .websocket("/strict", WebSocketEndpoint.of(ECHO).withSubprotocols("v2", "v1")
                        .withOriginCheck(o -> "https://good.example".equals(o)).withDeflate(false));
        server = TestServers.start(r, c -> c.webSocket(WebSocketSettings.DEFAULTS.withMaxFrameSize(4096).withMaxMessageSize(8192)));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @AfterEach
    void noConnectionLeft() throws InterruptedException {
        TestServers.waitFor("no open connection", 10, () -> server.stats().connectionsOpen() == 0);
        // onClose may run after the connection is counted closed: its event must not reach the next test.
        TestServers.waitFor("every onClose ran", 10, sessions::isEmpty);
        events.clear();
    }

    private static RawWebSocket open(String path, String extra) throws Exception {
        RawWebSocket ws = new RawWebSocket(server.port());
        RawWebSocket.Answer a = ws.handshake(path, extra);
        assertEquals(101, a.status(), a.body());
        return ws;
    }

    /** Sends a normal close and expects the server's answer and the end of the connection. */
    private static void closeNormally(RawWebSocket ws) throws Exception {
        ws.send(close(1000, "done"));
        RawWebSocket.Frame f = ws.frame();
        assertEquals(0x8, f.opcode());
        assertEquals(1000, f.closeCode());
        assertTrue(ws.closedByServer());
    }

    @Test
    void handshakeAnswer() throws Exception {
        try (RawWebSocket ws = new RawWebSocket(server.port())) {
            RawWebSocket.Answer a = ws.handshake("/echo", "User-Agent: raw\r\n");
            assertEquals(101, a.status());
            assertEquals(RawWebSocket.ACCEPT, a.header("Sec-WebSocket-Accept"));
            assertEquals("websocket", a.header("Upgrade"));
            assertEquals("Upgrade", a.header("Connection"));
            assertNull(a.header("Content-Length"));
            assertNull(a.header("Sec-WebSocket-Extensions"), "not offered, not agreed");
            closeNormally(ws);
        }
        TestServers.waitFor("onClose", 5, () -> events.contains("close 1000 done"));
        assertTrue(events.contains("open /echo ua=raw"), events.toString());
    }

    @Test
    void refusedHandshakes() throws Exception {
        try (RawWebSocket ws = new RawWebSocket(server.port())) {
            ws.send(RawWebSocket.request("/echo", "").replace("Version: 13", "Version: 8").getBytes(StandardCharsets.ISO_8859_1));
            RawWebSocket.Answer a = ws.answer();
            assertEquals(426, a.status());
            assertEquals("13", a.header("Sec-WebSocket-Version"));
        }
        try (RawHttp c = new RawHttp(server.port())) {
            RawHttp.Response r = c.send("GET /echo HTTP/1.1\r\nHost: x\r\n\r\n").read();
            assertEquals(426, r.status(), "a plain GET on a WebSocket route");
            assertEquals("websocket", r.header("Upgrade"));
        }
        try (RawWebSocket ws = new RawWebSocket(server.port())) {
            ws.send(RawWebSocket.request("/echo", "").replace(RawWebSocket.KEY, "c2hvcnQ=").getBytes(StandardCharsets.ISO_8859_1));
            assertEquals(400, ws.answer().status(), "a key that is not 16 bytes");
        }
        try (RawWebSocket ws = new RawWebSocket(server.port())) {
            assertEquals(403, ws.handshake("/strict", "Origin: https://evil.example\r\n").status(), "origin check");
        }
        try (RawWebSocket ws = new RawWebSocket(server.port())) {
            assertEquals(403, ws.handshake("/denied/ws", "").status(), "a filter's refusal applies to the upgrade");
        }
        try (RawWebSocket ws = new RawWebSocket(server.port())) {
            assertEquals(404, ws.handshake("/nowhere", "").status());
        }
        assertTrue(events.isEmpty(), "no socket opened: " + events);
    }

    @Test
    void subprotocolPathVariablesAndOrigin() throws Exception {
        try (RawWebSocket ws = open("/room/kitchen", "")) {
            assertEquals("room kitchen null", ws.frame().text());
            closeNormally(ws);
        }
        try (RawWebSocket ws = open("/strict", "Origin: https://good.example\r\nSec-WebSocket-Protocol: v0, v1, v2\r\n"
                + "Sec-WebSocket-Extensions: permessage-deflate\r\n")) {
            closeNormally(ws);
        }
        try (RawWebSocket ws = new RawWebSocket(server.port())) {
            RawWebSocket.Answer a = ws.handshake("/strict", "Origin: https://good.example\r\nSec-WebSocket-Protocol: v0, v1, v2\r\n"
                    + "Sec-WebSocket-Extensions: permessage-deflate\r\n");
            assertEquals("v1", a.header("Sec-WebSocket-Protocol"), "the client's first one the endpoint speaks");
            assertNull(a.header("Sec-WebSocket-Extensions"), "deflate refused by this endpoint");
            closeNormally(ws);
        }
    }

    @Test
    void echoFragmentationAndPings() throws Exception {
        try (RawWebSocket ws = open("/echo", "")) {
            ws.send(text("hello"));
            assertEquals("hello", ws.frame().text());
            ws.send(frame(0x82, new byte[] {1, 2, 3}));
            RawWebSocket.Frame bin = ws.frame();
            assertEquals(0x2, bin.opcode());
            assertArrayEquals(new byte[] {1, 2, 3}, bin.payload());
            // A fragmented message with a ping between its fragments: the pong comes first.
            ws.send(concat(frame(0x01, "frag".getBytes()), frame(0x89, "p1".getBytes()), frame(0x80, "ment".getBytes())));
            RawWebSocket.Frame pong = ws.frame();
            assertEquals(0xA, pong.opcode());
            assertEquals("p1", pong.text());
            assertEquals("fragment", ws.frame().text());
            // The client's handshake and first frame in one packet.
            closeNormally(ws);
        }
        try (RawWebSocket ws = new RawWebSocket(server.port())) {
            ws.send(concat(RawWebSocket.request("/echo", "").getBytes(StandardCharsets.ISO_8859_1), text("early")));
            assertEquals(101, ws.answer().status());
            assertEquals("early", ws.frame().text(), "a frame sent right behind the handshake");
            closeNormally(ws);
        }
    }

    private static void expectFailure(byte[] bytes, int code) throws Exception {
        try (RawWebSocket ws = open("/echo", "")) {
            ws.send(bytes);
            RawWebSocket.Frame f = ws.frame();
            assertEquals(0x8, f.opcode());
            assertEquals(code, f.closeCode());
            assertTrue(ws.closedByServer());
        }
    }

    @Test
    void protocolErrors() throws Exception {
        expectFailure(frame(0x81, "x".getBytes(), false), 1002); // not masked
        expectFailure(frame(0x83, new byte[0]), 1002); // reserved opcode
        expectFailure(frame(0xA1, "x".getBytes()), 1002); // RSV2
        expectFailure(frame(0xC1, "x".getBytes()), 1002); // RSV1 without deflate
        expectFailure(frame(0x09, new byte[0]), 1002); // fragmented ping
        expectFailure(frame(0x80, "x".getBytes()), 1002); // continuation without a message
        expectFailure(frame(0x81, new byte[] {(byte) 0xCE, (byte) 0xBA, (byte) 0xE1, (byte) 0xBD, (byte) 0xB9, (byte) 0xCF,
                (byte) 0x83, (byte) 0xCE, (byte) 0xBC, (byte) 0xCE, (byte) 0xB5, (byte) 0xED, (byte) 0xA0, (byte) 0x80}), 1007);
        expectFailure(close(1005, ""), 1002); // a code that must not be sent
        TestServers.waitFor("onClose for each", 5, () -> events.stream().filter(e -> e.startsWith("close 100")).count() == 8);
    }

    @Test
    void invalidUtf8FailsBeforeTheMessageEnds() throws Exception {
        try (RawWebSocket ws = open("/echo", "")) {
            ws.send(frame(0x01, new byte[] {'a', (byte) 0xFF})); // first fragment; FIN never comes
            RawWebSocket.Frame f = ws.frame();
            assertEquals(1007, f.closeCode());
        }
    }

    @Test
    void limits() throws Exception {
        expectFailure(frame(0x82, new byte[4097]), 1009);
        expectFailure(concat(frame(0x02, new byte[4096]), frame(0x00, new byte[4096]), frame(0x80, new byte[1])), 1009);
        expectFailure(frame(0x89, new byte[126]), 1002);
    }

    @Test
    void clientCloseIsEchoedAndReportedOnce() throws Exception {
        try (RawWebSocket ws = open("/echo", "")) {
            ws.send(close(4001, "custom"));
            RawWebSocket.Frame f = ws.frame();
            assertEquals(4001, f.closeCode());
            assertTrue(ws.closedByServer());
        }
        TestServers.waitFor("onClose", 5, () -> events.contains("close 4001 custom"));
        try (RawWebSocket ws = open("/echo", "")) {
            ws.send(frame(0x88, new byte[0]));
            assertEquals(1005, ws.frame().closeCode(), "an empty close is answered empty");
        }
        TestServers.waitFor("onClose 1005", 5, () -> events.contains("close 1005 "));
    }

    @Test
    void serverCloseAndHandlerFailure() throws Exception {
        try (LogCapture logs = new LogCapture(); RawWebSocket ws = open("/echo", "")) {
            ws.send(text("close:4002"));
            RawWebSocket.Frame f = ws.frame();
            assertEquals(4002, f.closeCode());
            assertEquals("asked", new String(f.payload(), 2, f.payload().length - 2, StandardCharsets.UTF_8));
            ws.send(close(4002, ""));
            assertTrue(ws.closedByServer());
            try (RawWebSocket ws2 = open("/echo", "")) {
                ws2.send(text("throw"));
                assertEquals(1011, ws2.frame().closeCode());
                assertTrue(ws2.closedByServer());
            }
            TestServers.waitFor("LM1703", 5, () -> !logs.find(Level.SEVERE, "LM1703").isEmpty());
        }
        TestServers.waitFor("onClose", 5, () -> events.contains("close 4002 asked") && events.contains("close 1011 internal error"));
    }

    @Test
    void sendingFromAnotherThreadAndIdleSocketsHoldNothing() throws Exception {
        List<RawWebSocket> clients = new ArrayList<>();
        try {
            for (int i = 0; i < 50; i++) {
                clients.add(open("/echo", ""));
            }
            TestServers.waitFor("50 sessions", 5, () -> sessions.size() == 50);
            // Idle sockets: no worker slot held, no context (buffers) attached.
            TestServers.waitFor("idle", 5, () -> children().stream().allMatch(c -> c.activeWorkers() == 0 && c.contextsHeld() == 0));
            // A broadcast from this (non-worker) thread.
            for (WebSocketSession s : sessions) {
                assertTrue(s.sendText("broadcast " + s.id()));
            }
            for (RawWebSocket c : clients) {
                assertTrue(c.frame().text().startsWith("broadcast "));
            }
            assertEquals(50, EngineStats.of(server.stats()).protocols().value("loom.websocket.open"));
            for (RawWebSocket c : clients) {
                closeNormally(c);
            }
        } finally {
            for (RawWebSocket c : clients) {
                c.close();
            }
        }
        TestServers.waitFor("all closed", 5, () -> EngineStats.of(server.stats()).protocols().value("loom.websocket.open") == 0);
    }

    private static List<ChildStats> children() {
        return EngineStats.of(server.stats()).children();
    }

    @Test
    void permessageDeflateBothWays() throws Exception {
        try (RawWebSocket ws = new RawWebSocket(server.port())) {
            RawWebSocket.Answer a = ws.handshake("/echo", "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n");
            assertEquals(101, a.status());
            assertEquals("permessage-deflate; server_no_context_takeover; client_no_context_takeover",
                    a.header("Sec-WebSocket-Extensions"));
            String msg = "squeeze this text, squeeze it well ".repeat(30);
            ws.send(frame(0xC1, deflate(msg.getBytes(StandardCharsets.UTF_8))));
            RawWebSocket.Frame f = ws.frame();
            assertTrue(f.rsv1(), "the echo is compressed");
            assertTrue(f.payload().length < msg.length() / 4);
            Inflater inf = new Inflater(true);
            inf.setInput(concat(f.payload(), new byte[] {0, 0, (byte) 0xFF, (byte) 0xFF}));
            byte[] out = new byte[msg.length() + 16];
            int n = inf.inflate(out);
            inf.end();
            assertEquals(msg, new String(out, 0, n, StandardCharsets.UTF_8));
            ws.send(text("short"));
            RawWebSocket.Frame small = ws.frame();
            assertFalse(small.rsv1(), "too short to be worth compressing");
            assertEquals("short", small.text());
            // A bomb: 1 MB of zeros in ~1 KB, over the 8 KB message limit.
            ws.send(frame(0xC2, deflate(new byte[1 << 20])));
            assertEquals(1009, ws.frame().closeCode());
            assertTrue(ws.closedByServer());
        }
    }

    @Test
    void webSocketDeflateOffDeclinesTheOffer() throws Exception {
        LoomServer noDeflate = TestServers.start(new Router().websocket("/ws", ECHO),
                c -> c.webSocket(WebSocketSettings.DEFAULTS.withDeflate(false)));
        try (RawWebSocket ws = new RawWebSocket(noDeflate.port())) {
            RawWebSocket.Answer a = ws.handshake("/ws", "Sec-WebSocket-Extensions: permessage-deflate\r\n");
            assertEquals(101, a.status());
            assertNull(a.header("Sec-WebSocket-Extensions"), "WebSocketDeflate Off: the offer is declined");
            closeNormally(ws);
        } finally {
            noDeflate.close();
        }
    }

    @Test
    void aCompressedMessageCutOffByTheEndGivesItsDecompressorBack() throws Exception {
        byte[] z = deflate("squeeze this text, squeeze it well ".repeat(30).getBytes(StandardCharsets.UTF_8));
        int idle;
        try (RawWebSocket ws = open("/echo", "Sec-WebSocket-Extensions: permessage-deflate\r\n")) {
            ws.send(frame(0xC1, z));
            ws.frame(); // a whole message: the pool has a decompressor now
            idle = ZlibPoolAccess.sharedIdleInflaters();
            ws.send(frame(0x41, Arrays.copyOf(z, z.length / 2))); // a first fragment, then the client is gone
            TestServers.waitFor("borrowed", 5, () -> ZlibPoolAccess.sharedIdleInflaters() == idle - 1);
        }
        TestServers.waitFor("onClose", 5, () -> events.contains("close 1006 "));
        assertEquals(idle, ZlibPoolAccess.sharedIdleInflaters(), "the decompressor went back to the pool");
    }

    @Test
    void idleTimeoutAndStopCloseWith1001() throws Exception {
        Router r = new Router().websocket("/ws", ECHO);
        LoomServer short1 = TestServers.start(r, c -> c.webSocket(WebSocketSettings.DEFAULTS.withIdleTimeout(java.time.Duration.ofMillis(300))));
        try (RawWebSocket ws = new RawWebSocket(short1.port())) {
            assertEquals(101, ws.handshake("/ws", "").status());
            RawWebSocket.Frame f = ws.frame();
            assertEquals(1001, f.closeCode());
            assertEquals("idle timeout", new String(f.payload(), 2, f.payload().length - 2, StandardCharsets.UTF_8));
        } finally {
            short1.close();
        }
        LoomServer stopping = TestServers.start(new Router().websocket("/ws", ECHO));
        try (RawWebSocket ws = new RawWebSocket(stopping.port())) {
            assertEquals(101, ws.handshake("/ws", "").status());
            Thread stopper = Thread.ofVirtual().start(stopping::close);
            RawWebSocket.Frame f = ws.frame();
            assertEquals(1001, f.closeCode());
            ws.send(close(1001, ""));
            stopper.join(10_000);
        } finally {
            stopping.close();
        }
    }

    @Test
    void gracefulRestartClosesWith1001() throws Exception {
        Router r = new Router().websocket("/ws", ECHO);
        LoomServer restarting = TestServers.start(r);
        try (RawWebSocket ws = new RawWebSocket(restarting.port())) {
            assertEquals(101, ws.handshake("/ws", "").status());
            TestServers.waitFor("idle", 5,
                    () -> EngineStats.of(restarting.stats()).protocols().value("loom.websocket.open") == 1);
            restarting.restart(restarting.config(), new Router().websocket("/ws", ECHO));
            RawWebSocket.Frame f = ws.frame();
            assertEquals(1001, f.closeCode(), "the retiring child closes its idle WebSocket");
            ws.send(close(1001, ""));
            assertTrue(ws.closedByServer());
            // The new generation serves WebSockets.
            try (RawWebSocket next = new RawWebSocket(restarting.port())) {
                assertEquals(101, next.handshake("/ws", "").status());
                next.send(text("again"));
                assertEquals("again", next.frame().text());
            }
        } finally {
            restarting.close();
        }
    }

    @Test
    void serverPingsAnIdleSocketAndThePongReachesTheHandler() throws Exception {
        Queue<String> pongs = new ConcurrentLinkedQueue<>();
        Router r = new Router().websocket("/ws", new WebSocketHandler() {
            @Override
            public void onPong(WebSocketSession s, byte[] payload) {
                pongs.add("pong " + payload.length);
            }
        });
        LoomServer pinging = TestServers.start(r, c -> c.webSocket(WebSocketSettings.DEFAULTS
                .withPingInterval(java.time.Duration.ofMillis(200)).withIdleTimeout(java.time.Duration.ofSeconds(30))));
        try (RawWebSocket ws = new RawWebSocket(pinging.port())) {
            assertEquals(101, ws.handshake("/ws", "").status());
            for (int i = 0; i < 2; i++) {
                RawWebSocket.Frame ping = ws.frame();
                assertEquals(0x9, ping.opcode(), "a ping after WebSocketPingInterval of silence");
                ws.send(frame(0x8A, ping.payload()));
            }
            TestServers.waitFor("the pongs reach onPong", 5, () -> pongs.size() == 2);
            closeNormally(ws);
        } finally {
            pinging.close();
        }
    }
}
