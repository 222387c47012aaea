package org.loommpm.cli.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.server.LoomServer;

/**
 * The jar as a reverse proxy, the way a newcomer starts it: {@code -C} lines alone, and a
 * balancer from a file. Run with {@code -Xmx64m}: a 1 GiB download and a 1 GiB upload pass
 * through, which they could not if the proxy held a body in memory; a client that stops reading
 * holds the backend back instead of making the proxy buffer.
 */
class ProxyIT {
    private static final long GIB = 1L << 30;
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @TempDir
    Path dir;

    private final AtomicLong written = new AtomicLong();

    private LoomServer backend() throws Exception {
        return LoomServer.builder().listen("127.0.0.1", 0).handler((req, res) -> {
            switch (req.path()) {
                case "/big" -> {
                    res.header("Content-Length", Long.toString(GIB));
                    byte[] chunk = new byte[64 * 1024];
                    try (var out = res.outputStream()) {
                        for (long n = 0; n < GIB; n += chunk.length) {
                            out.write(chunk);
                            written.addAndGet(chunk.length);
                        }
                    }
                }
                case "/sink" -> {
                    long n = 0;
                    byte[] buf = new byte[64 * 1024];
                    InputStream in = req.body();
                    for (int r; (r = in.read(buf)) > 0; ) {
                        n += r;
                    }
                    res.send("got " + n);
                }
                case "/cut" -> {
                    var out = res.outputStream();
                    out.write(new byte[200_000]);
                    out.flush();
                    throw new IllegalStateException("backend fails mid-response (test)");
                }
                case "/echo" -> res.send(req.method() + " " + req.bodyString());
                default -> res.send("backend " + req.localAddress().getPort() + " " + req.rawTarget());
            }
        }).start();
    }

    private JarProcess proxyJar(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(JarProcess.java(), "-Xmx64m", "-jar", JarProcess.jar().toString()));
        cmd.addAll(List.of(args));
        return JarProcess.launch(dir, cmd);
    }

    @Test
    void dashCProxyPassesGibibyteBodiesBothWaysInBoundedMemory() throws Exception {
        try (LoomServer backend = backend();
             JarProcess proxy = proxyJar("-C", "Listen 127.0.0.1:0", "-C",
                     "ProxyPass /app/ http://127.0.0.1:" + backend.port() + "/", "-C", "CustomLog /dev/null common")) {
            String base = "http://127.0.0.1:" + proxy.port() + "/app/";
            HttpResponse<String> small = CLIENT.send(HttpRequest.newBuilder(URI.create(base + "x?y=1")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals("backend " + backend.port() + " /x?y=1", small.body());

            HttpResponse<InputStream> down = CLIENT.send(HttpRequest.newBuilder(URI.create(base + "big")).build(),
                    HttpResponse.BodyHandlers.ofInputStream());
            long got = 0;
            try (InputStream in = down.body()) {
                byte[] buf = new byte[256 * 1024];
                for (int r; (r = in.read(buf)) > 0; ) {
                    got += r;
                }
            }
            assertEquals(GIB, got);

            InputStream gen = new InputStream() {
                private long left = GIB;

                @Override
                public int read() {
                    return left-- > 0 ? 'u' : -1;
                }

                @Override
                public int read(byte[] b, int off, int len) {
                    if (left <= 0) {
                        return -1;
                    }
                    int n = (int) Math.min(len, left);
                    left -= n;
                    return n;
                }
            };
            HttpResponse<String> up = CLIENT.send(HttpRequest.newBuilder(URI.create(base + "sink"))
                    .POST(HttpRequest.BodyPublishers.fromPublisher(HttpRequest.BodyPublishers.ofInputStream(() -> gen), GIB))
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertEquals("got " + GIB, up.body());
            assertTrue(proxy.isAlive(), "the 64 MiB proxy survived");
        }
    }

    @Test
    void aClientThatStopsReadingHoldsTheBackendBack() throws Exception {
        try (LoomServer backend = backend();
             JarProcess proxy = proxyJar("-C", "Listen 127.0.0.1:0", "-C",
                     "ProxyPass / http://127.0.0.1:" + backend.port() + "/", "-C", "CustomLog /dev/null common");
             java.net.Socket s = new java.net.Socket("127.0.0.1", proxy.port())) {
            s.setReceiveBufferSize(64 * 1024);
            s.getOutputStream().write("GET /big HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            s.getInputStream().readNBytes(1024 * 1024);
            Thread.sleep(2000);
            long w = written.get();
            // Socket buffers on both hops (a few MiB each on loopback) plus one 16 KiB relay buffer.
            assertTrue(w < 64L * 1024 * 1024, "the backend could write only " + w + " bytes while the client read 1 MiB");
            Thread.sleep(500);
            assertEquals(w, written.get(), "and then it is held back");
        }
    }

    @Test
    void balancerFromAFileWithExclusionsAndALocation() throws Exception {
        Files.createDirectories(dir.resolve("htdocs/app/static"));
        Files.writeString(dir.resolve("htdocs/app/static/s.txt"), "static");
        try (LoomServer a = backend(); LoomServer b = backend(); LoomServer c = backend()) {
            Files.writeString(dir.resolve("loom.conf"), """
                    Listen 127.0.0.1:0
                    DocumentRoot htdocs
                    CustomLog /dev/null common
                    ProxyVia On
                    ServerName front.example
                    <Proxy balancer://app>
                        BalancerMember http://127.0.0.1:%d/ hcmethod=TCP hcinterval=1
                        BalancerMember http://127.0.0.1:%d/
                        ProxySet lbmethod=byrequests
                    </Proxy>
                    ProxyPass /app/static/ !
                    ProxyPass /app/ balancer://app/
                    <Location /other/>
                        ProxyPass http://127.0.0.1:%d/o/
                    </Location>
                    """.formatted(a.port(), b.port(), c.port()));
            try (JarProcess proxy = JarProcess.start(dir, "-f", "loom.conf")) {
                String base = "http://127.0.0.1:" + proxy.port();
                Set<String> seen = new HashSet<>();
                for (int i = 0; i < 6; i++) {
                    seen.add(get(base + "/app/p").split(" ")[1]);
                }
                assertEquals(Set.of(Integer.toString(a.port()), Integer.toString(b.port())), seen);
                assertEquals("static", get(base + "/app/static/s.txt"));
                assertEquals("backend " + c.port() + " /o/z", get(base + "/other/z"));
                assertTrue(proxy.stdout().contains("ProxyPass /app/ balancer://app/"), proxy.stdout());
            }
        }
    }

    @Test
    void webSocketsTunnelThroughTheJarWithCompressionOnAndCountInServerStatus() throws Exception {
        org.loommpm.websocket.WebSocketHandler echo = new org.loommpm.websocket.WebSocketHandler() {
            @Override
            public void onText(org.loommpm.websocket.WebSocketSession s, String text) {
                s.sendText("echo " + text);
            }
        };
        try (LoomServer backend = LoomServer.builder().listen("127.0.0.1", 0)
                .handler(new org.loommpm.api.Router().websocket("/chat", echo)).start()) {
            Files.writeString(dir.resolve("loom.conf"), """
                    Listen 127.0.0.1:0
                    CustomLog /dev/null common
                    AddOutputFilterByType DEFLATE text/plain text/html
                    ProxyPass /ws/ ws://127.0.0.1:%d/
                    ProxyPass /plain/ http://127.0.0.1:%d/
                    <Location /server-status>
                        SetHandler server-status
                    </Location>
                    """.formatted(backend.port(), backend.port()));
            try (JarProcess proxy = JarProcess.start(dir, "-f", "loom.conf")) {
                int port = proxy.port();
                java.util.concurrent.BlockingQueue<String> got = new java.util.concurrent.LinkedBlockingQueue<>();
                java.net.http.WebSocket ws = HttpClient.newHttpClient().newWebSocketBuilder()
                        .buildAsync(URI.create("ws://127.0.0.1:" + port + "/ws/chat"), new java.net.http.WebSocket.Listener() {
                            @Override
                            public java.util.concurrent.CompletionStage<?> onText(java.net.http.WebSocket w,
                                                                                   CharSequence data, boolean last) {
                                got.add(data.toString());
                                w.request(1);
                                return null;
                            }
                        }).get(20, java.util.concurrent.TimeUnit.SECONDS);
                ws.sendText("hi", true).get(10, java.util.concurrent.TimeUnit.SECONDS);
                assertEquals("echo hi", got.poll(20, java.util.concurrent.TimeUnit.SECONDS));
                assertTrue(get("http://127.0.0.1:" + port + "/server-status?auto").contains("LoomProxyTunnels: 1"));
                ws.sendClose(java.net.http.WebSocket.NORMAL_CLOSURE, "").get(10, java.util.concurrent.TimeUnit.SECONDS);
                // Without upgrade= the handshake reaches the backend stripped of its Upgrade: refused.
                var e = org.junit.jupiter.api.Assertions.assertThrows(java.util.concurrent.ExecutionException.class,
                        () -> HttpClient.newHttpClient().newWebSocketBuilder().buildAsync(
                                URI.create("ws://127.0.0.1:" + port + "/plain/chat"),
                                new java.net.http.WebSocket.Listener() { }).get(20, java.util.concurrent.TimeUnit.SECONDS));
                assertEquals(426, ((java.net.http.WebSocketHandshakeException) e.getCause()).getResponse().statusCode());
                assertTrue(proxy.stdout().contains("ProxyPass /ws/ http://127.0.0.1:" + backend.port()
                        + "/ upgrade=websocket"), proxy.stdout());
            }
        }
    }

    @Test
    void http2ClientsAreProxiedAndACutOffBackendResetsTheStream() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(org.loommpm.testsupport.Curl.available(), "curl absent");
        try (LoomServer backend = backend();
             JarProcess proxy = proxyJar("-C", "Listen 127.0.0.1:0", "-C",
                     "ProxyPass / http://127.0.0.1:" + backend.port() + "/", "-C", "CustomLog /dev/null common")) {
            String base = "http://127.0.0.1:" + proxy.port();
            var get = org.loommpm.testsupport.Curl.run("--http2-prior-knowledge", "-w", " %{http_version}", base + "/x");
            assertEquals("backend " + backend.port() + " /x 2", get.text());
            var post = org.loommpm.testsupport.Curl.run("--http2-prior-knowledge", "--data-binary", "hello", base + "/echo");
            assertEquals("POST hello", post.text());
            var cut = org.loommpm.testsupport.Curl.run("--http2-prior-knowledge", "-o", "/dev/null", base + "/cut");
            assertTrue(cut.exitCode() != 0, "curl must see the cut-off stream as an error: " + cut.stderr());
            var cut1 = org.loommpm.testsupport.Curl.run("--http1.1", "-o", "/dev/null", base + "/cut");
            assertTrue(cut1.exitCode() != 0, "and over HTTP/1.1: " + cut1.stderr());
            proxy.awaitErrors(e -> e.contains("LM2306"), Duration.ofSeconds(10));
        }
    }

    @Test
    void requestsProxiedOnThePollerAreLoggedWithTheirStatusAndSize() throws Exception {
        Path log = dir.resolve("access.log");
        try (LoomServer backend = backend()) {
            Files.writeString(dir.resolve("loom.conf"), """
                    Listen 127.0.0.1:0
                    CustomLog %s "%%>s %%b %%m %%U"
                    ProxyPass /app/ http://127.0.0.1:%d/
                    <Location /app/private/>
                        Require ip 10.0.0.0/8
                    </Location>
                    """.formatted(log, backend.port()));
            try (JarProcess proxy = JarProcess.start(dir, "-f", "loom.conf")) {
                String base = "http://127.0.0.1:" + proxy.port();
                String body = get(base + "/app/x");
                assertEquals("backend " + backend.port() + " /x", body);
                HttpResponse<String> denied = CLIENT.send(HttpRequest.newBuilder(URI.create(base + "/app/private/y"))
                        .build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(403, denied.statusCode(), "Require is decided on the poller too");
                String want = "200 " + body.length() + " GET /app/x";
                String deniedLine = "403 " + denied.body().length() + " GET /app/private/y";
                long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
                String lines = "";
                while (System.nanoTime() < deadline && !(lines.contains(want) && lines.contains(deniedLine))) {
                    Thread.sleep(50);
                    lines = Files.exists(log) ? Files.readString(log) : "";
                }
                assertTrue(lines.contains(want), "the proxied exchange is logged when it ends: " + lines);
                assertTrue(lines.contains(deniedLine), lines);
            }
        }
    }

    private static String get(String url) throws Exception {
        return CLIENT.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(20)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }
}
