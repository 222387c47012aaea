package org.loommpm.proxy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The backend connection's output buffer: a head composed in it, and writes around it, reach the backend in order. */
class BackendConnectionTest {

    @Test
    void aHeadLargerThanTheBufferAndTheBodyAfterItArriveWhole() throws Exception {
        try (ServerSocket ss = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress());
             BackendConnection c = BackendConnection.open(
                     new InetSocketAddress(ss.getInetAddress(), ss.getLocalPort()), 5000);
             Socket peer = ss.accept()) {
            peer.setSoTimeout(10_000);
            String big = "v".repeat(40_000);
            c.ascii("GET /").ascii("x?a", 1).ascii("abc", 1, 2).ascii(" HTTP/1.1\r\nX-Big: ").ascii(big)
                    .ascii("\r\nContent-Length: ").decimal(1234567890123L).ascii("\r\nX-Zero: ").decimal(0)
                    .ascii("\r\n\r\n");
            c.flush();
            byte[] small = "small".getBytes(StandardCharsets.US_ASCII);
            byte[] large = new byte[20_000];
            java.util.Arrays.fill(large, (byte) 'L');
            c.out().write(small);
            c.out().write(large, 0, large.length);
            c.out().write('!');
            c.flush();
            String head = "GET /?ab HTTP/1.1\r\nX-Big: " + big + "\r\nContent-Length: 1234567890123\r\nX-Zero: 0\r\n\r\n";
            ByteArrayOutputStream want = new ByteArrayOutputStream();
            want.write(head.getBytes(StandardCharsets.US_ASCII));
            want.write(small);
            want.write(large);
            want.write('!');
            byte[] got = readN(peer.getInputStream(), want.size());
            assertEquals(head, new String(got, 0, head.length(), StandardCharsets.US_ASCII));
            assertArrayEquals(want.toByteArray(), got);
        }
    }

    private static byte[] readN(InputStream in, int n) throws java.io.IOException {
        byte[] b = new byte[n];
        int off = 0;
        while (off < n) {
            int r = in.read(b, off, n - off);
            if (r < 0) {
                break;
            }
            off += r;
        }
        return java.util.Arrays.copyOf(b, off);
    }
}
