package org.loommpm.http2.it;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.loommpm.http2.it.FrameClient.HEADERS;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.loommpm.config.RequestReadTimeout;

/**
 * {@code RequestReadTimeout header=} on HTTP/2: the rest of a connection preface and a header
 * block left waiting for its CONTINUATION frames are bounded by the header stage's first timeout
 * (1 s here), not by {@code Timeout} (60 s): the server closes the connection.
 */
class HeadTimeoutTest {
    static H2Server server;

    @BeforeAll
    static void start() throws Exception {
        server = H2Server.start((req, res) -> res.send("ok"), s -> s,
                b -> b.requestReadTimeout(RequestReadTimeout.DEFAULT.withHeader(
                        new RequestReadTimeout.Stage(Duration.ofSeconds(1), Duration.ofSeconds(2), 500))));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void headerBlockWithoutItsContinuationIsClosed() throws Exception {
        try (FrameClient c = FrameClient.open(server.port())) {
            c.frame(HEADERS, 0, 1, c.block(FrameClient.get("/")));
            assertTrue(c.closedByServer(), "closed at the header stage, long before Timeout");
        }
    }

    @Test
    void unfinishedPrefaceIsClosed() throws Exception {
        try (FrameClient c = new FrameClient(server.port())) {
            c.raw("PRI * HTTP/2.0\r\n\r\nS".getBytes(StandardCharsets.US_ASCII));
            assertTrue(c.closedByServer(), "closed at the header stage, long before Timeout");
        }
    }
}
