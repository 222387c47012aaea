package org.loommpm.http2.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.zip.Inflater;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.loommpm.api.Router;
import org.loommpm.config.Http2Settings;
import org.loommpm.engine.ChildStats;
import org.loommpm.websocket.WebSocketEndpoint;
import org.loommpm.websocket.WebSocketHandler;
import org.loommpm.websocket.WebSocketSession;

/**
 * WebSockets over HTTP/2 streams (RFC 8441) with a frame-level client: the setting announced,
 * the extended CONNECT accepted on the WebSocket route (echo of text, binary, fragments, ping,
 * the close handshake, permessage-deflate), refusals and malformed requests, a reset mid-session,
 * flow control both ways with a message larger than the window, idle sockets holding no worker,
 * several sockets and ordinary requests on one connection, and a graceful stop closing with 1001.
 */
class WebSocketOverHttp2Test {
    private H2Server server;
    private final LinkedBlockingQueue<WebSocketSession> opened = new LinkedBlockingQueue<>();
    private final LinkedBlockingQueue<Integer> closes = new LinkedBlockingQueue<>();

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private final WebSocketHandler echo = new WebSocketHandler() {
        @Override
        public void onOpen(WebSocketSession s) {
            opened.add(s);
        }

        @Override
        public void onText(WebSocketSession s, String text) {
            s.sendText(text);
        }

        @Override
        public void onBinary(WebSocketSession s, byte[] data) {
            s.sendBinary(data);
        }

        @Override
        public void onClose(WebSocketSession s, int code, String reason) {
            closes.add(code);
        }
    };

    private int start(java.util.function.UnaryOperator<Http2Settings> limits,
                      java.util.function.UnaryOperator<org.loommpm.config.ServerConfig.Builder> engine)
            throws java.io.IOException {
        Router router = new Router()
                .get("/ping", (req, res) -> res.send("pong"))
                .websocket("/echo", echo)
                .websocket("/strict", WebSocketEndpoint.of(echo).withSubprotocols("v2")
                        .withOriginCheck(o -> "https://good.example".equals(o)));
        server = H2Server.start(router, limits, engine);
        return server.port();
    }

    private int start() throws java.io.IOException {
        return start(s -> s, b -> b);
    }

    private ChildStats child() {
        return server.supervisor().children().get(0);
    }

    private static void waitFor(String what, BooleanSupplier cond) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!cond.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("timed out waiting for: " + what);
            }
            Thread.sleep(5);
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void settingAnnouncedAndSwitchable() throws Exception {
        int port = start();
        try (H2WebSockets c = new H2WebSockets(port)) {
            assertEquals(1L, c.serverSettings.get(0x8), "SETTINGS_ENABLE_CONNECT_PROTOCOL");
        }
        server.close();
        port = start(s -> s.withEnableConnectProtocol(false), b -> b);
        try (H2WebSockets c = new H2WebSockets(port)) {
            assertEquals(0L, c.serverSettings.get(0x8));
            H2WebSockets.Ws w = c.open(1, "/echo");
            assertEquals(1, w.rst, ":protocol without the setting: PROTOCOL_ERROR");
        }
    }

    /**
     * A tunnel opened before the client had the server's SETTINGS: the client counts the smaller
     * announced H2WindowSize for it once they arrive (RFC 9113 §6.9.2), so credit must come back
     * before the 65,535 bytes the server assumed for the stream (FlowControlTest, for a body).
     */
    @Test
    void windowIsReturnedWhenTheAnnouncedWindowIsSmallerThanTheDefault() throws Exception {
        int port = start(s -> s.withWindowSize(16_384), b -> b);
        try (FrameClient c = new FrameClient(port)) {
            c.raw(FrameClient.PREFACE);
            c.settings();
            c.headers(1, false, H2WebSockets.connect("/echo"));
            c.expect(FrameClient.SETTINGS);
            c.frame(FrameClient.SETTINGS, FrameClient.ACK, 0, new byte[0]);
            FrameClient.Frame head = c.read();
            while (head.type() != FrameClient.HEADERS) {
                head = c.read();
            }
            assertEquals("200", c.fields(head).get(":status"));
            c.data(1, ClientFrames.frame(0x82, new byte[16_384 - 8]), false); // the stream's whole window
            int increment = 0;
            while (increment == 0) {
                FrameClient.Frame f = c.read();
                if (f.type() == FrameClient.WINDOW_UPDATE && f.stream() == 1) {
                    increment = f.int32(0);
                }
            }
            assertTrue(increment >= 8_192, "increment " + increment);
        }
    }

    @Test
    void echoFragmentsPingAndCloseHandshake() throws Exception {
        int port = start();
        try (H2WebSockets c = new H2WebSockets(port)) {
            H2WebSockets.Ws w = c.open(1, "/echo");
            assertEquals(200, w.status());
            assertNull(w.head.get("sec-websocket-accept"));
            assertFalse(w.endStream);
            WebSocketSession session = opened.poll(5, TimeUnit.SECONDS);
            assertEquals("/echo", session.path());

            c.send(w, ClientFrames.text("hello over h2"));
            assertEquals("hello over h2", c.next(w).text());

            byte[] bin = {0, 1, 2, (byte) 0xff};
            c.send(w, ClientFrames.frame(0x82, bin));
            H2WebSockets.WsFrame b = c.next(w);
            assertEquals(2, b.opcode());
            assertArrayEquals(bin, b.payload());

            // Fragmented, with a ping between the fragments: the pong comes first.
            c.send(w, ClientFrames.frame(0x01, bytes("frag")));
            c.send(w, ClientFrames.frame(0x89, bytes("p")));
            c.send(w, ClientFrames.frame(0x80, bytes("mented")));
            H2WebSockets.WsFrame pong = c.next(w);
            assertEquals(0xA, pong.opcode());
            assertEquals("p", pong.text());
            assertEquals("fragmented", c.next(w).text());

            // The close handshake, then END_STREAM both ways.
            c.send(w, ClientFrames.close(1000, "done"));
            H2WebSockets.WsFrame close = c.next(w);
            assertEquals(8, close.opcode());
            assertEquals(1000, close.closeCode());
            c.awaitEnd(w);
            assertTrue(w.endStream, "END_STREAM after the close frame");
            c.sendData(w, new byte[0], true);
            assertEquals(1000, closes.poll(5, TimeUnit.SECONDS));
            assertFalse(session.isOpen());
            assertFalse(session.sendText("late"), "a send after the close is refused");
            // The connection goes on.
            c.c.headers(3, true, FrameClient.get("/ping"));
            assertEquals("pong", c.response(3).text());
        }
        waitFor("the socket counted as closed", () -> server.stats().webSocketsOpen() == 0);
        assertEquals(1, server.stats().webSocketsOpened());
    }

    @Test
    void deflateNegotiatedAndSubprotocol() throws Exception {
        int port = start();
        try (H2WebSockets c = new H2WebSockets(port)) {
            H2WebSockets.Ws w = c.open(1, "/strict", "origin", "https://good.example", "sec-websocket-protocol", "v1, v2",
                    "sec-websocket-extensions", "permessage-deflate; client_max_window_bits");
            assertEquals(200, w.status());
            assertEquals("v2", w.head.get("sec-websocket-protocol"));
            assertTrue(w.head.get("sec-websocket-extensions").startsWith("permessage-deflate"));
            String text = "compressible ".repeat(50);
            c.send(w, ClientFrames.frame(0xC1, ClientFrames.deflate(bytes(text))));
            H2WebSockets.WsFrame f = c.next(w);
            assertTrue(f.rsv1(), "the echo is compressed");
            assertEquals(text, inflate(f.payload()));
        }
    }

    private static String inflate(byte[] z) throws Exception {
        Inflater inf = new Inflater(true);
        byte[] in = Arrays.copyOf(z, z.length + 4);
        in[z.length + 2] = (byte) 0xff;
        in[z.length + 3] = (byte) 0xff;
        inf.setInput(in);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[4096];
        int n;
        while ((n = inf.inflate(buf)) > 0) {
            out.write(buf, 0, n);
        }
        inf.end();
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void refusalsAndMalformedRequests() throws Exception {
        int port = start();
        try (H2WebSockets c = new H2WebSockets(port)) {
            H2WebSockets.Ws v = c.open(1, "/echo");
            H2WebSockets.Ws version = c.openWith(3, ":method", "CONNECT", ":protocol", "websocket",
                    ":scheme", "http", ":path", "/echo", ":authority", "localhost", "sec-websocket-version", "8");
            assertEquals(426, version.status());
            assertEquals("13", version.head.get("sec-websocket-version"));
            assertEquals(403, c.open(5, "/strict", "origin", "https://evil.example").status());
            assertEquals(404, c.open(7, "/nowhere").status());
            H2WebSockets.Ws other = c.openWith(9, ":method", "CONNECT", ":protocol", "chat", ":scheme", "http",
                    ":path", "/echo", ":authority", "localhost", "sec-websocket-version", "13");
            assertEquals(400, other.status());
            // Malformed extended CONNECT: stream errors, the connection goes on.
            assertEquals(1, c.openWith(11, ":method", "CONNECT", ":protocol", "websocket", ":scheme", "http",
                    ":authority", "localhost").rst, "no :path");
            assertEquals(1, c.openWith(13, ":method", "GET", ":protocol", "websocket", ":scheme", "http",
                    ":path", "/echo", ":authority", "localhost").rst, ":protocol on GET");
            // A plain GET on the route over HTTP/2: not a WebSocket request.
            c.c.headers(15, true, FrameClient.get("/echo"));
            assertEquals(426, c.response(15).status());
            c.c.headers(17, true, FrameClient.get("/ping"));
            assertEquals("pong", c.response(17).text());
            assertEquals(200, v.status());
        }
    }

    @Test
    void resetMidSessionEndsIt() throws Exception {
        int port = start();
        try (H2WebSockets c = new H2WebSockets(port)) {
            H2WebSockets.Ws w = c.open(1, "/echo");
            WebSocketSession session = opened.poll(5, TimeUnit.SECONDS);
            c.send(w, ClientFrames.text("one"));
            assertEquals("one", c.next(w).text());
            c.c.rst(1, 0x8);
            assertEquals(1006, closes.poll(5, TimeUnit.SECONDS), "abnormal closure, as a lost HTTP/1.1 connection");
            waitFor("the session sees it", () -> !session.isOpen());
            assertFalse(session.sendText("gone"));
            c.c.headers(3, true, FrameClient.get("/ping"));
            assertEquals("pong", c.response(3).text());
        }
    }

    /** The API's promise: a socket's callbacks never overlap, and onClose is the last, also after a reset. */
    @Test
    void resetDuringACallbackDefersOnCloseUntilItReturns() throws Exception {
        java.util.concurrent.CountDownLatch inText = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        LinkedBlockingQueue<String> order = new LinkedBlockingQueue<>();
        Router router = new Router().websocket("/slow", new WebSocketHandler() {
            @Override
            public void onText(WebSocketSession s, String text) throws Exception {
                inText.countDown();
                release.await(10, TimeUnit.SECONDS);
                order.add("text returned");
            }

            @Override
            public void onClose(WebSocketSession s, int code, String reason) {
                order.add("close " + code);
            }
        });
        server = H2Server.start(router, s -> s, b -> b);
        try (H2WebSockets c = new H2WebSockets(server.port())) {
            H2WebSockets.Ws w = c.open(1, "/slow");
            c.send(w, ClientFrames.text("hold"));
            assertTrue(inText.await(5, TimeUnit.SECONDS));
            c.c.rst(1, 0x8);
            assertNull(order.poll(500, TimeUnit.MILLISECONDS), "onClose while onText still runs");
            release.countDown();
            assertEquals("text returned", order.poll(5, TimeUnit.SECONDS));
            assertEquals("close 1006", order.poll(5, TimeUnit.SECONDS));
        }
    }

    @Test
    void connectionLossEndsEverySocket() throws Exception {
        int port = start();
        H2WebSockets c = new H2WebSockets(port);
        c.open(1, "/echo");
        c.open(3, "/echo");
        c.close();
        assertEquals(1006, closes.poll(5, TimeUnit.SECONDS));
        assertEquals(1006, closes.poll(5, TimeUnit.SECONDS));
        waitFor("none open", () -> server.stats().webSocketsOpen() == 0);
    }

    /** A 300 KB message both ways: the client waits for the server's window, the server for the client's. */
    @Test
    void largeMessageRespectsFlowControl() throws Exception {
        int port = start();
        try (H2WebSockets c = new H2WebSockets(port)) {
            H2WebSockets.Ws w = c.open(1, "/echo");
            byte[] big = new byte[300_000];
            new java.util.Random(7).nextBytes(big);
            c.autoWindow = false;
            c.send(w, ClientFrames.frame(0x82, big)); // blocks in the helper until the server grants window
            // Nothing granted yet: the server stops at the stream's initial window (65,535).
            long deadline = System.nanoTime() + Duration.ofMillis(500).toNanos();
            c.c.socket().setSoTimeout(200);
            while (System.nanoTime() < deadline) {
                try {
                    c.pump();
                } catch (java.net.SocketTimeoutException e) {
                    break;
                }
            }
            c.c.socket().setSoTimeout(5000);
            assertTrue(w.in.size() <= 65_535, "the server stayed within the window: " + w.in.size());
            c.autoWindow = true;
            c.grant(w, w.in.size());
            H2WebSockets.WsFrame f = c.next(w);
            assertArrayEquals(big, f.payload());
        }
    }

    /**
     * Five idle sockets on one connection: no worker is held and the connection waits DETACHED
     * with no buffer; a broadcast from the test thread reaches every socket.
     */
    @Test
    void idleSocketsHoldNoWorkerAndTakeSendsFromAnyThread() throws Exception {
        int port = start(s -> s, b -> b.threadsPerChild(4));
        try (H2WebSockets c = new H2WebSockets(port)) {
            List<H2WebSockets.Ws> ws = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                H2WebSockets.Ws w = c.open(1 + 2 * i, "/echo");
                c.send(w, ClientFrames.text("hi " + i));
                assertEquals("hi " + i, c.next(w).text());
                ws.add(w);
            }
            waitFor("no worker held, the connection detached with no buffer", () -> child().activeWorkers() == 0
                    && child().detachedConnections() == 1 && child().contextsHeld() == 0);
            assertEquals(5, server.stats().webSocketsOpen());
            List<WebSocketSession> sessions = new ArrayList<>();
            opened.drainTo(sessions);
            for (WebSocketSession s : sessions) {
                assertTrue(s.sendText("broadcast"));
            }
            for (H2WebSockets.Ws w : ws) {
                assertEquals("broadcast", c.next(w).text());
            }
        }
    }

    /** Three sockets and ordinary requests interleaved on one connection. */
    @Test
    void multiplexedWithRequests() throws Exception {
        int port = start();
        try (H2WebSockets c = new H2WebSockets(port)) {
            H2WebSockets.Ws a = c.open(1, "/echo");
            c.c.headers(3, true, FrameClient.get("/ping"));
            H2WebSockets.Ws b = c.open(5, "/echo");
            H2WebSockets.Ws d = c.open(7, "/echo");
            c.send(a, ClientFrames.text("a1"));
            c.send(b, ClientFrames.text("b1"));
            c.c.headers(9, true, FrameClient.get("/ping"));
            c.send(d, ClientFrames.text("d1"));
            c.send(a, ClientFrames.text("a2"));
            assertEquals("d1", c.next(d).text());
            assertEquals("a1", c.next(a).text());
            assertEquals("a2", c.next(a).text());
            assertEquals("b1", c.next(b).text());
            assertEquals("pong", c.response(3).text());
            assertEquals("pong", c.response(9).text());
            assertEquals(3, server.stats().webSocketsOpen());
        }
    }

    /** WebSocketPingInterval and WebSocketIdleTimeout apply to HTTP/2 sockets: pings, then close 1001 "idle timeout". */
    @Test
    void idleSocketIsPingedThenClosed() throws Exception {
        int port = start(s -> s, b -> b.webSocket(org.loommpm.config.WebSocketSettings.DEFAULTS
                .withIdleTimeout(Duration.ofMillis(600)).withPingInterval(Duration.ofMillis(200))));
        try (H2WebSockets c = new H2WebSockets(port)) {
            H2WebSockets.Ws w = c.open(1, "/echo");
            H2WebSockets.WsFrame f = c.next(w);
            assertEquals(9, f.opcode(), "a ping first");
            while (f.opcode() == 9) {
                f = c.next(w); // the client answers no pong: more pings, then the close
            }
            assertEquals(8, f.opcode());
            assertEquals(1001, f.closeCode());
            assertEquals("idle timeout", new String(f.payload(), 2, f.payload().length - 2, StandardCharsets.UTF_8));
            c.awaitEnd(w);
            assertTrue(w.endStream);
            c.sendData(w, new byte[0], true);
            assertEquals(1001, closes.poll(5, TimeUnit.SECONDS));
        }
    }

    /** A graceful stop closes each socket with 1001 then END_STREAM, and the connection with GOAWAY. */
    @Test
    void gracefulStopClosesWith1001() throws Exception {
        int port = start();
        try (H2WebSockets c = new H2WebSockets(port)) {
            H2WebSockets.Ws a = c.open(1, "/echo");
            H2WebSockets.Ws b = c.open(3, "/echo");
            waitFor("idle", () -> child().activeWorkers() == 0);
            Thread stopper = Thread.ofPlatform().start(server::stop);
            for (H2WebSockets.Ws w : List.of(a, b)) {
                H2WebSockets.WsFrame f = c.next(w);
                assertEquals(8, f.opcode());
                assertEquals(1001, f.closeCode());
                c.awaitEnd(w);
                c.send(w, ClientFrames.close(1001, ""));
                c.sendData(w, new byte[0], true);
            }
            assertTrue(c.closedByServer());
            assertFalse(c.goAways.isEmpty(), "GOAWAY");
            stopper.join(15_000);
            server = null;
            assertEquals(1001, closes.poll(5, TimeUnit.SECONDS));
            assertEquals(1001, closes.poll(5, TimeUnit.SECONDS));
        }
    }
}
