package org.loommpm.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.loommpm.server.LoomServer;

/**
 * What the backend is sent for a request target (issue 51): the normalised path the proxy's
 * prefix matched, encoded again with its path parameters, never the target as sent; and nothing
 * at all for a request refused before it could be forwarded. Raw sockets both sides, so the
 * request line the backend reads is exactly what went out; the poller's path and the worker's.
 */
class ProxyTargetTest {
    private ServerSocket backend;
    private final AtomicInteger connections = new AtomicInteger();

    @BeforeEach
    void startBackend() throws IOException {
        backend = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().start(() -> {
            while (!backend.isClosed()) {
                try {
                    Socket s = backend.accept();
                    connections.incrementAndGet();
                    Thread.ofVirtual().start(() -> answerWithTarget(s));
                } catch (IOException e) {
                    return; // closed: the test ended
                }
            }
        });
    }

    @AfterEach
    void stopBackend() throws IOException {
        backend.close();
    }

    /** Answers one request with the target of its request line as the body, and closes. */
    private static void answerWithTarget(Socket s) {
        try (s) {
            String head = readHead(s.getInputStream());
            String target = head.split(" ", 3)[1];
            byte[] body = target.getBytes(StandardCharsets.ISO_8859_1);
            s.getOutputStream().write(("HTTP/1.1 200 OK\r\nContent-Length: " + body.length
                    + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
            s.getOutputStream().write(body);
        } catch (IOException | RuntimeException e) {
            // a request the proxy gave up on
        }
    }

    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (int c; (c = in.read()) >= 0; ) {
            b.write(c);
            if (b.size() >= 4 && b.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
                break;
            }
        }
        return b.toString(StandardCharsets.ISO_8859_1);
    }

    private LoomServer front(boolean onPoller) throws IOException {
        return Backends.start(ProxyHandler.builder("/b/", "http://127.0.0.1:" + backend.getLocalPort() + "/app/")
                .onPoller(onPoller).build());
    }

    /** Sends {@code request} and returns the status and, for a 200, the body: "200 /app/x". */
    private static String send(LoomServer front, String request) throws IOException {
        try (Socket c = new Socket("127.0.0.1", front.port())) {
            c.setSoTimeout(10_000);
            c.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            String answer = new String(c.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            String status = answer.substring(9, 12);
            return status.equals("200") ? status + " " + answer.substring(answer.indexOf("\r\n\r\n") + 4) : status;
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        // target                         | answer
        "/b/x                             | 200 /app/x",
        "/b/secret;x=1                    | 200 /app/secret;x=1",
        "/b/secret;x=1/admin              | 200 /app/secret;x=1/admin",
        "/b/secret/../ok                  | 200 /app/ok",
        "/b/x/../../b/y                   | 200 /app/y",
        "/b/x/..;/secret                  | 200 /app/secret",
        "/b/;x/y                          | 200 /app/y",
        "/b//y                            | 200 /app/y",
        "/b/x/%2e%2e/y                    | 200 /app/y",
        "/b/x%2F..%2Fy                    | 200 /app/y",
        "/b/caf%c3%a9                     | 200 /app/caf%C3%A9",
        "/b/a%3Fb                         | 200 /app/a%3Fb",
        "/b/pub;jsessionid=abc.n1?q=/../x | 200 /app/pub;jsessionid=abc.n1?q=/../x",
        "/b/                              | 200 /app/",
        "/b/x/..                          | 200 /app/",
        "http://front.example/b/y         | 200 /app/y",
        "http://front.example/b/x/../y?z  | 200 /app/y?z",
        "/b/x/../../y                     | 404",
        "/b/../b/y                        | 200 /app/y",
        "/b/secret.                       | 400",
        "/b/secret%20                     | 400",
        "/b/x/../../..                    | 400",
    })
    void theBackendGetsTheNormalisedPathEncodedAgain(String target, String answer) throws Exception {
        for (boolean onPoller : new boolean[] {true, false}) {
            try (LoomServer front = front(onPoller)) {
                assertEquals(answer, send(front, "GET " + target + " HTTP/1.1\r\nHost: front.example\r\n"
                        + "Connection: close\r\n\r\n"), target + ", onPoller=" + onPoller);
            }
        }
    }

    /** A chunk-size line that does not parse is refused before any backend hears of the request. */
    @ParameterizedTest
    @ValueSource(strings = {"1ffffffffffffffff", "zz", "-1", ""})
    void aMalformedFirstChunkSizeIsRefusedBeforeTheBackendIsContacted(String sizeLine) throws Exception {
        try (LoomServer front = front(true)) {
            String got = send(front, "POST /b/upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + sizeLine + "\r\nhello\r\n0\r\n\r\n");
            assertEquals("400", got, sizeLine);
            assertEquals(0, connections.get(), "the backend was contacted for " + sizeLine);
            // A well-formed chunked body still goes through.
            got = send(front, "POST /b/upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
                    + "Connection: close\r\n\r\n5\r\nhello\r\n0\r\n\r\n");
            assertTrue(got.startsWith("200 /app/upload"), got);
        }
    }
}
