package org.loommpm.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.loommpm.server.LoomServer;
import org.loommpm.testsupport.TargetEcho;

/**
 * What the backend is sent for a request target (issue 51): the normalised path the proxy's
 * prefix matched, encoded again with its path parameters, never the target as sent; and nothing
 * at all for a request refused before it could be forwarded. Raw sockets both sides, so the
 * request line the backend reads is exactly what went out; the poller's path and the worker's.
 */
class ProxyTargetTest {
    private TargetEcho backend;

    @BeforeEach
    void startBackend() throws IOException {
        backend = TargetEcho.start();
    }

    @AfterEach
    void stopBackend() throws IOException {
        backend.close();
    }

    private LoomServer front(boolean onPoller) throws IOException {
        return Backends.start(ProxyHandler.builder("/b/", "http://127.0.0.1:" + backend.port() + "/app/")
                .onPoller(onPoller).build());
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
                assertEquals(answer, TargetEcho.exchange(front.port(), "GET " + target + " HTTP/1.1\r\nHost: front.example\r\n"
                        + "Connection: close\r\n\r\n"), target + ", onPoller=" + onPoller);
            }
        }
    }

    /** A chunk-size line that does not parse is refused before any backend hears of the request. */
    @ParameterizedTest
    @ValueSource(strings = {"1ffffffffffffffff", "zz", "-1", ""})
    void aMalformedFirstChunkSizeIsRefusedBeforeTheBackendIsContacted(String sizeLine) throws Exception {
        try (LoomServer front = front(true)) {
            String got = TargetEcho.exchange(front.port(), "POST /b/upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + sizeLine + "\r\nhello\r\n0\r\n\r\n");
            assertEquals("400", got, sizeLine);
            assertEquals(0, backend.connections(), "the backend was contacted for " + sizeLine);
            // A well-formed chunked body still goes through.
            got = TargetEcho.exchange(front.port(), "POST /b/upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
                    + "Connection: close\r\n\r\n5\r\nhello\r\n0\r\n\r\n");
            assertTrue(got.startsWith("200 /app/upload"), got);
        }
    }
}
