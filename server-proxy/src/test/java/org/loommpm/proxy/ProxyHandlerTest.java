package org.loommpm.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.loommpm.server.LoomServer;

/** The proxy handler against embedded loom-mpm backends and raw-socket backends, with the JDK client. */
class ProxyHandlerTest {

    @Test
    void forwardsPathQueryAndBodyAndStripsHopByHop() throws Exception {
        try (LoomServer backend = Backends.start((req, res) -> {
            StringBuilder sb = new StringBuilder();
            sb.append(req.method()).append(' ').append(req.rawTarget()).append('\n');
            req.headers().forEach((n, v) -> sb.append(n.toLowerCase()).append('=').append(v).append('\n'));
            sb.append("body=").append(req.bodyString());
            res.send(sb.toString());
        });
             ProxyHandler proxy = ProxyHandler.builder("/app/", Backends.url(backend) + "base/").serverName("front").build();
             LoomServer front = Backends.start(proxy)) {
            HttpResponse<String> r = Backends.CLIENT.send(HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + front.port() + "/app/x/y?q=1%202"))
                    .header("X-Private", "secret").header("Forwarded-By-Test", "yes")
                    .POST(HttpRequest.BodyPublishers.ofString("hello")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode());
            String b = r.body();
            assertTrue(b.startsWith("POST /base/x/y?q=1%202\n"), b);
            assertTrue(b.contains("host=127.0.0.1:" + backend.port() + "\n"), b);
            assertTrue(b.contains("x-forwarded-for=127.0.0.1\n"), b);
            assertTrue(b.contains("x-forwarded-host=127.0.0.1:" + front.port() + "\n"), b);
            assertTrue(b.contains("x-forwarded-server=front\n"), b);
            assertTrue(b.contains("x-forwarded-proto=http\n"), b);
            assertTrue(b.contains("forwarded-by-test=yes\n"), b);
            assertTrue(b.endsWith("body=hello"), b);
        }
    }

    @Test
    void theComposedHeadAppendsToPriorListsAndJoinsPathsOnce() throws Exception {
        try (LoomServer backend = Backends.start((req, res) -> {
            StringBuilder sb = new StringBuilder(req.method() + " " + req.rawTarget() + "\n");
            req.headers().forEach((n, v) -> sb.append(n.toLowerCase()).append('=').append(v).append('\n'));
            res.send(sb.toString());
        });
             Balancer b = Balancer.builder("seams").member(Member.builder(Backends.url(backend) + "base/").build()).build();
             ProxyHandler proxy = ProxyHandler.builder("/app/", b).balancerPath("/sub/").via("front").build();
             LoomServer front = Backends.start(proxy);
             Socket s = new Socket("127.0.0.1", front.port())) {
            s.getOutputStream().write(("GET /app/x?y=1 HTTP/1.1\r\nHost: h\r\nX-Forwarded-For: 1.1.1.1\r\n"
                    + "Via: 1.0 fred\r\nX-Forwarded-For: 2.2.2.2, 3.3.3.3\r\nConnection: close\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            String all = new String(s.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            assertTrue(all.startsWith("HTTP/1.1 200"), all);
            assertTrue(all.contains("\r\n\r\nGET /base/sub/x?y=1\n"), all);
            assertTrue(all.contains("\nhost=127.0.0.1:" + backend.port() + "\n"), all);
            assertTrue(all.contains("\nx-forwarded-for=1.1.1.1, 2.2.2.2, 3.3.3.3, 127.0.0.1\n"), all);
            assertTrue(all.contains("\nx-forwarded-host=h\n"), all);
            assertTrue(all.contains("\nvia=1.0 fred, 1.1 front\n"), all);
            assertFalse(all.contains("connection="), all);
        }
    }

    @Test
    void requestFieldsNamedInConnectionAreNotForwarded() throws Exception {
        try (LoomServer backend = Backends.start((req, res) -> res.send(
                String.valueOf(req.header("X-Secret")) + "," + req.header("TE") + "," + req.header("Upgrade")));
             ProxyHandler proxy = ProxyHandler.to(Backends.url(backend));
             LoomServer front = Backends.start(proxy);
             Socket s = new Socket("127.0.0.1", front.port())) {
            s.getOutputStream().write(("GET / HTTP/1.1\r\nHost: x\r\nConnection: close, X-Secret\r\nX-Secret: 1\r\n"
                    + "TE: trailers\r\nUpgrade: foo\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            String all = new String(s.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            assertTrue(all.startsWith("HTTP/1.1 200"), all);
            assertTrue(all.endsWith("null,null,null"), all);
        }
    }

    @Test
    void responseFieldsNamedInConnectionAreNotPassedOn() throws Exception {
        try (ServerSocket raw = new ServerSocket(0);
             ProxyHandler proxy = ProxyHandler.to("http://127.0.0.1:" + raw.getLocalPort() + "/");
             LoomServer front = Backends.start(proxy)) {
            Thread.ofVirtual().start(() -> rawBackend(raw, "HTTP/1.1 200 OK\r\nConnection: X-Hop\r\nX-Hop: 1\r\n"
                    + "Keep-Alive: timeout=5\r\nProxy-Connection: x\r\nX-Kept: 2\r\nContent-Length: 2\r\n\r\nok"));
            HttpResponse<String> r = Backends.get(front, "/");
            assertEquals("ok", r.body());
            assertEquals("2", r.headers().firstValue("X-Kept").orElseThrow());
            assertFalse(r.headers().firstValue("X-Hop").isPresent(), "a field named in Connection is hop-by-hop");
            assertFalse(r.headers().firstValue("Keep-Alive").isPresent());
            assertFalse(r.headers().firstValue("Proxy-Connection").isPresent());
        }
    }

    @Test
    void locationIsRewrittenBack() throws Exception {
        try (LoomServer backend = Backends.start((req, res) -> {
            res.status(302).header("Location", "http://127.0.0.1:" + req.localAddress().getPort() + "/base/next?a=b")
                    .header("Content-Location", "http://elsewhere.example/x").send("");
        });
             ProxyHandler proxy = ProxyHandler.builder("/app/", Backends.url(backend) + "base/").build();
             LoomServer front = Backends.start(proxy)) {
            HttpResponse<String> r = Backends.get(front, "/app/start");
            assertEquals(302, r.statusCode());
            assertEquals("http://127.0.0.1:" + front.port() + "/app/next?a=b", r.headers().firstValue("Location").orElseThrow());
            assertEquals("http://elsewhere.example/x", r.headers().firstValue("Content-Location").orElseThrow());
        }
    }

    @Test
    void backendConnectionsAreReused() throws Exception {
        Set<Integer> ports = ConcurrentHashMap.newKeySet();
        try (LoomServer backend = Backends.start((req, res) -> {
            ports.add(req.remoteAddress().getPort());
            res.send("ok");
        });
             ProxyHandler proxy = ProxyHandler.to(Backends.url(backend));
             LoomServer front = Backends.start(proxy)) {
            for (int i = 0; i < 50; i++) {
                assertEquals("ok", Backends.get(front, "/r" + i).body());
            }
            assertEquals(1, ports.size(), "sequential requests share one pooled backend connection");
        }
    }

    @Test
    void headAndNoContentCarryNoBody() throws Exception {
        try (LoomServer backend = Backends.start((req, res) -> {
            if (req.path().equals("/none")) {
                res.status(204).send(new byte[0]);
            } else {
                res.send("twelve bytes");
            }
        });
             ProxyHandler proxy = ProxyHandler.to(Backends.url(backend));
             LoomServer front = Backends.start(proxy)) {
            HttpResponse<String> head = Backends.CLIENT.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + front.port() + "/x")).method("HEAD", HttpRequest.BodyPublishers.noBody())
                    .build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, head.statusCode());
            assertEquals("12", head.headers().firstValue("Content-Length").orElseThrow());
            assertEquals(204, Backends.get(front, "/none").statusCode());
            assertEquals("twelve bytes", Backends.get(front, "/x").body());
        }
    }

    @Test
    void refusedConnectIs503AndPutsMemberInError() throws Exception {
        int dead;
        try (ServerSocket ss = new ServerSocket(0)) {
            dead = ss.getLocalPort();
        }
        try (ProxyHandler proxy = ProxyHandler.to("http://127.0.0.1:" + dead + "/");
             LoomServer front = Backends.start(proxy)) {
            assertEquals(503, Backends.get(front, "/").statusCode());
            assertTrue(proxy.balancer().members().get(0).inError());
            assertEquals(503, Backends.get(front, "/").statusCode(), "in error state: not even tried");
        }
    }

    @Test
    void silentBackendIs504() throws Exception {
        try (ServerSocket silent = new ServerSocket(0);
             ProxyHandler proxy = ProxyHandler.builder("/", "http://127.0.0.1:" + silent.getLocalPort() + "/")
                     .timeout(Duration.ofMillis(300)).build();
             LoomServer front = Backends.start(proxy)) {
            Thread.ofVirtual().start(() -> {
                try (Socket s = silent.accept()) {
                    s.getInputStream().read(new byte[4096]);
                    Thread.sleep(5000);
                } catch (Exception ignored) {
                    // the test ends
                }
            });
            assertEquals(504, Backends.get(front, "/").statusCode());
        }
    }

    @Test
    void garbageFromBackendIs502() throws Exception {
        try (ServerSocket bad = new ServerSocket(0);
             ProxyHandler proxy = ProxyHandler.to("http://127.0.0.1:" + bad.getLocalPort() + "/");
             LoomServer front = Backends.start(proxy)) {
            Thread.ofVirtual().start(() -> rawBackend(bad, "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd"));
            assertEquals(502, Backends.get(front, "/").statusCode());
        }
    }

    @Test
    void backendClosingMidBodyCutsTheClientOff() throws Exception {
        for (String framing : new String[] {"Content-Length: 100000\r\n", "Transfer-Encoding: chunked\r\n"}) {
            try (ServerSocket bad = new ServerSocket(0);
                 ProxyHandler proxy = ProxyHandler.to("http://127.0.0.1:" + bad.getLocalPort() + "/");
                 LoomServer front = Backends.start(proxy);
                 Socket client = new Socket("127.0.0.1", front.port())) {
                String part = framing.startsWith("Content") ? "x".repeat(40000) : "9c40\r\n" + "x".repeat(40000) + "\r\n";
                Thread.ofVirtual().start(() -> rawBackend(bad, "HTTP/1.1 200 OK\r\n" + framing + "\r\n" + part));
                client.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                client.setSoTimeout(10_000);
                String got = new String(client.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
                assertTrue(got.startsWith("HTTP/1.1 200"), got.substring(0, Math.min(100, got.length())));
                if (framing.startsWith("Content")) {
                    assertTrue(got.contains("Content-Length: 100000"));
                    assertTrue(got.length() < 100000, "the client sees fewer bytes than announced, then EOF");
                } else {
                    assertFalse(got.endsWith("0\r\n\r\n"), "no final chunk after a backend failure");
                }
            }
        }
    }

    @Test
    void aSmallBodyCutShortIsACleanBadGateway() throws Exception {
        // A Content-Length body up to SMALL_BODY is read whole before the client sees anything.
        try (ServerSocket bad = new ServerSocket(0);
             ProxyHandler proxy = ProxyHandler.to("http://127.0.0.1:" + bad.getLocalPort() + "/");
             LoomServer front = Backends.start(proxy)) {
            Thread.ofVirtual().start(() -> rawBackend(bad, "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly part"));
            HttpResponse<String> r = Backends.get(front, "/");
            assertEquals(502, r.statusCode());
            assertFalse(r.body().contains("only part"));
        }
    }

    @Test
    void aSmallBodyArrivingInPiecesIsPassedWhole() throws Exception {
        String body = "y".repeat(ProxyExchange.SMALL_BODY);
        try (ServerSocket slow = new ServerSocket(0);
             ProxyHandler proxy = ProxyHandler.to("http://127.0.0.1:" + slow.getLocalPort() + "/");
             LoomServer front = Backends.start(proxy)) {
            Thread.ofVirtual().start(() -> {
                try (Socket s = slow.accept()) {
                    s.getInputStream().read(new byte[4096]);
                    OutputStream out = s.getOutputStream();
                    out.write(("HTTP/1.1 200 OK\r\nContent-Length: " + body.length() + "\r\n\r\nyy")
                            .getBytes(StandardCharsets.ISO_8859_1));
                    out.flush();
                    Thread.sleep(100);
                    out.write(body.substring(2).getBytes(StandardCharsets.ISO_8859_1));
                    out.flush();
                    s.getInputStream().read(new byte[16]); // until the proxy is done with it
                } catch (Exception ignored) {
                    // the test ends
                }
            });
            HttpResponse<String> r = Backends.get(front, "/");
            assertEquals(200, r.statusCode());
            assertEquals(body, r.body());
            assertEquals(String.valueOf(body.length()), r.headers().firstValue("Content-Length").orElse(null));
        }
    }

    @Test
    void expectContinueWaitsForTheBackendsVerdict() throws Exception {
        try (LoomServer backend = Backends.start((req, res) -> {
            if (req.path().equals("/deny")) {
                res.status(403).send("no");
            } else {
                res.send("got " + req.bodyString());
            }
        });
             ProxyHandler proxy = ProxyHandler.to(Backends.url(backend));
             LoomServer front = Backends.start(proxy);
             Socket s = new Socket("127.0.0.1", front.port())) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            out.write("POST /ok HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            String interim = readHead(in);
            assertTrue(interim.startsWith("HTTP/1.1 100"), interim);
            out.write("hello".getBytes(StandardCharsets.US_ASCII));
            String head = readHead(in);
            assertTrue(head.startsWith("HTTP/1.1 200"), head);
            assertEquals("got hello", new String(in.readNBytes(9), StandardCharsets.US_ASCII));
            out.write("POST /deny HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            String deny = readHead(in);
            assertTrue(deny.startsWith("HTTP/1.1 403"), "the backend's final answer, without a 100 first: " + deny);
        }
    }

    @Test
    void failsOverToTheNextMemberAndUsesHotStandbyLast() throws Exception {
        int dead;
        try (ServerSocket ss = new ServerSocket(0)) {
            dead = ss.getLocalPort();
        }
        try (LoomServer a = Backends.start((req, res) -> res.send("a"));
             LoomServer standby = Backends.start((req, res) -> res.send("standby"));
             Balancer b = Balancer.builder("t")
                     .member(Member.builder("http://127.0.0.1:" + dead + "/").build())
                     .member(Member.builder(Backends.url(a)).build())
                     .member(Member.builder(Backends.url(standby)).hotStandby(true).build()).build();
             LoomServer front = Backends.start(ProxyHandler.builder("/", b).build())) {
            for (int i = 0; i < 6; i++) {
                assertEquals("a", Backends.get(front, "/").body());
            }
            a.close();
            assertEquals("standby", Backends.get(front, "/").body());
            assertNull(null);
        }
    }

    @Test
    void aFullPoolAnswers503AfterAcquire() throws Exception {
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch entered = new java.util.concurrent.CountDownLatch(1);
        try (LoomServer backend = Backends.start((req, res) -> {
            entered.countDown();
            release.await();
            res.send("slow");
        });
             Balancer b = Balancer.builder("one").member(Member.builder(Backends.url(backend)).max(1)
                     .acquire(Duration.ofMillis(200)).build()).build();
             LoomServer front = Backends.start(ProxyHandler.builder("/", b).build())) {
            var first = Backends.CLIENT.sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + front.port() + "/a"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            entered.await();
            assertEquals(503, Backends.get(front, "/b").statusCode(), "max=1 is busy for longer than acquire");
            release.countDown();
            assertEquals("slow", first.get().body());
        }
    }

    @Test
    void idleConnectionsOlderThanTtlAreNotReused() throws Exception {
        Set<Integer> ports = ConcurrentHashMap.newKeySet();
        try (LoomServer backend = Backends.start((req, res) -> {
            ports.add(req.remoteAddress().getPort());
            res.send("ok");
        });
             Balancer b = Balancer.builder("ttl").member(Member.builder(Backends.url(backend)).ttl(Duration.ofMillis(100))
                     .build()).build();
             LoomServer front = Backends.start(ProxyHandler.builder("/", b).build())) {
            Backends.get(front, "/1");
            Backends.get(front, "/2");
            assertEquals(1, ports.size());
            Thread.sleep(250);
            Backends.get(front, "/3");
            assertEquals(2, ports.size(), "the connection idle past ttl was closed, a new one made");
            assertTrue(b.members().get(0).busy() == 0);
        }
    }

    @Test
    void anOversizedResponseHeadIs502() throws Exception {
        try (ServerSocket bad = new ServerSocket(0);
             ProxyHandler proxy = ProxyHandler.to("http://127.0.0.1:" + bad.getLocalPort() + "/");
             LoomServer front = Backends.start(proxy)) {
            StringBuilder head = new StringBuilder("HTTP/1.1 200 OK\r\n");
            for (int i = 0; i < 2000; i++) {
                head.append("X-Filler-").append(i).append(": ").append("v".repeat(40)).append("\r\n");
            }
            Thread.ofVirtual().start(() -> rawBackend(bad, head + "\r\n"));
            assertEquals(502, Backends.get(front, "/").statusCode(), "a head over 64 KiB is refused");
        }
    }

    static String readHead(InputStream in) throws java.io.IOException {
        StringBuilder sb = new StringBuilder();
        while (!sb.toString().endsWith("\r\n\r\n")) {
            int c = in.read();
            if (c < 0) {
                break;
            }
            sb.append((char) c);
        }
        return sb.toString();
    }

    private static void rawBackend(ServerSocket ss, String answer) {
        try (Socket s = ss.accept()) {
            s.getInputStream().read(new byte[4096]);
            s.getOutputStream().write(answer.getBytes(StandardCharsets.ISO_8859_1));
            s.getOutputStream().flush();
        } catch (Exception ignored) {
            // the test ends
        }
    }
}
