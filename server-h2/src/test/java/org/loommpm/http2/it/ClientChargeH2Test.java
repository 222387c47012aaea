package org.loommpm.http2.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.loommpm.http2.it.FrameClient.CONTINUATION;
import static org.loommpm.http2.it.FrameClient.END_HEADERS;
import static org.loommpm.http2.it.FrameClient.HEADERS;

import java.io.IOException;
import java.net.InetAddress;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.loommpm.api.Handler;
import org.loommpm.config.ClientChargeSettings;

/**
 * Issue #50 item 4: header blocks answered 431 are charged to the client's address, so a client
 * that reconnects does not get a fresh allowance with each connection (OversizedHeaderGuard's 10 a
 * minute per connection): once its address is over its share, its new connection is refused
 * with GOAWAY ENHANCE_YOUR_CALM at its first oversized block, while another address is served.
 */
class ClientChargeH2Test {
    static final int ENHANCE_YOUR_CALM = 11;
    final Handler app = (req, res) -> res.send("ok");

    /** A request whose 120 KiB of random letters Huffman-code to about 90 KiB: about 0.7 MiB of units. */
    private static String[] bigRequest() {
        Random random = new Random(50);
        String[] fields = new String[8 + 2 * 8];
        System.arraycopy(FrameClient.get("/"), 0, fields, 0, 8);
        for (int i = 0; i < 8; i++) {
            char[] value = new char[15_000];
            for (int j = 0; j < value.length; j++) {
                value[j] = (char) ('a' + random.nextInt(26));
            }
            fields[8 + 2 * i] = "x-big-" + i;
            fields[9 + 2 * i] = new String(value);
        }
        return fields;
    }

    private static void send(FrameClient c, int stream, byte[] block) throws IOException {
        for (int off = 0; off < block.length; off += 16_384) {
            int flags = (off + 16_384 >= block.length ? END_HEADERS : 0) | (off == 0 ? FrameClient.END_STREAM : 0);
            c.frame(off == 0 ? HEADERS : CONTINUATION, flags, stream,
                    Arrays.copyOfRange(block, off, Math.min(block.length, off + 16_384)));
        }
    }

    @Test
    void aReconnectingClientIsRefusedOnItsNewConnectionAfterItsShare() throws Exception {
        // One unit a second back (none, in the test's time), a burst of one handshake's units
        // (1 MiB): the first block is within the share, the next two are slowed (in debt up to a
        // burst), and from then on the address is refused, whatever connection it comes on.
        ClientChargeSettings tight = ClientChargeSettings.DEFAULTS.withRate(1, ClientChargeSettings.HANDSHAKE_UNITS);
        String[] fields = bigRequest();
        // The list limit the blocks were sized for (64 KiB): at the 32 KiB default they are over twice
        // the limit and end the connection at once, whatever the charge.
        try (H2Server server = H2Server.start(app, s -> s.withMaxHeaderListSize(65_536), b -> b.clientCharges(tight))) {
            try (FrameClient first = FrameClient.open(server.port())) {
                for (int stream = 1; stream <= 3; stream += 2) {
                    byte[] block = first.block(fields);
                    assertTrue(block.length > 80_000 && block.length < 100_000, "Huffman-coded: " + block.length);
                    send(first, stream, block);
                    assertEquals(431, first.response(stream).status(), "stream " + stream);
                }
            }
            try (FrameClient second = FrameClient.open(server.port())) {
                send(second, 1, second.block(fields));
                assertEquals(431, second.response(1).status(), "the third block, slowed");
                send(second, 3, second.block(fields));
                assertEquals(ENHANCE_YOUR_CALM, second.expectGoAway(),
                        "the fourth block of the address, the second of this connection");
                assertTrue(second.closedByServer());
            }
            try (FrameClient third = FrameClient.open(server.port())) {
                send(third, 1, third.block(fields));
                assertEquals(ENHANCE_YOUR_CALM, third.expectGoAway(), "a new connection's first block");
            }
            InetAddress other = InetAddress.getByName("127.0.0.2");
            try (FrameClient elsewhere = FrameClient.open(server.port(), other)) {
                send(elsewhere, 1, elsewhere.block(fields));
                assertEquals(431, elsewhere.response(1).status(), "another address has its own share");
                elsewhere.headers(3, true, FrameClient.get("/"));
                assertEquals("ok", elsewhere.response(3).text());
            }
            try (FrameClient same = FrameClient.open(server.port())) {
                same.headers(1, true, FrameClient.get("/"));
                assertEquals("ok", same.response(1).text(), "ordinary requests of the refused address are served");
            }
        }
    }
}
