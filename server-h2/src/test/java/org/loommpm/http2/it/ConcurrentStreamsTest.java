package org.loommpm.http2.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.io.OutputStream;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Stress for the outbound queue's contract (many stream tasks offer concurrently, the frame
 * loop alone polls) and for the parking on windows and the queue bound: 100 streams on one
 * connection each stream a distinct 256 KiB body in odd-sized writes; every body must arrive
 * intact.
 */
class ConcurrentStreamsTest {
    static byte[] body(int stream) {
        byte[] b = new byte[256 * 1024];
        new Random(stream).nextBytes(b);
        return b;
    }

    @Test
    void hundredStreamsInterleaveIntact() throws Exception {
        try (H2Server server = H2Server.start((req, res) -> {
            byte[] b = body(Integer.parseInt(req.queryParam("s")));
            try (OutputStream out = res.outputStream()) {
                for (int i = 0; i < b.length; i += 777) {
                    out.write(b, i, Math.min(777, b.length - i));
                }
            }
        }); FrameClient c = FrameClient.open(server.port())) {
            for (int i = 0; i < 100; i++) {
                int id = 1 + 2 * i;
                c.headers(id, true, FrameClient.get("/?s=" + id));
            }
            for (int i = 0; i < 100; i++) {
                int id = 1 + 2 * i;
                assertArrayEquals(body(id), c.response(id).body(), "stream " + id);
            }
        }
    }
}
