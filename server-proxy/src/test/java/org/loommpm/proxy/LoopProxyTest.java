package org.loommpm.proxy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.loommpm.api.Handler;
import org.loommpm.server.LoomServer;
import org.loommpm.engine.ChildStats;
import org.loommpm.engine.EngineStats;
import org.loommpm.engine.PollerStats;

/**
 * The proxied exchange on the poller ({@link LoopExchange}): requests the poller may serve are
 * proxied there (counted as inline requests), with backend connections the poller owns, bodies
 * relayed with back-pressure, and the failure rules of the virtual-thread path.
 */
class LoopProxyTest {

    private static long inlineRequests(LoomServer s) {
        long n = 0;
        for (ChildStats ch : EngineStats.of(s.stats()).children()) {
            for (PollerStats p : ch.pollerStats()) {
                n += p.inlineRequests();
            }
        }
        return n;
    }

    @Test
    void getsAndPostsAreProxiedOnThePollerOverPooledConnections() throws Exception {
        Handler echo = (req, res) -> res.header("X-Seen-Method", req.method())
                .send(("body=" + new String(req.body().readAllBytes(), StandardCharsets.UTF_8)).getBytes());
        try (LoomServer backend = LoomServer.builder().listen("127.0.0.1", 0)
                .configure(c -> c.maxKeepAliveRequests(0)).handler(echo).start();
             ProxyHandler proxy = ProxyHandler.to(Backends.url(backend));
             LoomServer front = Backends.start(proxy)) {
            long before = inlineRequests(front);
            for (int i = 0; i < 20; i++) {
                HttpResponse<String> r = Backends.get(front, "/x" + i);
                assertEquals(200, r.statusCode());
                assertEquals("body=", r.body());
            }
            // A POST whose body came with its head: on the poller too (the JDK client writes them apart).
            try (Socket client = new Socket("127.0.0.1", front.port())) {
                client.getOutputStream().write(("POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n"
                        + "Connection: close\r\n\r\nhello").getBytes(StandardCharsets.US_ASCII));
                String got = new String(client.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
                assertTrue(got.startsWith("HTTP/1.1 200") && got.endsWith("body=hello"), got);
                assertTrue(got.contains("X-Seen-Method: POST"), got);
            }
            assertTrue(inlineRequests(front) >= before + 21, "served on the poller: " + (inlineRequests(front) - before));
            long opened = backend.stats().connectionsAccepted();
            assertTrue(opened <= 4, "backend connections reused: " + opened);
        }
    }

    @Test
    void offThePollerEveryRequestTakesAWorker() throws Exception {
        try (LoomServer backend = Backends.start((req, res) -> res.send("ok"));
             ProxyHandler proxy = ProxyHandler.builder("/", Backends.url(backend)).onPoller(false).build();
             LoomServer front = Backends.start(proxy)) {
            long before = inlineRequests(front);
            for (int i = 0; i < 5; i++) {
                assertEquals("ok", Backends.get(front, "/").body());
            }
            assertEquals(before, inlineRequests(front));
        }
    }

    @Test
    void largeBodiesPassWholeWithTheirFraming() throws Exception {
        byte[] big = new byte[3 << 20];
        new Random(7).nextBytes(big);
        Handler h = (req, res) -> {
            if (req.path().equals("/chunked")) {
                try (OutputStream out = res.outputStream()) {
                    for (int off = 0; off < big.length; off += 10_000) {
                        out.write(big, off, Math.min(10_000, big.length - off));
                        out.flush();
                    }
                }
            } else {
                res.send(big);
            }
        };
        try (LoomServer backend = Backends.start(h);
             ProxyHandler proxy = ProxyHandler.to(Backends.url(backend));
             LoomServer front = Backends.start(proxy)) {
            for (String path : new String[] {"/length", "/chunked"}) {
                HttpResponse<byte[]> r = Backends.CLIENT.send(HttpRequest.newBuilder(URI.create(Backends.url(front)
                        + path.substring(1))).build(), HttpResponse.BodyHandlers.ofByteArray());
                assertEquals(200, r.statusCode());
                assertArrayEquals(big, r.body(), path);
                if (path.equals("/length")) {
                    assertEquals(String.valueOf(big.length), r.headers().firstValue("Content-Length").orElse(null),
                            "a known length is announced, not chunked");
                }
            }
        }
    }

    @Test
    void aClientThatDoesNotReadHoldsTheBackendBack() throws Exception {
        long total = 256L << 20;
        AtomicLong written = new AtomicLong();
        CountDownLatch backendDone = new CountDownLatch(1);
        try (ServerSocket raw = new ServerSocket(0);
             ProxyHandler proxy = ProxyHandler.to("http://127.0.0.1:" + raw.getLocalPort() + "/");
             LoomServer front = Backends.start(proxy);
             Socket client = new Socket("127.0.0.1", front.port())) {
            Thread.ofVirtual().start(() -> {
                try (Socket s = raw.accept()) {
                    s.getInputStream().read(new byte[4096]);
                    OutputStream out = s.getOutputStream();
                    out.write(("HTTP/1.1 200 OK\r\nContent-Length: " + total + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                    byte[] block = new byte[64 * 1024];
                    while (written.get() < total) {
                        out.write(block);
                        written.addAndGet(block.length);
                    }
                } catch (Exception ignored) {
                    // the test ends
                } finally {
                    backendDone.countDown();
                }
            });
            client.setReceiveBufferSize(64 * 1024);
            client.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            Thread.sleep(1500); // the client reads nothing meanwhile
            long stalled = written.get();
            assertTrue(stalled < 64L << 20, "the backend is held back while the client does not read: " + stalled);
            InputStream in = client.getInputStream();
            byte[] buf = new byte[1 << 16];
            long got = 0;
            client.setSoTimeout(30_000);
            for (int n; got < total + 20 && (n = in.read(buf)) > 0; ) {
                got += n;
            }
            assertTrue(got > total, "the whole body then passes: " + got);
            assertTrue(backendDone.await(10, TimeUnit.SECONDS));
        }
    }

    @Test
    void aRefusedMemberIsSkippedAndAnUnansweredGetIsSentElsewhere() throws Exception {
        int dead;
        try (ServerSocket s = new ServerSocket(0)) {
            dead = s.getLocalPort();
        }
        try (LoomServer backend = Backends.start((req, res) -> res.send("alive"));
             Balancer b = Balancer.builder("t").member(Member.builder("http://127.0.0.1:" + dead + "/").build())
                     .member(Member.builder(Backends.url(backend)).build()).lbMethod(LbMethod.BYREQUESTS).build();
             LoomServer front = Backends.start(ProxyHandler.builder("/", b).build())) {
            for (int i = 0; i < 6; i++) {
                HttpResponse<String> r = Backends.get(front, "/");
                assertEquals(200, r.statusCode());
                assertEquals("alive", r.body());
            }
        }
    }

    @Test
    void aSilentBackendIs504AndAFullPoolWaitsThen503() throws Exception {
        List<Socket> held = new ArrayList<>();
        try (ServerSocket silent = new ServerSocket(0)) {
            Thread.ofVirtual().start(() -> {
                try {
                    for (;;) {
                        Socket s = silent.accept();
                        synchronized (held) {
                            held.add(s);
                        }
                    }
                } catch (Exception ignored) {
                    // closed
                }
            });
            Balancer b = Balancer.builder("s").member(Member.builder("http://127.0.0.1:" + silent.getLocalPort() + "/")
                    .max(1).acquire(Duration.ofMillis(200)).build()).timeout(Duration.ofMillis(600)).build();
            try (b; LoomServer front = Backends.start(ProxyHandler.builder("/", b).timeout(Duration.ofMillis(600)).build())) {
                CompletableFuture<HttpResponse<String>> first = Backends.CLIENT.sendAsync(
                        HttpRequest.newBuilder(URI.create(Backends.url(front))).build(), HttpResponse.BodyHandlers.ofString());
                Thread.sleep(150);
                long t0 = System.nanoTime();
                HttpResponse<String> second = Backends.get(front, "/");
                long waited = (System.nanoTime() - t0) / 1_000_000;
                assertEquals(503, second.statusCode(), "max=1 busy for acquire");
                assertTrue(waited >= 150, "it waited for a free connection: " + waited + " ms");
                assertEquals(504, first.get(10, TimeUnit.SECONDS).statusCode());
            } finally {
                synchronized (held) {
                    for (Socket s : held) {
                        s.close();
                    }
                }
            }
        }
    }
    @Test
    void aClientGoneBeforeTheAnswerLeaksNothing() throws Exception {
        Handler slow = (req, res) -> {
            Thread.sleep(300);
            res.send("late");
        };
        try (LoomServer backend = Backends.start(slow);
             Balancer b = Balancer.builder("g").member(Member.builder(Backends.url(backend)).max(1)
                     .acquire(Duration.ofMillis(100)).build()).build();
             LoomServer front = Backends.start(ProxyHandler.builder("/", b).build())) {
            for (int i = 0; i < 3; i++) {
                try (Socket gone = new Socket("127.0.0.1", front.port())) {
                    gone.getOutputStream().write("GET /g HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                }
                Thread.sleep(500); // the backend answers a client that left
                HttpResponse<String> r = Backends.get(front, "/ok");
                assertEquals(200, r.statusCode(), "the member's one connection was given back");
                assertEquals("late", r.body());
            }
        }
    }
    @Test
    void aProxyRouteOfARouterRunsOnThePollerToo() throws Exception {
        try (LoomServer backend = Backends.start((req, res) -> res.send("routed " + req.rawTarget()));
             ProxyHandler proxy = ProxyHandler.builder("/app/", Backends.url(backend)).build();
             LoomServer front = Backends.start(new org.loommpm.api.Router()
                     .route("GET", "/app/*", proxy).route("POST", "/app/*", proxy)
                     .get("/local", (q, s) -> s.send("local")))) {
            long before = inlineRequests(front);
            for (int i = 0; i < 5; i++) {
                assertEquals("routed /x" + i, Backends.get(front, "/app/x" + i).body());
            }
            assertEquals("local", Backends.get(front, "/local").body());
            assertTrue(inlineRequests(front) >= before + 5, "the proxy's route on the poller: "
                    + (inlineRequests(front) - before));
        }
    }
}
