package org.loommpm.websocket.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.api.EventStream;
import org.loommpm.server.LoomServer;
import org.loommpm.api.Router;
import org.loommpm.testsupport.TestCertificates;
import org.loommpm.testsupport.TestServers;
import org.loommpm.websocket.WebSocketHandler;
import org.loommpm.websocket.WebSocketSession;

/**
 * Real WebSocket clients against the server: the JDK's {@code java.net.http.WebSocket} over
 * {@code ws://} and {@code wss://} (fragmented sends, pings, binary, the close handshake), and
 * headless Chromium (Debian's {@code chromium}, which {@code .ci/run} installs; the test is
 * skipped where it is absent) running a page that opens a socket, with permessage-deflate as the
 * browser offers it, and an {@code EventSource} on a Server-Sent Events route.
 */
class WebSocketClientsTest {
    @TempDir
    static Path dir;
    private static TestCertificates certs;
    private static SSLContext clientTls;

    private final Queue<String> events = new ConcurrentLinkedQueue<>();
    private LoomServer server;

    @BeforeAll
    static void keys() throws Exception {
        certs = TestCertificates.create(dir);
        clientTls = TestCertificates.clientContext(certs.chainPem);
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    private Router router() {
        return new Router()
                .get("/page.html", (req, res) -> res.header("Content-Type", "text/html; charset=UTF-8").send(PAGE))
                .get("/events", (req, res) -> {
                    EventStream es = res.eventStream(); // Server-Sent Events: the browser's EventSource
                    es.send("first");
                    es.send("second");
                })
                .websocket("/echo", new WebSocketHandler() {
                    @Override
                    public void onOpen(WebSocketSession s) {
                        events.add("open compressed=" + s.compressed() + " secure=" + s.isSecure());
                    }

                    @Override
                    public void onText(WebSocketSession s, String text) {
                        if (text.startsWith("result:")) {
                            events.add(text);
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
                        events.add("close " + code);
                    }
                });
    }

    /** Collects what the JDK client receives. */
    private static final class Collector implements WebSocket.Listener {
        final LinkedBlockingQueue<String> got = new LinkedBlockingQueue<>();
        private final StringBuilder text = new StringBuilder();
        private int binary;

        @Override
        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            text.append(data);
            if (last) {
                got.add("text:" + text);
                text.setLength(0);
            }
            ws.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onBinary(WebSocket ws, ByteBuffer data, boolean last) {
            binary += data.remaining();
            if (last) {
                got.add("binary:" + binary);
                binary = 0;
            }
            ws.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onPong(WebSocket ws, ByteBuffer message) {
            got.add("pong:" + StandardCharsets.UTF_8.decode(message));
            ws.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket ws, int statusCode, String reason) {
            got.add("close:" + statusCode);
            return null;
        }

        String next() throws InterruptedException {
            String s = got.poll(10, TimeUnit.SECONDS);
            if (s == null) {
                throw new AssertionError("nothing received");
            }
            return s;
        }
    }

    private void jdkClientRoundTrip(HttpClient client, String uri) throws Exception {
        Collector c = new Collector();
        WebSocket ws = client.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(5))
                .buildAsync(URI.create(uri), c).get(10, TimeUnit.SECONDS);
        try {
            roundTrip(ws, c);
        } finally {
            ws.abort(); // a no-op after the close handshake; else HttpClient.close() would wait for the socket
        }
        TestServers.waitFor("server onClose", 5, () -> events.contains("close 1000"));
    }

    private static void roundTrip(WebSocket ws, Collector c) throws Exception {
        ws.sendText("hello", true).get(5, TimeUnit.SECONDS);
        assertEquals("text:hello", c.next());
        ws.sendText("frag", false).get(5, TimeUnit.SECONDS);
        ws.sendText("mented", true).get(5, TimeUnit.SECONDS);
        assertEquals("text:fragmented", c.next());
        ws.sendBinary(ByteBuffer.wrap(new byte[70_000]), true).get(5, TimeUnit.SECONDS);
        assertEquals("binary:70000", c.next());
        ws.sendPing(ByteBuffer.wrap("are you there".getBytes(StandardCharsets.UTF_8))).get(5, TimeUnit.SECONDS);
        assertEquals("pong:are you there", c.next());
        ws.sendClose(WebSocket.NORMAL_CLOSURE, "bye").get(5, TimeUnit.SECONDS);
        assertEquals("close:1000", c.next());
    }

    @Test
    void jdkClientOverCleartext() throws Exception {
        server = TestServers.start(router());
        try (HttpClient client = HttpClient.newHttpClient()) {
            jdkClientRoundTrip(client, "ws://127.0.0.1:" + server.port() + "/echo");
        }
        assertTrue(events.contains("open compressed=false secure=false"), events.toString());
    }

    @Test
    void jdkClientOverTls() throws Exception {
        server = TestServers.start(router(), c -> c.tls(t -> t.engine(true).certificateFile(certs.chainPem).keyFile(certs.pkcs8Key)));
        try (HttpClient client = HttpClient.newBuilder().sslContext(clientTls).build()) {
            jdkClientRoundTrip(client, "wss://127.0.0.1:" + server.port() + "/echo");
        }
        assertTrue(events.contains("open compressed=false secure=true"), events.toString());
    }

    /** Opens a socket, checks a short and a long (compressed) echo, and reports back on the socket. */
    private static final String PAGE = """
            <!doctype html><meta charset="utf-8"><title>ws</title>
            <script>
            const results = {};
            function report(key, value) {
              results[key] = value;
              if (results.ws && results.sse) {
                ws.send("result:" + results.ws + " sse=" + results.sse + " ext=" + ws.extensions);
                ws.close(1000, "done");
              }
            }
            const ws = new WebSocket("ws://" + location.host + "/echo");
            const long = "é les WebSockets ".repeat(200);
            const want = ["short", long];
            const got = [];
            ws.onopen = () => { ws.send("short"); ws.send(long); };
            ws.onmessage = (e) => {
              got.push(e.data);
              if (got.length === want.length) {
                report("ws", got.every((g, i) => g === want[i]) ? "ok" : "mismatch");
              }
            };
            const sse = [];
            const es = new EventSource("/events");
            es.onmessage = (e) => {
              sse.push(e.data);
              if (sse.length === 2) { es.close(); report("sse", sse.join(",")); }
            };
            </script>
            """;

    @Test
    void headlessChromium() throws Exception {
        String chromium = List.of("/usr/bin/chromium", "/usr/bin/chromium-browser").stream()
                .filter(p -> new File(p).canExecute()).findFirst().orElse(null);
        Assumptions.assumeTrue(chromium != null, "chromium is not installed (.ci/run installs it)");
        server = TestServers.start(router());
        Path profile = Files.createTempDirectory(dir, "chromium");
        Process p = new ProcessBuilder(chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--user-data-dir=" + profile, "http://127.0.0.1:" + server.port() + "/page.html")
                .redirectErrorStream(true).redirectOutput(dir.resolve("chromium.log").toFile()).start();
        try {
            TestServers.waitFor("the page's result", 60, () -> events.stream().anyMatch(e -> e.startsWith("result:")));
            TestServers.waitFor("the browser's close", 10, () -> events.contains("close 1000"));
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; events " + events + "; chromium said: "
                    + readQuietly(dir.resolve("chromium.log")), e);
        } finally {
            p.destroy();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
        assertTrue(events.contains("result:ok sse=first,second ext=permessage-deflate; server_no_context_takeover; "
                + "client_no_context_takeover"), events.toString());
        assertTrue(events.contains("open compressed=true secure=false"), events.toString());
    }

    private static String readQuietly(Path p) {
        try {
            String s = Files.readString(p);
            return s.length() > 2000 ? s.substring(s.length() - 2000) : s;
        } catch (IOException e) {
            return e.toString();
        }
    }
}
