package org.loommpm.http2.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.loommpm.api.SuspendedResponse;

/**
 * Each stream's exchange is counted in its worker's scoreboard slot (or, suspended and answered
 * from another thread, in its child's totals) and reported to the observer.
 */
class AccountingTest {
    record Exchange(String protocol, String method, int status, long bytesIn, long bytesOut) {
    }

    @Test
    void streamsAreCountedAndObserved() throws Exception {
        List<Exchange> seen = new CopyOnWriteArrayList<>();
        try (H2Server server = H2Server.start((req, res) -> res.send(req.bodyBytes()), s -> s, b -> b,
                (protocol, method, status, in, out, nanos) -> seen.add(new Exchange(protocol, method, status, in, out)));
             FrameClient c = FrameClient.open(server.port())) {
            c.headers(1, true, FrameClient.get("/a"));
            c.headers(3, false, ":method", "POST", ":scheme", "http", ":path", "/b", ":authority", "x");
            c.data(3, new byte[1000], true);
            assertEquals(0, c.response(1).body().length);
            assertEquals(1000, c.response(3).body().length);
            TestWait.until("two exchanges observed", 5, () -> seen.size() == 2);
            TestWait.until("two accesses on the scoreboard", 5, () -> server.supervisor().requests() == 2);
            Exchange post = seen.stream().filter(e -> e.method().equals("POST")).findFirst().orElseThrow();
            assertEquals("HTTP/2.0", post.protocol());
            assertEquals(200, post.status());
            assertTrue(post.bytesIn() >= 1000, "body bytes counted in: " + post);
            assertTrue(post.bytesOut() >= 1000, "body bytes counted out: " + post);
            assertTrue(server.supervisor().bytesSent() >= 1000);
        }
    }

    /** A suspended stream answered from another thread is an access too, as on HTTP/1.1 ("Total Accesses" = the timer's count). */
    @Test
    void suspendedStreamsAreAccessesToo() throws Exception {
        List<Exchange> seen = new CopyOnWriteArrayList<>();
        try (H2Server server = H2Server.start((req, res) -> {
                    SuspendedResponse later = res.suspend();
                    Thread.ofVirtual().start(() -> {
                        try {
                            later.send(new byte[500]);
                        } catch (java.io.IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                    });
                }, s -> s, b -> b,
                (protocol, method, status, in, out, nanos) -> seen.add(new Exchange(protocol, method, status, in, out)));
             FrameClient c = FrameClient.open(server.port())) {
            c.headers(1, true, FrameClient.get("/a"));
            assertEquals(500, c.response(1).body().length);
            TestWait.until("the exchange observed", 5, () -> seen.size() == 1);
            TestWait.until("the exchange counted as an access", 5, () -> server.supervisor().requests() == 1);
            assertEquals(seen.get(0).bytesOut(), server.supervisor().bytesSent());
        }
    }
}
