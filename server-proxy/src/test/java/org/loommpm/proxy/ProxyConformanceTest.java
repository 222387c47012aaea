package org.loommpm.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.loommpm.server.LoomServer;

/** Edge cases of RFC 9110/9112 a proxy must get right, against raw-socket backends and a raw client. */
class ProxyConformanceTest {

    /** Sends {@code request} (with {@code Connection: close}) and reads the whole answer. */
    private static String exchange(LoomServer front, String request) throws Exception {
        try (Socket client = new Socket("127.0.0.1", front.port())) {
            client.setSoTimeout(10_000);
            client.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
            return new String(client.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        }
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

    @Test
    void aTransferCodingOtherThanChunkedIsRefusedNotPassedOnUndecoded() throws Exception {
        for (boolean onPoller : new boolean[] {true, false}) {
            try (ServerSocket bad = new ServerSocket(0);
                 ProxyHandler proxy = ProxyHandler.builder("/", "http://127.0.0.1:" + bad.getLocalPort() + "/")
                         .onPoller(onPoller).build();
                 LoomServer front = Backends.start(proxy)) {
                // "gzip, chunked": the chunks hold gzip data; the proxy drops Transfer-Encoding as
                // hop-by-hop, so passing the decoded chunks on would hand the client gzip bytes as
                // if they were the representation itself.
                Thread.ofVirtual().start(() -> rawBackend(bad,
                        "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n5\r\n\u001f\u008b\u0008\u0000\u0000\r\n0\r\n\r\n"));
                String got = exchange(front, "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
                assertTrue(got.startsWith("HTTP/1.1 502"), "onPoller=" + onPoller + ": " + got);
            }
        }
    }

    @Test
    void aHeadAnswerWithoutLengthIsNotGivenALengthOfZero() throws Exception {
        try (ServerSocket be = new ServerSocket(0);
             ProxyHandler proxy = ProxyHandler.to("http://127.0.0.1:" + be.getLocalPort() + "/");
             LoomServer front = Backends.start(proxy)) {
            // The GET would be chunked: its length is unknown, and the HEAD answer must not claim 0.
            Thread.ofVirtual().start(() -> rawBackend(be, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"));
            String got = exchange(front, "HEAD / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
            assertTrue(got.startsWith("HTTP/1.1 200"), got);
            assertFalse(got.contains("Content-Length: 0"), got);
        }
    }

    @Test
    void anEarlyHintBeforeTheContinueDoesNotLoseTheContinue() throws Exception {
        try (ServerSocket be = new ServerSocket(0);
             ProxyHandler proxy = ProxyHandler.builder("/", "http://127.0.0.1:" + be.getLocalPort() + "/")
                     .timeout(Duration.ofSeconds(3)).build();
             LoomServer front = Backends.start(proxy)) {
            Thread.ofVirtual().start(() -> {
                try (Socket s = be.accept()) {
                    InputStream in = s.getInputStream();
                    OutputStream out = s.getOutputStream();
                    ProxyHandlerTest.readHead(in);
                    out.write("HTTP/1.1 103 Early Hints\r\nLink: </s.css>; rel=preload\r\n\r\nHTTP/1.1 100 Continue\r\n\r\n"
                            .getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                    byte[] body = in.readNBytes(5); // the backend waits for the body its 100 asked for
                    out.write(("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nConnection: close\r\n\r\n"
                            + new String(body, StandardCharsets.US_ASCII)).getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                } catch (Exception ignored) {
                    // the test ends
                }
            });
            try (Socket client = new Socket("127.0.0.1", front.port())) {
                client.setSoTimeout(10_000);
                OutputStream out = client.getOutputStream();
                InputStream in = client.getInputStream();
                out.write("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n"
                        .getBytes(StandardCharsets.US_ASCII));
                String hint = ProxyHandlerTest.readHead(in);
                assertTrue(hint.startsWith("HTTP/1.1 103 Early Hints\r\nLink: </s.css>; rel=preload\r\n"), hint);
                String interim = ProxyHandlerTest.readHead(in);
                assertTrue(interim.startsWith("HTTP/1.1 100"), interim);
                out.write("hello".getBytes(StandardCharsets.US_ASCII));
                String head = ProxyHandlerTest.readHead(in);
                assertTrue(head.startsWith("HTTP/1.1 200"), head);
                assertEquals("hello", new String(in.readNBytes(5), StandardCharsets.US_ASCII));
            }
        }
    }

    @Test
    void interimResponsesAreRelayedWithoutTheirHopByHopFields() throws Exception {
        String answer = "HTTP/1.1 103 Early Hints\r\nLink: </s.css>; rel=preload\r\nConnection: x-hop\r\nX-Hop: 1\r\n\r\n"
                + "HTTP/1.1 102 Processing\r\n\r\n"
                + "HTTP/1.1 100 Continue\r\n\r\n"
                + "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";
        for (boolean onPoller : new boolean[] {true, false}) {
            try (ServerSocket be = new ServerSocket(0);
                 ProxyHandler proxy = ProxyHandler.builder("/", "http://127.0.0.1:" + be.getLocalPort() + "/")
                         .onPoller(onPoller).build();
                 LoomServer front = Backends.start(proxy)) {
                Thread.ofVirtual().start(() -> rawBackend(be, answer));
                String got = exchange(front, "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
                assertTrue(got.startsWith("HTTP/1.1 103 Early Hints\r\nLink: </s.css>; rel=preload\r\n\r\n"
                        + "HTTP/1.1 102 Processing\r\n\r\nHTTP/1.1 200 OK\r\n"), "onPoller=" + onPoller + ": " + got);
                assertTrue(got.endsWith("\r\n\r\nok"), got);
                // An HTTP/1.0 client takes no interim response (RFC 9110 §15.2).
                Thread.ofVirtual().start(() -> rawBackend(be, answer));
                got = exchange(front, "GET / HTTP/1.0\r\nHost: x\r\n\r\n");
                assertTrue(got.startsWith("HTTP/1.1 200 OK\r\n"), "onPoller=" + onPoller + ": " + got);
            }
        }
    }

    @Test
    void viaIsAddedToResponsesToo() throws Exception {
        for (boolean onPoller : new boolean[] {true, false}) {
            try (ServerSocket be = new ServerSocket(0);
                 ProxyHandler proxy = ProxyHandler.builder("/", "http://127.0.0.1:" + be.getLocalPort() + "/")
                         .via("front").onPoller(onPoller).build();
                 LoomServer front = Backends.start(proxy)) {
                Thread.ofVirtual().start(() -> rawBackend(be,
                        "HTTP/1.1 200 OK\r\nVia: 1.0 inner\r\nContent-Length: 2\r\n\r\nok"));
                String got = exchange(front, "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
                assertTrue(got.contains("\r\nVia: 1.0 inner, 1.1 front\r\n"), "onPoller=" + onPoller + ": " + got);
            }
        }
    }

    @Test
    void aResponseWithoutContentTypeIsNotGivenOne() throws Exception {
        for (boolean onPoller : new boolean[] {true, false}) {
            try (ServerSocket be = new ServerSocket(0);
                 ProxyHandler proxy = ProxyHandler.builder("/", "http://127.0.0.1:" + be.getLocalPort() + "/")
                         .onPoller(onPoller).build();
                 LoomServer front = Backends.start(proxy)) {
                // A backend that leaves the type to the client's sniffing: the proxy must not decide it.
                Thread.ofVirtual().start(() -> rawBackend(be, "HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\n<p>hi!"));
                String got = exchange(front, "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
                assertTrue(got.startsWith("HTTP/1.1 200"), got);
                assertFalse(got.contains("Content-Type"), "onPoller=" + onPoller + ": " + got);
            }
        }
    }

    @Test
    void aPostWithoutBodyIsNotSentAgainAfterTheBackendTookIt() throws Exception {
        for (boolean onPoller : new boolean[] {true, false}) {
            AtomicInteger posts = new AtomicInteger();
            try (ServerSocket be = new ServerSocket(0);
                 ProxyHandler proxy = ProxyHandler.builder("/", "http://127.0.0.1:" + be.getLocalPort() + "/")
                         .onPoller(onPoller).build();
                 LoomServer front = Backends.start(proxy);
                 Socket client = new Socket("127.0.0.1", front.port())) {
                Thread.ofVirtual().start(() -> {
                    try {
                        for (;;) {
                            Socket s = be.accept();
                            Thread.ofVirtual().start(() -> {
                                try (s) {
                                    for (;;) {
                                        String head = ProxyHandlerTest.readHead(s.getInputStream());
                                        if (head.isEmpty()) {
                                            return;
                                        }
                                        if (head.startsWith("POST")) {
                                            posts.incrementAndGet();
                                            return; // took it (and acted on it), then died before answering
                                        }
                                        s.getOutputStream().write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
                                                .getBytes(StandardCharsets.US_ASCII));
                                    }
                                } catch (Exception ignored) {
                                    // the test ends
                                }
                            });
                        }
                    } catch (Exception ignored) {
                        // the test ends
                    }
                });
                client.setSoTimeout(10_000);
                OutputStream out = client.getOutputStream();
                InputStream in = client.getInputStream();
                out.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                assertTrue(ProxyHandlerTest.readHead(in).startsWith("HTTP/1.1 200"));
                in.readNBytes(2); // the backend connection is now idle in the pool
                out.write("POST /order HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                String head = ProxyHandlerTest.readHead(in);
                assertEquals(1, posts.get(), "onPoller=" + onPoller + ": a POST is not repeated (" + head.lines().findFirst().orElse("") + ")");
                assertTrue(head.startsWith("HTTP/1.1 502"), head);
            }
        }
    }
}
