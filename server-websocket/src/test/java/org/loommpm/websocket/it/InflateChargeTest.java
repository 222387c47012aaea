package org.loommpm.websocket.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.loommpm.websocket.frame.ClientFrames.deflate;
import static org.loommpm.websocket.frame.ClientFrames.frame;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.loommpm.api.Router;
import org.loommpm.config.ClientChargeSettings;
import org.loommpm.engine.EngineStats;
import org.loommpm.server.LoomServer;
import org.loommpm.testsupport.TestServers;
import org.loommpm.websocket.WebSocketHandler;
import org.loommpm.websocket.WebSocketSession;

/**
 * Issue #50 item 4: what a permessage-deflate client makes the server inflate. A message that
 * inflates more than WebSocketMaxInflateRatio (100:1 by default) is closed 1008 and counted,
 * though it is under the message limit; and the bytes inflated are charged to the client's
 * address, whose sockets are closed 1008 once it is over its share, its next socket too, while
 * another address is served.
 */
class InflateChargeTest {
    private static final String DEFLATE = "Sec-WebSocket-Extensions: permessage-deflate\r\n";
    private static final WebSocketHandler ECHO = new WebSocketHandler() {
        @Override
        public void onBinary(WebSocketSession s, byte[] data) {
            s.sendBinary(new byte[] {(byte) data.length, (byte) (data.length >> 8), (byte) (data.length >> 16)});
        }
    };

    /** Random letters: they deflate to about 60 %, a ratio far under any limit. */
    private static byte[] letters(int n, long seed) {
        Random random = new Random(seed);
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) ('a' + random.nextInt(26));
        }
        return b;
    }

    private static RawWebSocket open(LoomServer server, InetAddress from) throws Exception {
        Socket s = new Socket();
        if (from != null) {
            s.bind(new InetSocketAddress(from, 0));
        }
        RawWebSocket ws = new RawWebSocket(s, server.port(), 10_000);
        if (!s.isConnected()) {
            s.connect(new InetSocketAddress("127.0.0.1", server.port()), 5_000);
        }
        assertEquals(101, ws.handshake("/echo", DEFLATE).status());
        return ws;
    }

    /** The echoed length, or minus the close code. */
    private static int answer(RawWebSocket ws) throws Exception {
        RawWebSocket.Frame f = ws.frame();
        if (f.opcode() == 8) {
            return -f.closeCode();
        }
        byte[] p = f.payload();
        return (p[0] & 0xFF) | (p[1] & 0xFF) << 8 | (p[2] & 0xFF) << 16;
    }

    private static long refused(LoomServer server) {
        return EngineStats.of(server.stats()).protocols().value("loom.websocket.inflate.refused");
    }

    @Test
    void aBombUnderTheMessageLimitIsClosed1008() throws Exception {
        LoomServer server = TestServers.start(new Router().websocket("/echo", ECHO), c -> { });
        try (RawWebSocket ws = open(server, null)) {
            byte[] fine = letters(200_000, 1);
            ws.send(frame(0xC2, deflate(fine)));
            assertEquals(fine.length, answer(ws), "a message at ~1.7:1 is served");
            byte[] bomb = deflate(new byte[512 * 1024]); // about 520 bytes: 1000:1
            assertTrue(bomb.length < 1024, "a bomb: " + bomb.length);
            ws.send(frame(0xC2, bomb));
            assertEquals(-1008, answer(ws), "512 KiB from " + bomb.length + " bytes, under the 1 MiB message limit");
            assertTrue(ws.closedByServer());
            assertEquals(1, refused(server));
        } finally {
            server.close();
        }
    }

    @Test
    void anAddressOverItsShareHasItsSocketsClosed() throws Exception {
        // No refill within the test, a burst of 1 MiB: three 300 KB messages are within the
        // share, the next ones are slowed (in debt up to another MiB), then the address is refused.
        ClientChargeSettings tight = ClientChargeSettings.DEFAULTS.withRate(1, ClientChargeSettings.HANDSHAKE_UNITS);
        LoomServer server = TestServers.start(new Router().websocket("/echo", ECHO), c -> c.clientCharges(tight));
        try {
            byte[] z = deflate(letters(300_000, 2));
            int served = 0;
            try (RawWebSocket ws = open(server, null)) {
                int a;
                while ((a = answer(ws.send(frame(0xC2, z)))) > 0) {
                    assertEquals(300_000, a);
                    served++;
                    assertTrue(served < 10, "refused by now");
                }
                assertEquals(-1008, a);
                assertTrue(ws.closedByServer());
            }
            assertEquals(7, served, "3 within the share, 4 slowed, the 8th refused");
            try (RawWebSocket again = open(server, null)) {
                again.send(frame(0xC2, z));
                assertEquals(-1008, answer(again), "a new socket of the same address: its first message");
            }
            try (RawWebSocket elsewhere = open(server, InetAddress.getByName("127.0.0.2"))) {
                elsewhere.send(frame(0xC2, z));
                assertEquals(300_000, answer(elsewhere), "another address has its own share");
            }
            assertEquals(2, refused(server));
        } finally {
            server.close();
        }
    }
}
