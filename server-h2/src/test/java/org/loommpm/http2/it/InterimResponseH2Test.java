package org.loommpm.http2.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.loommpm.api.Handler;
import org.loommpm.api.Headers;
import org.loommpm.api.SuspendedResponse;

/** {@code sendInterim} over HTTP/2: a HEADERS frame with {@code :status 103} ahead of the answer's, without END_STREAM. */
class InterimResponseH2Test {
    private static final String LINK = "</app.js>; rel=preload; as=script";

    final Handler app = (req, res) -> {
        if (req.path().equals("/suspended")) {
            SuspendedResponse later = res.suspend();
            Thread.ofVirtual().start(() -> {
                try {
                    later.sendInterim(103, new Headers().add("Link", LINK));
                    later.send("later");
                } catch (IOException e) {
                    later.abort();
                }
            });
            return;
        }
        res.sendInterim(103, new Headers().add("Link", LINK));
        res.send("ok");
    };

    /** Reads stream 1's first HEADERS frame: the interim response's. */
    private static Map<String, String> interim(FrameClient c) throws IOException {
        FrameClient.Frame f = c.expect(FrameClient.HEADERS);
        assertEquals(1, f.stream());
        assertFalse(f.has(FrameClient.END_STREAM), "an interim response does not end the stream");
        return c.fields(f);
    }

    @Test
    void earlyHintsPrecedeTheAnswer() throws Exception {
        try (H2Server server = H2Server.start(app); FrameClient c = FrameClient.open(server.port())) {
            c.headers(1, true, FrameClient.get("/"));
            Map<String, String> hint = interim(c);
            assertEquals("103", hint.get(":status"));
            assertEquals(LINK, hint.get("link"));
            FrameClient.Response r = c.response(1);
            assertEquals("200", r.headers().get(":status"));
            assertEquals("ok", r.text());
        }
    }

    @Test
    void aSuspendedExchangeSendsThemToo() throws Exception {
        try (H2Server server = H2Server.start(app); FrameClient c = FrameClient.open(server.port())) {
            c.headers(1, true, FrameClient.get("/suspended"));
            assertEquals("103", interim(c).get(":status"));
            assertEquals("later", c.response(1).text());
        }
    }
}
