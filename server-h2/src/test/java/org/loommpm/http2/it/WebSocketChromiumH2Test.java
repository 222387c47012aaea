package org.loommpm.http2.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.server.LoomServer;
import org.loommpm.api.Router;
import org.loommpm.proxy.ProxyHandler;
import org.loommpm.testsupport.TestCertificates;
import org.loommpm.websocket.WebSocketHandler;
import org.loommpm.websocket.WebSocketSession;

/**
 * A real browser over TLS with ALPN h2: headless Chromium ({@code .ci/run} installs it; skipped
 * where absent) loads a page over HTTPS, which opens an HTTP/2 connection announcing
 * SETTINGS_ENABLE_CONNECT_PROTOCOL, then opens a {@code wss://} socket to the same origin:
 * Chromium sends it as an extended CONNECT on that connection (RFC 8441). The socket shows it:
 * an HTTP/2 handshake carries no {@code Sec-WebSocket-Key}. Then the same through a loom proxy.
 */
class WebSocketChromiumH2Test {
    @TempDir
    Path dir;
    private LoomServer server;
    private LoomServer backend;
    private final Queue<String> events = new ConcurrentLinkedQueue<>();

    @AfterEach
    void stop() {
        for (LoomServer s : new LoomServer[] {server, backend}) {
            if (s != null) {
                s.close();
            }
        }
    }

    private static final String PAGE = """
            <!doctype html><meta charset="utf-8"><title>ws over h2</title>
            <script>
            const ws = new WebSocket("wss://" + location.host + "/echo");
            const long = "é les WebSockets ".repeat(200);
            const want = ["short", long];
            const got = [];
            ws.onopen = () => { ws.send("short"); ws.send(long); };
            ws.onmessage = (e) => {
              got.push(e.data);
              if (got.length === want.length) {
                ws.send("result:" + (got.every((g, i) => g === want[i]) ? "ok" : "mismatch") + " ext=" + ws.extensions);
                ws.close(1000, "done");
              }
            };
            </script>
            """;

    /** The page and the echo route, recording what the server sees. */
    private Router site() {
        return new Router()
                .get("/page.html", (req, res) -> {
                    events.add("page " + req.protocol());
                    res.header("Content-Type", "text/html; charset=UTF-8").send(PAGE);
                })
                .websocket("/echo", new WebSocketHandler() {
                    @Override
                    public void onOpen(WebSocketSession s) {
                        events.add("open h2=" + (s.requestHeader("sec-websocket-key") == null) + " compressed="
                                + s.compressed() + " secure=" + s.isSecure());
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
                    public void onClose(WebSocketSession s, int code, String reason) {
                        events.add("close " + code);
                    }
                });
    }

    private LoomServer https(org.loommpm.api.Handler h) throws Exception {
        TestCertificates keys = TestCertificates.create(dir);
        return LoomServer.builder()
                .https("127.0.0.1", 0)
                .tls(t -> t.certificateFile(keys.p12).password(TestCertificates.PASSWORD))
                .handler(h)
                .start();
    }

    @Test
    void chromiumOpensTheSocketOnItsHttp2Connection() throws Exception {
        String chromium = chromium();
        server = https(site());
        browse(chromium, server.port());
        assertTrue(events.contains("page HTTP/2.0"), events.toString());
        assertTrue(events.contains("open h2=true compressed=true secure=true"), events.toString());
        assertTrue(events.stream().anyMatch(e -> e.startsWith("result:ok ext=permessage-deflate")), events.toString());
    }

    /**
     * The same page through a loom proxy ({@code upgrade=websocket}) over h2/TLS to the site over
     * HTTP/1.1: the browser's extended CONNECT reaches the backend as an HTTP/1.1 upgrade with the
     * proxy's key, and permessage-deflate is agreed end to end.
     */
    @Test
    void chromiumOpensTheSocketThroughTheProxy() throws Exception {
        String chromium = chromium();
        backend = LoomServer.builder().listen("127.0.0.1", 0).handler(site()).start();
        server = https(ProxyHandler.builder("/", "http://127.0.0.1:" + backend.port() + "/").upgrade("websocket")
                .build());
        browse(chromium, server.port());
        assertTrue(events.contains("page HTTP/1.1"), events.toString());
        assertTrue(events.contains("open h2=false compressed=true secure=false"), events.toString());
        assertTrue(events.stream().anyMatch(e -> e.startsWith("result:ok ext=permessage-deflate")), events.toString());
    }

    private static String chromium() {
        String chromium = List.of("/usr/bin/chromium", "/usr/bin/chromium-browser").stream()
                .filter(p -> new File(p).canExecute()).findFirst().orElse(null);
        Assumptions.assumeTrue(chromium != null, "chromium is not installed (.ci/run installs it)");
        return chromium;
    }

    /** Loads the page from {@code port} in headless Chromium and waits for its result and its close. */
    private void browse(String chromium, int port) throws Exception {
        Path profile = Files.createTempDirectory(dir, "chromium");
        Process p = new ProcessBuilder(chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--ignore-certificate-errors", "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--user-data-dir=" + profile,
                "https://127.0.0.1:" + port + "/page.html")
                .redirectErrorStream(true).redirectOutput(dir.resolve("chromium.log").toFile()).start();
        try {
            waitFor("the page's result", () -> events.stream().anyMatch(e -> e.startsWith("result:")));
            waitFor("the browser's close", () -> events.contains("close 1000"));
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; events " + events + "; chromium said: "
                    + readQuietly(dir.resolve("chromium.log")), e);
        } finally {
            p.destroy();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
    }

    private static void waitFor(String what, BooleanSupplier cond) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!cond.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("timed out waiting for: " + what);
            }
            Thread.sleep(20);
        }
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
