package org.loommpm.http2.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.loommpm.api.Handler;
import org.loommpm.api.Router;
import org.loommpm.engine.ChildStats;
import org.loommpm.proxy.ProxyHandler;
import org.loommpm.testsupport.EchoSocket;
import org.loommpm.websocket.WebSocketEndpoint;
import org.loommpm.websocket.WebSocketHandler;

/**
 * WebSockets (and another protocol) from HTTP/2 clients through the proxy (RFC 8441 extended
 * CONNECT, {@code upgrade=}): a frame-level h2 client, a loom proxy, and a loom backend with a
 * {@code Router.websocket} echo route reached over HTTP/1.1 (or a raw backend). Echo of text,
 * binary and a message larger than every window, the subprotocol, a close from either side, a
 * reset, refusals relayed, the idle timeout, a slow client holding the backend back and a slow
 * backend holding the client back, idle tunnels holding no worker, the setting off.
 */
class ProxyTunnelOverHttp2Test {
    private final BlockingQueue<String> backendEvents = new LinkedBlockingQueue<>();
    private H2Server backend;
    private H2Server proxy;

    private final WebSocketHandler echo = new EchoSocket(backendEvents);

    @BeforeEach
    void startBackend() throws IOException {
        Router r = new Router()
                .filter((req, res, next) -> {
                    if (req.path().startsWith("/denied")) {
                        res.status(403).send("Forbidden");
                        return;
                    }
                    backendEvents.add(req.method() + " " + req.path() + " key=" + (req.header("Sec-WebSocket-Key") != null)
                            + " version=" + req.header("Sec-WebSocket-Version"));
                    if (req.path().equals("/slow")) {
                        Thread.sleep(1000); // the client resets its stream meanwhile
                    }
                    next.handle(req, res);
                })
                .get("/plain", (req, res) -> res.send("plain"))
                .websocket("/echo", echo)
                .websocket("/slow", echo)
                .websocket("/sub", WebSocketEndpoint.of(echo).withSubprotocols("v2"))
                .websocket("/denied/ws", echo);
        backend = H2Server.start(r);
    }

    @AfterEach
    void stop() {
        for (H2Server s : new H2Server[] {proxy, backend}) {
            if (s != null) {
                s.close();
            }
        }
    }

    private int startProxy(ProxyHandler.Builder b) throws IOException {
        return startProxy(b.build(), false);
    }

    private int startProxy(Handler h, boolean settingOff) throws IOException {
        proxy = H2Server.start(h, s -> s.withEnableConnectProtocol(!settingOff),
                c -> c.gracefulShutdownTimeout(Duration.ofSeconds(1)));
        return proxy.port();
    }

    private ProxyHandler.Builder toBackend() {
        return ProxyHandler.builder("/", "http://127.0.0.1:" + backend.port() + "/");
    }

    private static H2WebSockets client(int port) throws IOException {
        H2WebSockets c = new H2WebSockets(port);
        c.c.socket().setSoTimeout(20_000);
        return c;
    }

    private long tunnelsOpen() {
        return proxy.stats().proxyTunnelsOpen();
    }

    private String nextEvent() throws InterruptedException {
        String e = backendEvents.poll(20, TimeUnit.SECONDS);
        assertNotNull(e, "no backend event in time");
        return e;
    }

    /** An ordinary request on stream {@code id} is proxied as ever. */
    private static void assertTheConnectionGoesOn(H2WebSockets c, int id) throws IOException {
        c.c.headers(id, true, FrameClient.get("/plain"));
        assertEquals("plain", c.response(id).text());
    }

    @Test
    void textBinaryAndTheClientsCloseGoThrough() throws Exception {
        int port = startProxy(toBackend().upgrade("websocket"));
        try (H2WebSockets c = client(port)) {
            assertEquals(1L, c.serverSettings.get(0x8), "the proxy announces SETTINGS_ENABLE_CONNECT_PROTOCOL");
            H2WebSockets.Ws w = c.open(1, "/echo");
            assertEquals(200, w.status());
            assertNull(w.head.get("sec-websocket-accept"), "the backend's accept is for the proxy's key");
            assertNull(w.head.get("upgrade"));
            assertFalse(w.endStream);
            // RFC 8441 §5: the backend got an HTTP/1.1 GET with a key of the proxy's and the client's version.
            assertEquals("GET /echo key=true version=13", nextEvent());
            TestWait.until("the tunnel counted", 20, () -> tunnelsOpen() == 1);

            c.send(w, ClientFrames.text("hello through the proxy"));
            assertEquals("hello through the proxy", c.next(w).text());
            byte[] bin = {0, 1, 2, (byte) 0xff};
            c.send(w, ClientFrames.frame(0x82, bin));
            H2WebSockets.WsFrame b = c.next(w);
            assertEquals(2, b.opcode());
            assertArrayEquals(bin, b.payload());

            c.send(w, ClientFrames.close(1000, "done"));
            H2WebSockets.WsFrame close = c.next(w);
            assertEquals(8, close.opcode());
            assertEquals(1000, close.closeCode());
            c.awaitEnd(w);
            assertTrue(w.endStream, "the backend's end of stream became END_STREAM");
            assertTrue(w.rst < 0, "not reset");
            c.sendData(w, new byte[0], true);
            assertEquals("close 1000", nextEvent());
            TestWait.until("the tunnel ended", 20, () -> tunnelsOpen() == 0);
            // The connection goes on.
            assertTheConnectionGoesOn(c, 3);
        }
        assertEquals(1, proxy.stats().proxyTunnelsOpened());
    }

    @Test
    void theSubprotocolIsPassedBothWays() throws Exception {
        int port = startProxy(toBackend().upgrade("websocket"));
        try (H2WebSockets c = client(port)) {
            H2WebSockets.Ws w = c.open(1, "/sub", "sec-websocket-protocol", "v1, v2");
            assertEquals(200, w.status());
            assertEquals("v2", w.head.get("sec-websocket-protocol"));
            c.send(w, ClientFrames.text("sub"));
            assertEquals("sub", c.next(w).text());
        }
    }

    @Test
    void theBackendsCloseReachesTheClient() throws Exception {
        int port = startProxy(toBackend().upgrade("websocket"));
        try (H2WebSockets c = client(port)) {
            H2WebSockets.Ws w = c.open(1, "/echo");
            assertEquals("GET /echo key=true version=13", nextEvent());
            c.send(w, ClientFrames.text("close:4001"));
            H2WebSockets.WsFrame close = c.next(w);
            assertEquals(8, close.opcode());
            assertEquals(4001, close.closeCode());
            c.send(w, ClientFrames.close(4001, ""));
            c.awaitEnd(w);
            assertTrue(w.endStream);
            c.sendData(w, new byte[0], true);
            assertEquals("close 4001", nextEvent());
            TestWait.until("the tunnel ended", 20, () -> tunnelsOpen() == 0);
        }
    }

    @Test
    void aResetClosesTheBackend() throws Exception {
        int port = startProxy(toBackend().upgrade("websocket"));
        try (H2WebSockets c = client(port)) {
            H2WebSockets.Ws w = c.open(1, "/echo");
            assertEquals("GET /echo key=true version=13", nextEvent());
            c.send(w, ClientFrames.text("one"));
            assertEquals("one", c.next(w).text());
            c.c.rst(1, 0x8);
            assertEquals("close 1006", nextEvent(), "the backend lost its connection without a close frame");
            TestWait.until("the tunnel ended", 20, () -> tunnelsOpen() == 0);
            assertTheConnectionGoesOn(c, 3);
        }
    }

    /** The client resets its stream before the backend's 101 arrives: the backend connection is closed, not kept. */
    @Test
    void aStreamResetBeforeTheBackendAnswersLeavesNothingOpen() throws Exception {
        int port = startProxy(toBackend().upgrade("websocket"));
        try (H2WebSockets c = client(port)) {
            c.c.headers(1, false, H2WebSockets.connect("/slow"));
            assertEquals("GET /slow key=true version=13", nextEvent());
            c.c.rst(1, 0x8);
            assertEquals("close 1006", nextEvent(), "the backend's socket was closed by the proxy");
            TestWait.until("no tunnel left", 20, () -> tunnelsOpen() == 0);
            assertTheConnectionGoesOn(c, 3);
        }
    }

    @Test
    void refusalsAreRelayedAsTheStreamsResponse() throws Exception {
        int port = startProxy(toBackend().upgrade("websocket"));
        try (H2WebSockets c = client(port)) {
            H2WebSockets.Ws denied = c.open(1, "/denied/ws");
            assertEquals(403, denied.status());
            c.awaitEnd(denied);
            assertEquals("Forbidden", denied.in.toString(StandardCharsets.UTF_8));
            H2WebSockets.Ws version = c.openWith(3, ":method", "CONNECT", ":protocol", "websocket",
                    ":scheme", "http", ":path", "/echo", ":authority", "localhost", "sec-websocket-version", "8");
            assertEquals(426, version.status());
            assertEquals("13", version.head.get("sec-websocket-version"));
            assertEquals(404, c.open(5, "/nowhere").status());
            // A backend answering 200 instead of switching: a 200 would tell the client the tunnel opened.
            assertEquals(502, c.open(7, "/plain").status());
            // A protocol the route does not pass: 501, and nothing reaches the backend as a CONNECT.
            H2WebSockets.Ws other = c.openWith(9, ":method", "CONNECT", ":protocol", "chat", ":scheme", "http",
                    ":path", "/echo", ":authority", "localhost");
            assertEquals(501, other.status());
            assertEquals(0, tunnelsOpen());
        }
    }

    @Test
    void withoutUpgradeAnExtendedConnectIsNotImplemented() throws Exception {
        int port = startProxy(toBackend());
        try (H2WebSockets c = client(port)) {
            assertEquals(501, c.open(1, "/echo").status());
            assertTheConnectionGoesOn(c, 3);
        }
    }

    @Test
    void withTheSettingOffNothingChanges() throws Exception {
        int port = startProxy(toBackend().upgrade("websocket").build(), true);
        try (H2WebSockets c = client(port)) {
            assertEquals(0L, c.serverSettings.get(0x8));
            assertEquals(1, c.open(1, "/echo").rst, ":protocol without the setting: PROTOCOL_ERROR");
            assertTheConnectionGoesOn(c, 3);
        }
    }

    /**
     * 300 KB each way, larger than every window: the client grants nothing at first, so the proxy
     * stops at the stream's window and its queue fills (the backend is no longer read); granted,
     * the whole message arrives.
     */
    @Test
    void aLargeMessageGoesWithinTheWindowsAndASlowClientHoldsItBack() throws Exception {
        int port = startProxy(toBackend().upgrade("websocket"));
        try (H2WebSockets c = client(port)) {
            H2WebSockets.Ws w = c.open(1, "/echo");
            byte[] big = new byte[300_000];
            new Random(7).nextBytes(big);
            c.autoWindow = false;
            c.send(w, ClientFrames.frame(0x82, big)); // waits in the helper for the proxy's window
            c.c.socket().setSoTimeout(300);
            long until = System.nanoTime() + Duration.ofMillis(1500).toNanos();
            while (System.nanoTime() < until) {
                try {
                    c.pump();
                } catch (java.net.SocketTimeoutException e) {
                    // nothing more: the proxy waits for window
                }
            }
            c.c.socket().setSoTimeout(20_000);
            assertTrue(w.in.size() <= 65_535, "the proxy stayed within the window: " + w.in.size());
            c.autoWindow = true;
            c.grant(w, w.in.size());
            H2WebSockets.WsFrame f = c.next(w);
            assertArrayEquals(big, f.payload());
            c.send(w, ClientFrames.text("after"));
            assertEquals("after", c.next(w).text());
        }
    }

    /** Nothing either way for ProxyTimeout: the stream is reset and the backend closed; idle, it held no worker. */
    @Test
    void anIdleTunnelHoldsNoWorkerAndEndsAfterProxyTimeout() throws Exception {
        int port = startProxy(toBackend().upgrade("websocket").timeout(Duration.ofSeconds(3)));
        try (H2WebSockets c = client(port)) {
            H2WebSockets.Ws w = c.open(1, "/echo");
            c.send(w, ClientFrames.text("once"));
            assertEquals("once", c.next(w).text());
            long lastByte = System.nanoTime();
            ChildStats child = proxy.supervisor().children().get(0);
            TestWait.until("no worker held, the connection detached, the tunnel open", 20, () -> child.activeWorkers() == 0
                    && child.detachedConnections() == 1 && tunnelsOpen() == 1 && w.rst < 0);
            c.awaitEnd(w);
            assertEquals(0x8, w.rst, "RST_STREAM(CANCEL) at the idle timeout");
            assertTrue(System.nanoTime() - lastByte > Duration.ofMillis(2500).toNanos(), "not before ProxyTimeout");
            TestWait.until("the tunnel ended", 20, () -> tunnelsOpen() == 0);
            assertTheConnectionGoesOn(c, 3);
        }
    }

    /**
     * A graceful stop does not end a relay early (as for an HTTP/1.1 tunnel): GOAWAY goes out, the
     * tunnel still works, and once GracefulShutdownTimeout has passed the connection is closed
     * and the backend with it.
     */
    @Test
    void aStopClosesTheTunnelAfterGracefulShutdownTimeout() throws Exception {
        int port = startProxy(toBackend().upgrade("websocket"));
        try (H2WebSockets c = client(port)) {
            H2WebSockets.Ws w = c.open(1, "/echo");
            assertEquals("GET /echo key=true version=13", nextEvent());
            H2Server stopping = proxy;
            Thread stopper = Thread.ofPlatform().start(stopping::stop);
            while (c.goAways.isEmpty()) {
                c.pump();
            }
            c.send(w, ClientFrames.text("still there"));
            assertEquals("still there", c.next(w).text());
            assertTrue(c.closedByServer(), "closed after GracefulShutdownTimeout");
            assertEquals("close 1006", nextEvent());
            stopper.join(20_000);
            assertFalse(stopper.isAlive());
            assertEquals(0, stopping.stats().proxyTunnelsOpen());
            proxy = null;
        }
    }

    /** {@code upgrade=*} with another protocol, bytes both ways, and the client's END_STREAM as a half-close. */
    @Test
    void anyProtocolWithHalfClose() throws Exception {
        try (RawBackend raw = new RawBackend(false)) {
            proxy = H2Server.start(ProxyHandler.builder("/", raw.url()).upgrade("*").build());
            try (H2WebSockets c = client(proxy.port())) {
                H2WebSockets.Ws w = c.openWith(1, ":method", "CONNECT", ":protocol", "echo/1", ":scheme", "http",
                        ":path", "/x", ":authority", "localhost");
                assertEquals(200, w.status());
                assertEquals("GET /x upgrade=echo/1", raw.requestLine.get(10, TimeUnit.SECONDS));
                assertEquals("hello;", read(c, w, 6));
                c.sendData(w, "ping;".getBytes(StandardCharsets.US_ASCII), false);
                assertEquals("ping;", read(c, w, 5));
                c.sendData(w, "last".getBytes(StandardCharsets.US_ASCII), true);
                assertEquals("lastbye", read(c, w, 7));
                c.awaitEnd(w);
                assertTrue(w.endStream && w.rst < 0, "ended cleanly");
                TestWait.until("the tunnel ended", 20, () -> tunnelsOpen() == 0);
            }
        }
    }

    /**
     * A backend that reads nothing: the proxy's write to it waits, the bytes it holds are not
     * consumed, and the client gets no more window; once the backend reads, the rest goes.
     */
    @Test
    void aSlowBackendHoldsTheClientBack() throws Exception {
        try (RawBackend raw = new RawBackend(true)) {
            proxy = H2Server.start(ProxyHandler.builder("/", raw.url()).upgrade("*").build());
            try (H2WebSockets c = client(proxy.port())) {
                H2WebSockets.Ws w = c.openWith(1, ":method", "CONNECT", ":protocol", "echo/1", ":scheme", "http",
                        ":path", "/x", ":authority", "localhost");
                assertEquals(200, w.status());
                byte[] chunk = new byte[16_384];
                c.c.socket().setSoTimeout(2000);
                try {
                    for (;;) {
                        c.sendData(w, chunk, false); // waits in the helper for window: times out once none comes
                        if (w.sent > 256L * 1024 * 1024) {
                            throw new AssertionError("the proxy kept granting window to a backend that reads nothing");
                        }
                    }
                } catch (java.net.SocketTimeoutException e) {
                    // no window for 2 s: held back
                }
                assertEquals(0, raw.received.get(), "held back after " + w.sent + " bytes");
                raw.reading.complete(null);
                c.c.socket().setSoTimeout(20_000);
                for (int i = 0; i < 16; i++) {
                    c.sendData(w, chunk, false);
                }
                TestWait.until("the backend got every byte", 20, () -> raw.received.get() == w.sent);
            }
        }
    }

    private static String read(H2WebSockets c, H2WebSockets.Ws w, int n) throws IOException {
        while (w.in.size() - w.readPos < n) {
            if (w.endStream || w.rst >= 0) {
                throw new IOException("stream ended with " + (w.in.size() - w.readPos) + " bytes");
            }
            c.pump();
        }
        String s = new String(w.in.toByteArray(), w.readPos, n, StandardCharsets.US_ASCII);
        w.readPos += n;
        return s;
    }

    /**
     * A backend answering any {@code Upgrade} with a 101 for it: it sends {@code hello;}, echoes,
     * and on the client's end of stream sends {@code bye} and closes; or ({@code stalling}) reads
     * nothing behind the 101 until {@link #reading} completes, then counts what it reads.
     */
    static final class RawBackend implements AutoCloseable {
        final CompletableFuture<String> requestLine = new CompletableFuture<>();
        final CompletableFuture<Void> reading = new CompletableFuture<>();
        final AtomicLong received = new AtomicLong();
        private final ServerSocket server;

        RawBackend(boolean stalling) throws IOException {
            server = new ServerSocket();
            server.setReceiveBufferSize(4096); // a small window toward it, so its not reading shows soon
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            Thread.ofVirtual().start(() -> {
                while (!server.isClosed()) {
                    try {
                        Socket s = server.accept();
                        Thread.ofVirtual().start(() -> serve(s, stalling));
                    } catch (IOException e) {
                        return;
                    }
                }
            });
        }

        String url() {
            return "http://127.0.0.1:" + server.getLocalPort() + "/";
        }

        private void serve(Socket s, boolean stalling) {
            try (s) {
                InputStream in = s.getInputStream();
                OutputStream out = s.getOutputStream();
                StringBuilder head = new StringBuilder();
                while (!head.toString().endsWith("\r\n\r\n")) {
                    int b = in.read();
                    if (b < 0) {
                        return;
                    }
                    head.append((char) b);
                }
                String upgrade = null;
                for (String line : head.toString().split("\r\n")) {
                    if (line.toLowerCase().startsWith("upgrade:")) {
                        upgrade = line.substring(8).trim();
                    }
                }
                requestLine.complete(head.substring(0, head.indexOf(" HTTP/1.1")) + " upgrade=" + upgrade);
                out.write(("HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: " + upgrade
                        + "\r\n\r\nhello;").getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
                byte[] buf = new byte[16_384];
                if (stalling) {
                    reading.get();
                    int n;
                    while ((n = in.read(buf)) > 0) {
                        received.addAndGet(n);
                    }
                    return;
                }
                int n;
                while ((n = in.read(buf)) > 0) {
                    out.write(buf, 0, n);
                    out.flush();
                }
                out.write("bye".getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
            } catch (Exception e) {
                // the test sees what it sees
            }
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }
}
