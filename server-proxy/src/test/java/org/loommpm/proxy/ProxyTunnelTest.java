package org.loommpm.proxy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.loommpm.server.LoomServer;
import org.loommpm.api.Router;
import org.loommpm.engine.EngineStats;
import org.loommpm.testsupport.EchoSocket;
import org.loommpm.websocket.WebSocketHandler;

/**
 * Upgrades through the proxy ({@code upgrade=}): the JDK's WebSocket client, the proxy, and a
 * loom backend with a {@code Router.websocket} echo route; raw sockets for an arbitrary protocol
 * ({@code upgrade=*}), half-closes, the idle timeout and a backend that dies.
 */
class ProxyTunnelTest {
    static final BlockingQueue<String> BACKEND_EVENTS = new LinkedBlockingQueue<>();
    static LoomServer backend;
    static LoomServer proxy;
    static LoomServer plainProxy;

    static final WebSocketHandler ECHO = new EchoSocket(BACKEND_EVENTS);

    @BeforeAll
    static void start() throws IOException {
        Router r = new Router()
                .filter((req, res, next) -> {
                    if (req.path().startsWith("/denied")) {
                        res.status(403).send("Forbidden");
                    } else {
                        next.handle(req, res);
                    }
                })
                .websocket("/echo", ECHO)
                .websocket("/denied/ws", ECHO);
        backend = Backends.start(r);
        proxy = Backends.start(ProxyHandler.builder("/", Backends.url(backend)).upgrade("websocket").build());
        plainProxy = Backends.start(ProxyHandler.to(Backends.url(backend)));
    }

    @BeforeEach
    void forgetEarlierEvents() {
        BACKEND_EVENTS.clear();
    }

    @AfterAll
    static void stop() {
        for (LoomServer s : new LoomServer[] {proxy, plainProxy, backend}) {
            if (s != null) {
                s.stop(Duration.ofSeconds(2));
            }
        }
    }

    /** Collects what the client receives. */
    static final class Listener implements WebSocket.Listener {
        final BlockingQueue<Object> got = new LinkedBlockingQueue<>();
        private final StringBuilder text = new StringBuilder();
        private final ByteArrayOutputStream binary = new ByteArrayOutputStream();

        @Override
        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            text.append(data);
            if (last) {
                got.add(text.toString());
                text.setLength(0);
            }
            ws.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onBinary(WebSocket ws, ByteBuffer data, boolean last) {
            byte[] b = new byte[data.remaining()];
            data.get(b);
            binary.writeBytes(b);
            if (last) {
                got.add(binary.toByteArray());
                binary.reset();
            }
            ws.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket ws, int code, String reason) {
            got.add("closed " + code);
            return null;
        }

        @Override
        public void onError(WebSocket ws, Throwable error) {
            got.add(error);
        }

        Object next() throws InterruptedException {
            Object o = got.poll(20, TimeUnit.SECONDS);
            assertNotNull(o, "nothing received in time");
            return o;
        }
    }

    static WebSocket open(LoomServer server, String path, Listener l) throws Exception {
        return HttpClient.newHttpClient().newWebSocketBuilder().connectTimeout(Duration.ofSeconds(5))
                .buildAsync(URI.create("ws://127.0.0.1:" + server.port() + path), l).get(20, TimeUnit.SECONDS);
    }

    static long tunnelsOpen(LoomServer s) {
        return EngineStats.of(s.stats()).protocols().value("loom.proxy.tunnels.open");
    }

    static void waitFor(String what, BooleanSupplier cond) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!cond.getAsBoolean()) {
            assertTrue(System.nanoTime() < end, "timed out waiting for " + what);
            Thread.sleep(20);
        }
    }

    @Test
    void textBinaryAndLargeMessagesEchoThroughTheTunnel() throws Exception {
        Listener l = new Listener();
        WebSocket ws = open(proxy, "/echo", l);
        waitFor("the tunnel counted", () -> tunnelsOpen(proxy) >= 1);
        ws.sendText("hello through the proxy", true).get(10, TimeUnit.SECONDS);
        assertEquals("hello through the proxy", l.next());
        byte[] bin = new byte[] {0, 1, 2, (byte) 255};
        ws.sendBinary(ByteBuffer.wrap(bin), true).get(10, TimeUnit.SECONDS);
        assertArrayEquals(bin, (byte[]) l.next());
        byte[] large = new byte[900 * 1024];
        new Random(7).nextBytes(large);
        ws.sendBinary(ByteBuffer.wrap(large), true).get(20, TimeUnit.SECONDS);
        assertArrayEquals(large, (byte[]) l.next());
        ws.sendClose(WebSocket.NORMAL_CLOSURE, "bye").get(10, TimeUnit.SECONDS);
        assertEquals("closed 1000", l.next());
        assertEquals("close 1000", BACKEND_EVENTS.poll(10, TimeUnit.SECONDS));
        waitFor("the tunnel ended", () -> tunnelsOpen(proxy) == 0);
    }

    @Test
    void theBackendClosingReachesTheClient() throws Exception {
        Listener l = new Listener();
        WebSocket ws = open(proxy, "/echo", l);
        ws.sendText("close:4001", true).get(10, TimeUnit.SECONDS);
        assertEquals("closed 4001", l.next()); // the JDK client answers the close frame itself
        assertEquals("close 4001", BACKEND_EVENTS.poll(10, TimeUnit.SECONDS));
        waitFor("the tunnel ended", () -> tunnelsOpen(proxy) == 0);
    }

    @Test
    void withoutUpgradeTheHandshakeIsNotPassedThrough() {
        ExecutionException e = assertThrows(ExecutionException.class, () -> open(plainProxy, "/echo", new Listener()));
        WebSocketHandshakeException h = assertInstanceOf(WebSocketHandshakeException.class, e.getCause());
        // The backend saw a GET without Upgrade: its handshake check refuses it.
        assertEquals(426, h.getResponse().statusCode());
    }

    @Test
    void aBackendRefusalIsRelayedAsAResponse() {
        ExecutionException e = assertThrows(ExecutionException.class, () -> open(proxy, "/denied/ws", new Listener()));
        WebSocketHandshakeException h = assertInstanceOf(WebSocketHandshakeException.class, e.getCause());
        assertEquals(403, h.getResponse().statusCode());
        assertEquals("Forbidden", h.getResponse().body());
    }

    @Test
    void aBackendThatDiesClosesTheClient() throws Exception {
        try (RawBackend raw = new RawBackend("websocket", RawBackend.Mode.DIE);
             LoomServer p = Backends.start(ProxyHandler.builder("/", raw.url()).upgrade("websocket").build())) {
            Listener l = new Listener();
            WebSocket ws = open(p, "/ws", l);
            ws.sendText("anything", true);
            Object end = l.next();
            assertTrue(end instanceof Throwable || "closed 1006".equals(end), "the client saw the end: " + end);
            waitFor("the tunnel ended", () -> tunnelsOpen(p) == 0);
        }
    }

    @Test
    void anyProtocolEchoesWithHalfClose() throws Exception {
        try (RawBackend raw = new RawBackend("echo/1", RawBackend.Mode.ECHO);
             LoomServer p = Backends.start(ProxyHandler.builder("/", raw.url()).upgrade("*").build());
             Socket s = new Socket(InetAddress.getLoopbackAddress(), p.port())) {
            s.setSoTimeout(20_000);
            OutputStream out = s.getOutputStream();
            out.write(("GET /x HTTP/1.1\r\nHost: t\r\nConnection: Upgrade\r\nUpgrade: echo/1\r\n\r\nearly;")
                    .getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = s.getInputStream();
            String head = readHead(in);
            assertTrue(head.startsWith("HTTP/1.1 101 "), head);
            assertTrue(head.toLowerCase().contains("upgrade: echo/1"), head);
            assertTrue(head.toLowerCase().contains("connection: upgrade"), head);
            assertEquals("hello;", readN(in, 6)); // the backend's bytes sent right behind its 101
            assertEquals("early;", readN(in, 6)); // the client's bytes sent right behind its request
            waitFor("the tunnel counted", () -> tunnelsOpen(p) == 1);
            byte[] big = new byte[300_000];
            new Random(3).nextBytes(big);
            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
                try {
                    out.write(big);
                    s.shutdownOutput(); // the half-close reaches the backend, which says bye and closes
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            assertArrayEquals(big, in.readNBytes(big.length));
            writer.get(20, TimeUnit.SECONDS);
            assertEquals("bye", readN(in, 3));
            assertEquals(-1, in.read());
            waitFor("the tunnel ended", () -> tunnelsOpen(p) == 0);
        }
    }

    @Test
    void idleTunnelsHoldNoWorkerSlot() throws Exception {
        int n = 20;
        try (RawBackend raw = new RawBackend("echo/1", RawBackend.Mode.ECHO);
             LoomServer p = Backends.start(ProxyHandler.builder("/", raw.url()).upgrade("*").build())) {
            java.util.List<Socket> sockets = new java.util.ArrayList<>();
            try {
                for (int i = 0; i < n; i++) {
                    Socket s = new Socket(InetAddress.getLoopbackAddress(), p.port());
                    sockets.add(s);
                    upgradeToEcho(s);
                }
                waitFor("every tunnel counted", () -> tunnelsOpen(p) == n);
                EngineStats stats = EngineStats.of(p.stats());
                waitFor("no worker slot held by the idle tunnels",
                        () -> stats.children().stream().mapToInt(c -> c.activeWorkers()).sum() == 0);
                assertTrue(stats.children().stream().mapToInt(c -> c.detachedConnections()).sum() >= n,
                        "the client sides wait DETACHED in their poller");
                // And each still works.
                Socket s = sockets.get(n / 2);
                s.getOutputStream().write("ping".getBytes(StandardCharsets.ISO_8859_1));
                assertEquals("ping", readN(s.getInputStream(), 4));
            } finally {
                for (Socket s : sockets) {
                    s.close();
                }
            }
            waitFor("the tunnels ended", () -> tunnelsOpen(p) == 0);
        }
    }

    @Test
    void anotherProtocolIsNotPassedThroughWhenOnlyWebSocketIs() throws Exception {
        try (RawBackend raw = new RawBackend("echo/1", RawBackend.Mode.ECHO);
             LoomServer p = Backends.start(ProxyHandler.builder("/", raw.url()).upgrade("websocket").build());
             Socket s = new Socket(InetAddress.getLoopbackAddress(), p.port())) {
            s.setSoTimeout(20_000);
            s.getOutputStream().write("GET /x HTTP/1.1\r\nHost: t\r\nConnection: Upgrade\r\nUpgrade: echo/1\r\n\r\n"
                    .getBytes(StandardCharsets.ISO_8859_1));
            String head = readHead(s.getInputStream());
            // The backend got no Upgrade (stripped as hop-by-hop) and answered a plain 200.
            assertTrue(head.startsWith("HTTP/1.1 200 "), head);
            assertEquals("GET /x no upgrade", raw.firstRequestLine.get(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void aSwitchToAProtocolNotAskedForIsABadGateway() throws Exception {
        try (RawBackend raw = new RawBackend("echo/1", RawBackend.Mode.OTHER);
             LoomServer p = Backends.start(ProxyHandler.builder("/", raw.url()).upgrade("*").build());
             Socket s = new Socket(InetAddress.getLoopbackAddress(), p.port())) {
            s.setSoTimeout(20_000);
            s.getOutputStream().write("GET /x HTTP/1.1\r\nHost: t\r\nConnection: Upgrade\r\nUpgrade: echo/1\r\n\r\n"
                    .getBytes(StandardCharsets.ISO_8859_1));
            String head = readHead(s.getInputStream());
            // LM2314: the backend's 101 named other/9, which the client did not ask for.
            assertTrue(head.startsWith("HTTP/1.1 502 "), head);
            assertEquals("GET /x upgrade", raw.firstRequestLine.get(10, TimeUnit.SECONDS));
            assertEquals(0, tunnelsOpen(p), "no tunnel was opened");
        }
    }

    @Test
    void anIdleTunnelClosesAfterProxyTimeout() throws Exception {
        try (RawBackend raw = new RawBackend("echo/1", RawBackend.Mode.ECHO);
             LoomServer p = Backends.start(ProxyHandler.builder("/", raw.url()).upgrade("*")
                     .timeout(Duration.ofMillis(300)).build());
             Socket s = new Socket(InetAddress.getLoopbackAddress(), p.port())) {
            InputStream in = upgradeToEcho(s);
            assertEquals(-1, in.read()); // nothing either way for 300 ms: closed
            waitFor("the tunnel ended", () -> tunnelsOpen(p) == 0);
        }
    }

    @Test
    void aStopClosesOpenTunnels() throws Exception {
        try (RawBackend raw = new RawBackend("echo/1", RawBackend.Mode.ECHO);
             Socket s = new Socket()) {
            LoomServer p = Backends.start(ProxyHandler.builder("/", raw.url()).upgrade("*").build());
            s.connect(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), p.port()));
            InputStream in = upgradeToEcho(s);
            p.stop(Duration.ofSeconds(1)); // GracefulShutdownTimeout: the tunnel is closed with what is left
            assertEquals(-1, in.read());
            assertTrue(raw.backendSawEnd.get(10, TimeUnit.SECONDS));
        }
    }

    /**
     * Asks {@link RawBackend}'s {@code echo/1} protocol on {@code s} through the proxy and reads
     * the 101 and the backend's greeting.
     *
     * @return the socket's input, positioned behind the greeting
     */
    static InputStream upgradeToEcho(Socket s) throws IOException {
        s.setSoTimeout(20_000);
        s.getOutputStream().write("GET /x HTTP/1.1\r\nHost: t\r\nConnection: Upgrade\r\nUpgrade: echo/1\r\n\r\n"
                .getBytes(StandardCharsets.ISO_8859_1));
        InputStream in = s.getInputStream();
        String head = readHead(in);
        assertTrue(head.startsWith("HTTP/1.1 101 "), head);
        assertEquals("hello;", readN(in, 6));
        return in;
    }

    static String readHead(InputStream in) throws IOException {
        StringBuilder sb = new StringBuilder();
        while (!sb.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed inside the head: " + sb);
            }
            sb.append((char) b);
        }
        return sb.toString();
    }

    static String readN(InputStream in, int n) throws IOException {
        return new String(in.readNBytes(n), StandardCharsets.ISO_8859_1);
    }

    /**
     * A backend speaking a made-up protocol after a 101: it sends {@code hello;}, echoes, and on
     * the client's end of stream sends {@code bye} and closes ({@link Mode#ECHO}); or it answers
     * 101 and dies at once with a reset ({@link Mode#DIE}); or it switches to {@code other/9}
     * whatever the request asked ({@link Mode#OTHER}). A request without {@code Upgrade} gets a 200.
     */
    static final class RawBackend implements AutoCloseable {
        enum Mode { ECHO, DIE, OTHER }

        final CompletableFuture<String> firstRequestLine = new CompletableFuture<>();
        final CompletableFuture<Boolean> backendSawEnd = new CompletableFuture<>();
        private final ServerSocket server;
        private final Thread acceptor;

        RawBackend(String protocol, Mode mode) throws IOException {
            server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            acceptor = Thread.ofVirtual().start(() -> {
                while (!server.isClosed()) {
                    try {
                        Socket s = server.accept();
                        Thread.ofVirtual().start(() -> serve(s, protocol, mode));
                    } catch (IOException e) {
                        return;
                    }
                }
            });
        }

        String url() {
            return "http://127.0.0.1:" + server.getLocalPort() + "/";
        }

        private void serve(Socket s, String protocol, Mode mode) {
            try (s) {
                InputStream in = s.getInputStream();
                OutputStream out = s.getOutputStream();
                String head = readHead(in);
                String line = head.substring(0, head.indexOf(' ', head.indexOf(' ') + 1));
                boolean upgrade = head.toLowerCase().contains("\r\nupgrade: "
                        + (mode == Mode.OTHER ? "" : protocol.toLowerCase()));
                firstRequestLine.complete(line + (upgrade ? " upgrade" : " no upgrade"));
                if (!upgrade) {
                    out.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok".getBytes(StandardCharsets.ISO_8859_1));
                    out.flush();
                    return;
                }
                out.write(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: " + (mode == Mode.OTHER ? "other/9" : protocol)
                        + "\r\nConnection: Upgrade\r\n" + accept(head) + "\r\n" + (mode == Mode.ECHO ? "hello;" : ""))
                        .getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
                if (mode != Mode.ECHO) {
                    s.setSoLinger(true, 0); // a reset, as a crashed backend's kernel sends
                    return;
                }
                byte[] buf = new byte[8192];
                int n;
                while ((n = in.read(buf)) > 0) {
                    out.write(buf, 0, n);
                    out.flush();
                }
                backendSawEnd.complete(true);
                out.write("bye".getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
            } catch (IOException e) {
                backendSawEnd.complete(true);
            }
        }

        /** {@code Sec-WebSocket-Accept} for the head's key (RFC 6455 §4.2.2), or nothing without one. */
        private static String accept(String head) {
            for (String line : head.split("\r\n")) {
                if (line.regionMatches(true, 0, "Sec-WebSocket-Key:", 0, 18)) {
                    try {
                        byte[] sha1 = java.security.MessageDigest.getInstance("SHA-1").digest(
                                (line.substring(18).strip() + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11")
                                        .getBytes(StandardCharsets.ISO_8859_1));
                        return "Sec-WebSocket-Accept: " + java.util.Base64.getEncoder().encodeToString(sha1) + "\r\n";
                    } catch (java.security.NoSuchAlgorithmException e) {
                        throw new IllegalStateException(e);
                    }
                }
            }
            return "";
        }

        @Override
        public void close() throws Exception {
            server.close();
            acceptor.join(5000);
        }
    }
}
