package org.loommpm.http2.it;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** Traffic that makes every protocol counter move, shared by the metrics tests. */
final class ProtocolTraffic {
    private ProtocolTraffic() {
    }

    /** One h2c connection by prior knowledge, one stream, then the client's GOAWAY (NO_ERROR). */
    static void h2cStreamThenGoaway(int port) throws Exception {
        try (FrameClient f = FrameClient.open(port)) {
            f.headers(1, true, FrameClient.get("/hello"));
            f.expect(FrameClient.DATA);
            f.frame(FrameClient.GOAWAY, 0, 0, new byte[8]); // last stream 0, NO_ERROR
            f.closedByServer();
        }
    }

    /** A plaintext request, then a garbage ClientHello, on a TLS port: one of each failed outcome. */
    static void plaintextAndGarbageHelloOnTls(int port) throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            s.getInputStream().readAllBytes();
        }
        try (Socket s = new Socket("127.0.0.1", port)) {
            OutputStream out = s.getOutputStream();
            out.write(new byte[] {0x16, 0x03, 0x01, 0x00, 0x08, 1, 0, 0, 4, 9, 9, 9, 9});
            out.flush();
            s.getInputStream().readAllBytes();
        }
    }
}
