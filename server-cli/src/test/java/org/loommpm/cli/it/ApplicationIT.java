package org.loommpm.cli.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.net.http.WebSocketHandshakeException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.loommpm.cli.it.app.DemoApplication;

/**
 * {@code LoadApplication} against the built jar: an application packed in a jar of its own
 * ({@link DemoApplication}) serves its HTTP, event-stream and WebSocket routes under
 * {@code <Location>} sections, {@code Require} refuses a WebSocket upgrade with 403 before any
 * upgrade, {@code ChildProcesses On} children each load it, and {@code -t} reports a class that
 * is not there (LM2400).
 */
class ApplicationIT {
    @TempDir
    Path dir;

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** {@link DemoApplication}'s classes and service declaration, as a jar in the test's directory. */
    private Path appJar() throws IOException {
        Path classes = Path.of(DemoApplication.class.getProtectionDomain().getCodeSource().getLocation().getPath());
        Path pkg = classes.resolve("org/loommpm/cli/it/app");
        Path jar = dir.resolve("demo-app.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar)); Stream<Path> files = Files.list(pkg)) {
            for (Path f : files.toList()) {
                out.putNextEntry(new JarEntry("org/loommpm/cli/it/app/" + f.getFileName()));
                Files.copy(f, out);
            }
            out.putNextEntry(new JarEntry("META-INF/services/org.loommpm.api.Application"));
            out.write((DemoApplication.class.getName() + "\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        }
        return jar;
    }

    private Path conf(int port, String extra) throws IOException {
        Path conf = dir.resolve("loom.conf");
        Files.writeString(conf, "Listen 127.0.0.1:" + port + "\n"
                + "LoadApplication demo " + DemoApplication.class.getName() + " demo-app.jar\n"
                + "ApplicationParam demo greeting bonjour\n"
                + "WebSocketIdleTimeout 30\nWebSocketMaxMessageSize 4096\n"
                + "<Location /app>\n    SetHandler demo\n    Require ip 127.0.0.1\n</Location>\n"
                // 127.0.0.1 is not in 192.0.2.0/24 (TEST-NET-1): every request here is refused.
                + "<Location /app/private>\n    Require ip 192.0.2.0/24\n</Location>\n" + extra);
        return conf;
    }

    /**
     * One GET on a connection of its own: a pooled keep-alive connection may be the one a graceful
     * restart's retiring generation is closing as the client reuses it (EOF), a race every
     * keep-alive server has and that is not what these tests check.
     */
    private HttpResponse<String> get(int port, String path) throws Exception {
        try (HttpClient once = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build()) {
            return once.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        }
    }

    /** Opens a WebSocket, sends {@code text}, returns the first message received. */
    private String echo(int port, String path, String text) throws Exception {
        CompletableFuture<String> reply = new CompletableFuture<>();
        WebSocket ws = client.newWebSocketBuilder().connectTimeout(Duration.ofSeconds(5))
                .buildAsync(URI.create("ws://127.0.0.1:" + port + path), new WebSocket.Listener() {
                    private final StringBuilder sb = new StringBuilder();

                    @Override
                    public CompletionStage<?> onText(WebSocket w, CharSequence data, boolean last) {
                        sb.append(data);
                        if (last) {
                            reply.complete(sb.toString());
                        }
                        w.request(1);
                        return null;
                    }
                }).get(10, TimeUnit.SECONDS);
        ws.sendText(text, true).get(10, TimeUnit.SECONDS);
        String r = reply.get(10, TimeUnit.SECONDS);
        ws.sendClose(WebSocket.NORMAL_CLOSURE, "").get(10, TimeUnit.SECONDS);
        return r;
    }

    @Test
    void servesTheApplicationsRoutesUnderRequire() throws Exception {
        appJar();
        try (JarProcess server = JarProcess.start(dir, "-f", conf(0, "").toString())) {
            int port = server.port();
            HttpResponse<String> hello = get(port, "/app/hello");
            assertEquals(200, hello.statusCode());
            assertTrue(hello.body().startsWith("bonjour from demo"), hello.body());

            HttpResponse<String> events = get(port, "/app/events");
            assertEquals(200, events.statusCode());
            assertTrue(events.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream"));
            assertEquals("data: event 1\n\ndata: event 2\n\ndata: event 3\n\n", events.body());

            assertEquals("echo hi", echo(port, "/app/ws", "hi"));
            // A route the application does not have: its router's 404.
            assertEquals(404, get(port, "/app/nothing").statusCode());

            // Require refuses the upgrade itself: 403, no 101.
            ExecutionException refused = assertThrows(ExecutionException.class, () -> echo(port, "/app/private/ws", "x"));
            WebSocketHandshakeException h = assertInstanceOf(WebSocketHandshakeException.class, refused.getCause());
            assertEquals(403, h.getResponse().statusCode());
            assertEquals(403, get(port, "/app/private/hello").statusCode());

            assertTrue(server.stdout().contains("LoadApplication demo " + DemoApplication.class.getName()), server.stdout());
            server.awaitErrors(e -> e.contains("LM2401"), Duration.ofSeconds(5));
            server.signal("TERM");
            assertEquals(0, server.waitExit(Duration.ofSeconds(20)));
            assertTrue(server.stderr().contains("LM2403 application demo closed"), server.stderr());
        }
    }

    /** Sends {@code text} on an open socket; the echo. */
    private static String exchange(WebSocket ws, java.util.concurrent.BlockingQueue<String> replies, String text)
            throws Exception {
        ws.sendText(text, true).get(10, TimeUnit.SECONDS);
        return replies.poll(10, TimeUnit.SECONDS);
    }

    @Test
    void gracefulRestartKeepsAnUnchangedApplication() throws Exception {
        appJar();
        String extra = "GracefulShutdownTimeout 1\nKeepAliveTimeout 1\n";
        Path conf = conf(0, extra);
        try (JarProcess server = JarProcess.start(dir, "-f", conf.toString())) {
            int port = server.port();
            conf(port, extra); // the restarts below keep the bound port (a Listen of port 0 would bind another)
            java.util.concurrent.BlockingQueue<String> replies = new java.util.concurrent.LinkedBlockingQueue<>();
            CompletableFuture<Integer> closed = new CompletableFuture<>();
            WebSocket ws = client.newWebSocketBuilder().buildAsync(URI.create("ws://127.0.0.1:" + port + "/app/ws"),
                    new WebSocket.Listener() {
                        @Override
                        public CompletionStage<?> onText(WebSocket w, CharSequence data, boolean last) {
                            replies.add(data.toString());
                            w.request(1);
                            return null;
                        }

                        @Override
                        public CompletionStage<?> onClose(WebSocket w, int status, String reason) {
                            closed.complete(status);
                            return null;
                        }
                    }).get(10, TimeUnit.SECONDS);
            assertEquals("echo 1", exchange(ws, replies, "1"));

            server.signal("HUP");
            server.awaitErrors(e -> e.contains("LM1303"), Duration.ofSeconds(20));
            // The retiring generation's sockets go with it ("server going away"), as every WebSocket
            // in a graceful restart; the same application instance serves the new ones.
            assertEquals(1001, closed.get(20, TimeUnit.SECONDS));
            assertEquals("echo 2", echo(port, "/app/ws", "2"));
            assertEquals(1, count(server.stderr(), "LM2401"), "an unchanged application is not created again");
            assertTrue(get(port, "/app/hello").body().startsWith("bonjour"));

            Files.writeString(conf, Files.readString(conf).replace("greeting bonjour", "greeting salut"));
            server.signal("HUP");
            server.awaitErrors(e -> count(e, "LM1303") == 2, Duration.ofSeconds(20));
            assertEquals(2, count(server.stderr(), "LM2401"), "a changed one is created anew");
            assertTrue(get(port, "/app/hello").body().startsWith("salut"));
            // The old instance is closed once the old generation had its grace (1 s + 1 s).
            server.awaitErrors(e -> e.contains("LM2403 application demo closed"), Duration.ofSeconds(20));

            // An application whose routes throw: the restart is refused, the running one serves on.
            Files.writeString(conf, Files.readString(conf) + "ApplicationParam demo fail yes\n");
            server.signal("HUP");
            server.awaitErrors(e -> e.contains("LM1302") && e.contains("LM2402 application demo"), Duration.ofSeconds(20));
            assertTrue(get(port, "/app/hello").body().startsWith("salut"));
        }
    }

    @Test
    void anApplicationThatCannotStartStopsTheStart() throws Exception {
        appJar();
        Path conf = conf(0, "ApplicationParam demo fail yes\n");
        Process p = new ProcessBuilder(JarProcess.java(), "-jar", JarProcess.jar().toString(), "-f", conf.toString())
                .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(dir.resolve("out.txt").toFile()).start();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(1, p.exitValue());
        String out = Files.readString(dir.resolve("out.txt"));
        assertTrue(out.contains("LM2402 application demo (" + DemoApplication.class.getName()
                + ") could not start: java.lang.IllegalStateException: asked to fail"), out);
    }

    private static int count(String text, String id) {
        return text.split(id, -1).length - 1;
    }

    @Test
    void everyChildProcessLoadsTheApplication() throws Exception {
        appJar();
        try (Socket reserved = JarProcess.reservePort();
             JarProcess server = JarProcess.start(dir, "-f",
                     conf(reserved.getLocalPort(), "ChildProcesses On\nStartServers 2\nThreadsPerChild 8\n").toString())) {
            int port = reserved.getLocalPort();
            Set<String> pids = new HashSet<>();
            for (int i = 0; i < 40 && pids.size() < 2; i++) {
                // A new connection each time (no keep-alive pooling), so SO_REUSEPORT spreads them.
                HttpClient fresh = HttpClient.newHttpClient();
                HttpResponse<String> r = fresh.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                        + "/app/hello")).build(), HttpResponse.BodyHandlers.ofString());
                assertEquals(200, r.statusCode());
                pids.add(r.body().strip().replaceAll(".* pid ", ""));
                fresh.close();
                assertEquals("echo " + i, echo(port, "/app/ws", Integer.toString(i)));
            }
            assertEquals(2, pids.size(), "answers from both child processes: " + pids);
            assertTrue(pids.stream().noneMatch(p -> p.equals(Long.toString(server.pid()))),
                    "the supervisor serves nothing itself");
            ExecutionException refused = assertThrows(ExecutionException.class, () -> echo(port, "/app/private/ws", "x"));
            assertEquals(403, assertInstanceOf(WebSocketHandshakeException.class, refused.getCause())
                    .getResponse().statusCode());
        }
    }

    @Test
    void checkReportsAClassThatIsNotThere() throws Exception {
        appJar();
        Files.writeString(dir.resolve("bad.conf"), "Listen 127.0.0.1:0\n"
                + "LoadApplication demo org.example.NoSuchApp demo-app.jar\n");
        JarProcess.Result r = JarProcess.run(dir, "-t", "-f", dir.resolve("bad.conf").toString());
        assertEquals(1, r.exit());
        assertTrue(r.err().contains("Syntax error on line 2 of"), r.err());
        assertTrue(r.err().contains("LM2400 LoadApplication demo: class org.example.NoSuchApp not found in "), r.err());
        assertTrue(r.err().contains("(applications declared there: " + DemoApplication.class.getName() + ")"), r.err());

        Files.writeString(dir.resolve("nojar.conf"), "LoadApplication demo " + DemoApplication.class.getName()
                + " missing.jar\n");
        JarProcess.Result noJar = JarProcess.run(dir, "-t", "-f", dir.resolve("nojar.conf").toString());
        assertEquals(1, noJar.exit());
        assertTrue(noJar.err().contains("LM2400 LoadApplication demo: cannot read the jar"), noJar.err());

        Files.writeString(dir.resolve("ok.conf"), "Listen 127.0.0.1:0\n"
                + "LoadApplication demo " + DemoApplication.class.getName() + " demo-app.jar\n"
                + "<Location /app>\nSetHandler demo\n</Location>\n");
        JarProcess.Result ok = JarProcess.run(dir, "-t", "-f", dir.resolve("ok.conf").toString());
        assertEquals(0, ok.exit(), ok.err());
        assertTrue(ok.out().contains("Syntax OK"));
    }
}
